// Gymnasium's Env and Wrapper for JavaScript, and what every module of
// compgym/gym shares: typed errors, argument readers, value comparison.
//
// An environment is an object with reset({seed, options}) -> [observation,
// info] and step(action) -> [observation, reward, terminated, truncated,
// info], and actionSpace / observationSpace as compgym Spaces. Extend Env to
// write one; extend Wrapper (or its Observation/Reward/Action bases) to
// change one.
import { Rng, Space } from '../api.js';
import { namedError, valueError, typeError, lookupError } from '../errors.js';

/**
 * Gives each class its name as written in its module, which bundlers and
 * minifiers change (`_CompilerGymEnv`, `He`), so reprs and messages stay
 * Gymnasium's: `keepNames({ TimeLimit })` (a shorthand key is the name as
 * written, whatever the class's binding is renamed to). A user's subclass
 * keeps its own name.
 * @param {{ [name: string]: Function }} classes
 */
export function keepNames(classes) {
  for (const [name, cls] of Object.entries(classes)) Object.defineProperty(cls, 'name', { value: name, configurable: true });
}

export { namedError, valueError, typeError, lookupError };

/** @typedef {import('./arrays.js').TypedArray} TypedArray */
/** @import { Info, Metadata, EnvSpec, ResetArgs, ResetResult, StepResult, RenderFrame } from './index.js' */
/** @import { GymFaceSpec } from '../compgym.js' */
// `Space` and `Rng` here are the guarded classes (values); their objects' types:
/** @typedef {import('../compgym.js').Space} SpaceObject */
/** @typedef {import('../compgym.js').Rng} RngObject */
/**
 * An environment as the wrappers and vector envs see it: an object with
 * reset and step (`requireEnv` checks no more); the rest of its members are
 * whatever the environment made them, read where used.
 * @typedef {{ reset(args?: unknown): any, step(action: any): any, [member: string]: any }} AnyEnv
 */

/**
 * A module URL a worker can import: absolute, a relative one resolved against the page (or the working directory).
 * @param {string | URL} module
 */
export function moduleUrl(module) {
  const base = globalThis.location?.href ?? `file://${globalThis.process?.cwd?.() ?? ''}/`;
  return new URL(module, base).href;
}

/** Optional behaviour an environment does not have, as the core says it. */
export const notImplemented = (/** @type {string} */ message) => namedError('TypeError', `NotImplemented: ${message}`);

/**
 * A short description of a value for error messages.
 * @param {unknown} value
 */
export function describe(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (ArrayBuffer.isView(value)) return `a ${value.constructor.name}(${/** @type {TypedArray} */ (value).length})`;
  if (typeof value === 'object') return `a ${value.constructor?.name ?? 'object'}`;
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? value.slice(0, 40) + '…' : value)}`;
  return `${typeof value} ${String(value)}`;
}

/**
 * @param {unknown} value
 * @returns {value is { [key: string]: any }}
 */
export function isPlainObject(value) {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * @param {any} value
 * @returns {value is AnyEnv}
 */
export function isEnv(value) {
  return value !== null && typeof value === 'object' && typeof value.reset === 'function' && typeof value.step === 'function';
}

/**
 * @param {any} value
 * @returns {value is SpaceObject}
 */
export function isSpace(value) {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof value.contains === 'function' &&
    typeof value.sample === 'function' &&
    typeof value.toJSON === 'function'
  );
}

/**
 * @param {unknown} value
 * @param {string} what
 * @returns {Function}
 */
export function requireFunction(value, what) {
  if (typeof value !== 'function') throw typeError(`${what} must be a function, got ${describe(value)}`);
  return value;
}

/**
 * @param {unknown} value
 * @param {string} what
 * @returns {AnyEnv}
 */
export function requireEnv(value, what) {
  if (!isEnv(value)) {
    throw typeError(`${what} must be an environment (an object with reset and step), got ${describe(value)}`);
  }
  return value;
}

/**
 * @param {unknown} value
 * @param {string} what
 * @returns {SpaceObject}
 */
export function requireSpace(value, what) {
  if (!isSpace(value)) throw typeError(`${what} must be a compgym Space, got ${describe(value)}`);
  return value;
}

const MAX_SEED = 2n ** 64n - 1n;

/**
 * A seed: null/undefined (none), a non-negative safe integer or a BigInt below 2^64.
 * @param {unknown} seed
 * @returns {number | bigint | null}
 */
export function readSeed(seed, what = 'seed') {
  if (seed === undefined || seed === null) return null;
  if (typeof seed === 'bigint') {
    if (seed < 0n || seed > MAX_SEED) throw valueError(`${what} must be in [0, 2^64), got ${seed}`);
    return seed;
  }
  if (typeof seed !== 'number') throw typeError(`${what} must be a non-negative integer or BigInt, got ${describe(seed)}`);
  if (!Number.isSafeInteger(seed) || seed < 0) {
    throw valueError(`${what} must be a non-negative safe integer (or a BigInt), got ${seed}`);
  }
  return seed;
}

/**
 * reset's one argument: undefined or `{seed, options}`.
 * @param {unknown} args
 * @returns {{ seed: number | bigint | null, options: { [key: string]: any } | null }}
 */
export function readResetArgs(args, what = 'reset') {
  if (args === undefined || args === null) return { seed: null, options: null };
  if (!isPlainObject(args)) {
    throw typeError(
      `${what} takes one object {seed, options}, got ${describe(args)}; write reset({seed: ${typeof args === 'number' ? args : '42'}})`,
    );
  }
  for (const key of Object.keys(args)) {
    if (key !== 'seed' && key !== 'options') throw typeError(`${what}: unknown argument ${JSON.stringify(key)} (known: seed, options)`);
  }
  const options = args.options ?? null;
  if (options !== null && (typeof options !== 'object' || Array.isArray(options))) {
    throw typeError(`${what}: options must be an object, got ${describe(options)}`);
  }
  return { seed: readSeed(args.seed, `${what}: seed`), options };
}

/** A fresh seed when nobody gave one (Gymnasium takes it from the OS). */
export function entropySeed() {
  return Math.floor(Math.random() * 2 ** 53);
}

/**
 * The seed an action space gets from a freshly seeded generator: its first draw, by the core's rule.
 * @param {RngObject} rng
 */
export function actionSeedFrom(rng) {
  return rng.drawSeed();
}

/**
 * Deep equality of environment data: typed arrays by type and contents,
 * arrays, plain objects (same keys), numbers (NaN equals NaN), BigInts.
 * @param {any} a
 * @param {any} b
 * @returns {boolean}
 */
export function dataEqual(a, b) {
  if (Object.is(a, b)) return true;
  if (typeof a !== typeof b) return false;
  if (typeof a === 'number') return a === b || (Number.isNaN(a) && Number.isNaN(b));
  if (a === null || b === null || typeof a !== 'object') return false;
  if (ArrayBuffer.isView(a)) {
    if (!ArrayBuffer.isView(b) || a.constructor !== b.constructor) return false;
    const [x, y] = /** @type {[TypedArray, TypedArray]} */ ([a, b]);
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (!(x[i] === y[i] || (x[i] !== x[i] && y[i] !== y[i]))) return false;
    return true;
  }
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => dataEqual(x, b[i]));
  if (Array.isArray(b) || ArrayBuffer.isView(b)) return false;
  if (a instanceof Error || b instanceof Error)
    return a instanceof Error && b instanceof Error && a.name === b.name && a.message === b.message;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => Object.prototype.hasOwnProperty.call(b, k) && dataEqual(a[k], b[k]));
}

/** @type {{ [dtype: string]: [bigint, bigint] }} */
const INT64_LIMITS = { int64: [-(2n ** 63n), 2n ** 63n - 1n], uint64: [0n, 2n ** 64n - 1n] };

/**
 * A space description made exact again: `toJSON()` gives 64-bit integer
 * bounds as (rounded) numbers, so bounds beyond 2^53 come back as BigInts,
 * clamped into the dtype.
 * @param {any} description a space's `toJSON()`, or a part of one (plain JSON: any shape)
 * @returns {any} the same description, its 64-bit bounds exact
 */
export function exactDescription(description) {
  if (Array.isArray(description)) return description.map(exactDescription);
  if (!isPlainObject(description)) return description;
  const limits = INT64_LIMITS[description.dtype];
  const exact = (/** @type {unknown} */ x) => {
    if (!limits || typeof x !== 'number' || Number.isSafeInteger(x)) return x;
    return x >= Number(limits[1]) ? limits[1] : x <= Number(limits[0]) ? limits[0] : BigInt(x);
  };
  /** @type {{ [key: string]: unknown }} */
  const out = {};
  for (const [key, value] of Object.entries(description)) {
    out[key] = key === 'low' || key === 'high' ? (Array.isArray(value) ? value.map(exact) : exact(value)) : exactDescription(value);
  }
  return out;
}

/**
 * An independent copy of a space (with a fresh generator: reseed it to sample).
 * @param {SpaceObject} space
 */
export function copySpace(space) {
  return Space.fromJSON(exactDescription(space.toJSON()));
}

/**
 * Calls `env[name](...args)`, or says the environment does not have it.
 * @param {AnyEnv} env
 * @param {string} name
 * @param {unknown[]} args
 * @param {string} who
 */
export function callOptional(env, name, args, who) {
  const f = env?.[name];
  if (typeof f !== 'function') throw notImplemented(`${who} has no ${name}()`);
  return f.apply(env, args);
}

/**
 * Gymnasium's Env. Subclasses set `this.actionSpace` and
 * `this.observationSpace` (compgym Spaces) and define `step`; their `reset`
 * calls `super.reset({seed})` first, which seeds `this.npRandom` (a
 * compgym `Rng`) and then the action space from its first draw, so one
 * seed fixes everything.
 */
export class Env {
  // Set by every environment (the declared face: a Space).
  get actionSpace() {
    return /** @type {SpaceObject} */ (this._actionSpace);
  }
  /** @param {SpaceObject} space */
  set actionSpace(space) {
    this._actionSpace = space;
  }
  get observationSpace() {
    return /** @type {SpaceObject} */ (this._observationSpace);
  }
  /** @param {SpaceObject} space */
  set observationSpace(space) {
    this._observationSpace = space;
  }
  get rewardRange() {
    return this._rewardRange ?? [-Infinity, Infinity];
  }
  /** @param {[number, number]} range */
  set rewardRange(range) {
    this._rewardRange = range;
  }
  get metadata() {
    return this._metadata ?? { renderModes: [], renderFps: null };
  }
  /** @param {Metadata} metadata */
  set metadata(metadata) {
    this._metadata = metadata;
  }
  get renderMode() {
    return this._renderMode ?? null;
  }
  /** @param {string | null} mode */
  set renderMode(mode) {
    this._renderMode = mode;
  }
  get spec() {
    return this._spec ?? null;
  }
  /** @param {EnvSpec | GymFaceSpec | null} spec */
  set spec(spec) {
    this._spec = spec;
  }

  /** The environment's generator, seeded by reset({seed}) (from entropy if never seeded). */
  get npRandom() {
    if (!this._npRandom) this._seed(entropySeed());
    return /** @type {RngObject} */ (this._npRandom); // set by _seed
  }
  /** @param {RngObject} rng */
  set npRandom(rng) {
    this._npRandom = rng;
    /** @type {number | bigint | undefined} */
    this._npRandomSeed = -1;
  }
  /** The seed of npRandom; -1 if it was set directly, null before it exists. */
  get npRandomSeed() {
    return this._npRandomSeed ?? null;
  }

  /** @param {number | bigint} seed */
  _seed(seed) {
    this._npRandom = new Rng(seed);
    this._npRandomSeed = seed;
    if (isSpace(this.actionSpace)) this.actionSpace.seed(actionSeedFrom(this._npRandom));
  }

  /**
   * Seeds npRandom (and the action space) when given a seed; subclasses return [observation, info].
   * @param {ResetArgs | undefined} [args] checked here
   * @returns {any}
   */
  reset(args) {
    const { seed } = readResetArgs(args);
    if (seed !== null) this._seed(seed);
    return undefined;
  }

  /**
   * @param {any} action
   * @returns {any}
   */
  step(action) {
    throw notImplemented(`${this.constructor.name} must define step(action)`);
  }

  /**
   * A frame in the render mode; null without one.
   * @returns {RenderFrame}
   */
  render() {
    return null;
  }

  close() {}

  get unwrapped() {
    return this;
  }

  /**
   * The attribute `name` of this environment (wrappers look down their stack).
   * @param {string} name
   * @returns {unknown}
   */
  getWrapperAttr(name) {
    if (!(name in this)) throw lookupError(`${this.constructor.name} has no attribute ${JSON.stringify(name)}`);
    return /** @type {any} */ (this)[name];
  }

  /**
   * Sets `name` where it is found in the stack (here, for an unwrapped environment).
   * @param {string} name
   * @param {unknown} value
   */
  setWrapperAttr(name, value) {
    /** @type {any} */ (this)[name] = value;
  }

  /** A copy in the same state. Environments that can copy themselves override it. */
  /** @returns {Env} */
  fork() {
    throw notImplemented(`${this.constructor.name} cannot fork`);
  }

  toString() {
    return this.spec?.id ? `${this.constructor.name}<${this.spec.id}>` : this.constructor.name;
  }
}

/**
 * Gymnasium's Wrapper, with CompilerGym's extensions: it forwards what it
 * does not change (spaces, reward range, metadata, spec, npRandom, render,
 * close, and a compiler environment's compilerEnv, benchmark, actions,
 * episodeReward, state, commandline() and validate()) to the environment
 * it wraps, and `fork()` forks that environment and copies the wrapper.
 *
 * The default `fork()` makes a shallow copy of the wrapper's own fields
 * (with the same prototype) around the forked environment, with its own
 * copies of the spaces the wrapper made (fresh generators, as a new
 * wrapper's would be; reseed them to sample): a wrapper with
 * nested mutable state (arrays, maps) overrides `fork()`, calls
 * `super.fork()` and copies that state into the result. Wrappers that
 * keep state in `#private` fields must override `fork()` entirely.
 */
export class Wrapper extends Env {
  /** @param {unknown} env checked: an object with reset and step */
  constructor(env) {
    super();
    this.env = requireEnv(env, `${new.target.name}'s environment`);
  }

  /** @param {ResetArgs} [args] */
  reset(args) {
    return this.env.reset(args);
  }
  /** @param {any} action */
  step(action) {
    return this.env.step(action);
  }
  render() {
    return this.env.render();
  }
  close() {
    return this.env.close();
  }

  get actionSpace() {
    return this._actionSpace ?? this.env.actionSpace;
  }
  set actionSpace(space) {
    this._actionSpace = space;
  }
  get observationSpace() {
    return this._observationSpace ?? this.env.observationSpace;
  }
  set observationSpace(space) {
    this._observationSpace = space;
  }
  get rewardRange() {
    return this._rewardRange ?? this.env.rewardRange;
  }
  set rewardRange(range) {
    this._rewardRange = range;
  }
  get metadata() {
    return this._metadata ?? this.env.metadata;
  }
  set metadata(metadata) {
    this._metadata = metadata;
  }
  get renderMode() {
    return this.env.renderMode;
  }
  get spec() {
    return this._spec ?? this.env.spec;
  }
  set spec(spec) {
    this._spec = spec;
  }
  get npRandom() {
    return this.env.npRandom;
  }
  set npRandom(rng) {
    this.env.npRandom = rng;
  }
  get npRandomSeed() {
    return this.env.npRandomSeed;
  }
  get unwrapped() {
    return this.env.unwrapped ?? this.env;
  }

  /** @param {string} name */
  getWrapperAttr(name) {
    if (name in this) return /** @type {any} */ (this)[name];
    if (typeof this.env.getWrapperAttr === 'function') return this.env.getWrapperAttr(name);
    if (name in this.env) return this.env[name];
    throw lookupError(`no environment in the stack of ${this} has an attribute ${JSON.stringify(name)}`);
  }

  /**
   * @param {string} name
   * @param {unknown} value
   */
  setWrapperAttr(name, value) {
    if (Object.prototype.hasOwnProperty.call(this, name)) {
      /** @type {any} */ (this)[name] = value;
    } else if (typeof this.env.setWrapperAttr === 'function') {
      this.env.setWrapperAttr(name, value);
    } else {
      this.env[name] = value;
    }
  }

  // ---- a compiler environment's members, forwarded ---------------------
  get compilerEnv() {
    return this.env.compilerEnv;
  }
  get benchmark() {
    return this.env.benchmark;
  }
  get actions() {
    return this.env.actions;
  }
  get episodeReward() {
    return this.env.episodeReward;
  }
  get state() {
    return this.env.state;
  }
  commandline() {
    return callOptional(this.env, 'commandline', [], String(this.env));
  }
  validate() {
    return callOptional(this.env, 'validate', [], String(this.env));
  }

  fork() {
    const forked = callOptional(this.env, 'fork', [], String(this.env));
    const copy = Object.create(Object.getPrototypeOf(this));
    Object.assign(copy, this);
    copy.env = forked;
    // Spaces the wrapper made are the fork's own, as a new wrapper would make them.
    if (isSpace(this._actionSpace)) copy._actionSpace = copySpace(this._actionSpace);
    if (isSpace(this._observationSpace)) copy._observationSpace = copySpace(this._observationSpace);
    return copy;
  }

  toString() {
    return `${this.constructor.name}<${this.env}>`;
  }
}

/** A wrapper that changes observations: define `observation(observation)`. */
export class ObservationWrapper extends Wrapper {
  /** @param {ResetArgs} [args] */
  reset(args) {
    const [observation, info] = this.env.reset(args);
    return [this.observation(observation), info];
  }
  /** @param {any} action */
  step(action) {
    const [observation, reward, terminated, truncated, info] = this.env.step(action);
    return [this.observation(observation), reward, terminated, truncated, info];
  }
  /**
   * @param {any} observation
   * @returns {any}
   */
  observation(observation) {
    throw notImplemented(`${this.constructor.name} must define observation(observation)`);
  }
}

/** A wrapper that changes rewards: define `reward(reward)`. */
export class RewardWrapper extends Wrapper {
  /** @param {any} action */
  step(action) {
    const [observation, reward, terminated, truncated, info] = this.env.step(action);
    return [observation, this.reward(reward), terminated, truncated, info];
  }
  /**
   * @param {number} reward
   * @returns {number}
   */
  reward(reward) {
    throw notImplemented(`${this.constructor.name} must define reward(reward)`);
  }
}

/** A wrapper that changes actions: define `action(action)` (and `reverseAction` if it can). */
export class ActionWrapper extends Wrapper {
  /** @param {any} action */
  step(action) {
    return this.env.step(this.action(action));
  }
  /**
   * @param {any} action
   * @returns {any}
   */
  action(action) {
    throw notImplemented(`${this.constructor.name} must define action(action)`);
  }
  /**
   * @param {any} action
   * @returns {any}
   */
  reverseAction(action) {
    throw notImplemented(`${this.constructor.name} cannot reverse actions`);
  }
}

keepNames({ Env, Wrapper, ObservationWrapper, RewardWrapper, ActionWrapper });
