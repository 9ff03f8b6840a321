// Gymnasium 1.x's common wrappers beyond TimeLimit and
// RecordEpisodeStatistics: OrderEnforcing and PassiveEnvChecker (what
// `make` puts under every environment, as Gymnasium's make does) and
// Autoreset. `makeWrappers` is make's part: which of the two it applies.
import { Wrapper, describe, namedError, typeError, keepNames } from './core.js';
import { checkRender, checkReset, checkSpace, checkStep } from './passive-checker.js';
import { warn } from './warn.js';

/** @import { ResetArgs } from './index.js' */
/** @import { AnyEnv } from './core.js' */
/** @typedef {{ orderEnforce?: unknown, disableEnvChecker?: unknown, disableRenderOrderEnforcing?: unknown }} Flags make's, unchecked */

/** Gymnasium's ResetNeeded: step or render before the first reset. */
const resetNeeded = (/** @type {string} */ message) => namedError('ResetNeeded', message);

/**
 * @param {unknown} value
 * @param {string} what
 */
function readFlag(value, what) {
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') throw typeError(`${what} must be a boolean, got ${describe(value)}`);
  return value;
}

/**
 * A wrapper's spec: the one below with `changes` (null without one).
 * @param {import('./core.js').Env['spec']} spec
 * @param {{ [flag: string]: boolean }} changes
 */
function specWith(spec, changes) {
  return spec ? Object.freeze({ ...spec, ...changes }) : spec;
}

/**
 * A ResetNeeded error for `step` (and `render`, unless
 * `disableRenderOrderEnforcing`) before the first `reset`.
 */
export class OrderEnforcing extends Wrapper {
  /**
   * @param {unknown} env
   * @param {{ disableRenderOrderEnforcing?: boolean }} [options] checked
   */
  constructor(env, { disableRenderOrderEnforcing = false } = {}) {
    super(env);
    this.disableRenderOrderEnforcing = readFlag(disableRenderOrderEnforcing, 'OrderEnforcing: disableRenderOrderEnforcing');
    this._hasReset = false;
  }
  /** Whether reset has been called. */
  get hasReset() {
    return this._hasReset;
  }
  /** @param {ResetArgs} [args] */
  reset(args) {
    this._hasReset = true;
    return this.env.reset(args);
  }
  /** @param {any} action */
  step(action) {
    if (!this._hasReset) throw resetNeeded('Cannot call env.step() before calling env.reset()');
    return this.env.step(action);
  }
  render() {
    if (!this.disableRenderOrderEnforcing && !this._hasReset) {
      throw resetNeeded(
        'Cannot call env.render() before calling env.reset(); if that is intended, wrap with {disableRenderOrderEnforcing: true}',
      );
    }
    return this.env.render();
  }
  get spec() {
    return specWith(super.spec, { orderEnforce: true });
  }
  /** @param {import('./core.js').Env['spec']} spec */
  set spec(spec) {
    super.spec = spec;
  }
}

/**
 * Gymnasium's passive checks around an environment: the spaces when
 * wrapped (a TypeError if one is not a Space), then what the first reset,
 * the first step and the first render return. Problems are warnings
 * (process warnings of type GymnasiumWarning in Node, console.warn
 * elsewhere); nothing returned is changed.
 */
export class PassiveEnvChecker extends Wrapper {
  /** @param {unknown} env */
  constructor(env) {
    super(env);
    checkSpace(this.env.actionSpace, 'action');
    checkSpace(this.env.observationSpace, 'observation');
    this.checkedReset = false;
    this.checkedStep = false;
    this.checkedRender = false;
    this.closeCalled = false;
  }
  /** @param {ResetArgs} [args] */
  reset(args) {
    if (this.checkedReset) return this.env.reset(args);
    this.checkedReset = true;
    return checkReset(this.env, args);
  }
  /** @param {any} action */
  step(action) {
    if (this.checkedStep) return this.env.step(action);
    this.checkedStep = true;
    return checkStep(this.env, action);
  }
  render() {
    if (this.checkedRender) return this.env.render();
    this.checkedRender = true;
    return checkRender(this.env);
  }
  /** Closing twice must be allowed: a second close that throws warns, then throws. */
  close() {
    if (!this.closeCalled) {
      this.closeCalled = true;
      return this.env.close();
    }
    try {
      return this.env.close();
    } catch (error) {
      warn('Calling `env.close()` on the closed environment should be allowed, but it threw.');
      throw error;
    }
  }
  get spec() {
    return specWith(super.spec, { disableEnvChecker: false });
  }
  /** @param {import('./core.js').Env['spec']} spec */
  set spec(spec) {
    super.spec = spec;
  }
}

/**
 * Gymnasium 1.x's Autoreset: the step after an episode ends resets the
 * environment and returns its first observation and info with reward 0,
 * not terminated, not truncated (the action is ignored): next-step
 * autoreset, as the vector environments' default.
 */
export class Autoreset extends Wrapper {
  /** @param {unknown} env */
  constructor(env) {
    super(env);
    this.autoreset = false;
  }
  /** @param {ResetArgs} [args] */
  reset(args) {
    const result = this.env.reset(args);
    this.autoreset = false;
    return result;
  }
  /** @param {any} action */
  step(action) {
    let result;
    if (this.autoreset) {
      const [observation, info] = this.env.reset();
      result = [observation, 0, false, false, info];
    } else {
      result = this.env.step(action);
    }
    this.autoreset = Boolean(result[2] || result[3]);
    return result;
  }
}

/**
 * make's flag `name`: its option when given, else the spec's, else `fallback`.
 * @param {Flags} options
 * @param {Flags} spec
 * @param {keyof Flags} name
 * @param {boolean} fallback
 */
function flagOf(options, spec, name, fallback) {
  if (options[name] !== undefined && options[name] !== null) return readFlag(options[name], `make: ${name}`);
  return spec[name] === undefined ? fallback : readFlag(spec[name], name);
}

/**
 * What make puts around an environment it made, innermost first:
 * PassiveEnvChecker unless `disableEnvChecker`, then OrderEnforcing where
 * `orderEnforce` (the default), with `disableRenderOrderEnforcing`; each
 * flag is make's option (`options`), else the spec's. Returns the
 * environment and the flags applied, for the made spec.
 * @param {AnyEnv} env
 * @param {Flags} spec
 * @param {Flags} options
 */
export function makeWrappers(env, spec, options) {
  const applied = {
    orderEnforce: flagOf({}, spec, 'orderEnforce', true),
    disableEnvChecker: flagOf(options, spec, 'disableEnvChecker', false),
    disableRenderOrderEnforcing: flagOf(options, spec, 'disableRenderOrderEnforcing', false),
  };
  let out = env;
  if (!applied.disableEnvChecker) out = new PassiveEnvChecker(out);
  if (applied.orderEnforce) out = new OrderEnforcing(out, { disableRenderOrderEnforcing: applied.disableRenderOrderEnforcing });
  return { env: out, applied };
}

keepNames({ OrderEnforcing, PassiveEnvChecker, Autoreset });
