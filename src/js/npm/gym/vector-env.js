// Gymnasium's VectorEnv and its wrapper bases, for JS authors to extend:
// VectorEnv (SyncVectorEnv and AsyncVectorEnv extend it), VectorWrapper,
// VectorObservationWrapper, VectorRewardWrapper and VectorActionWrapper.
// A wrapper works over a vector environment whose reset and step return
// promises (AsyncVectorEnv; wrap it once `ready` resolves, when its spaces
// are known) as over one that returns values, and returns what it does.
import { Rng } from '../api.js';
import { describe, entropySeed, notImplemented, readResetArgs, typeError, valueError, keepNames } from './core.js';
import { warn } from './warn.js';

/** @import { Metadata, RewardArray, VectorResetArgs } from './index.js' */
/** @import { SpaceObject, RngObject } from './core.js' */
/**
 * A vector environment as the wrappers see it: reset, step and numEnvs
 * (`isVectorEnv` checks no more); the rest of its members are read where used.
 * @typedef {{ reset(args?: unknown): any, step(actions: any): any, numEnvs: number, [member: string]: any }} AnyVectorEnv
 */

/** `f(result)`, or a promise of it when `result` is a promise. */
/**
 * @template T, U
 * @param {T | PromiseLike<T>} result
 * @param {(value: T) => U} f
 * @returns {U | Promise<U>}
 */
export function andThen(result, f) {
  const thenable = /** @type {any} */ (result); // a promise, or any value with a then method
  return result !== null && typeof thenable?.then === 'function' ? thenable.then(f) : f(/** @type {T} */ (result));
}

/**
 * Gymnasium's VectorEnv: `numEnvs` environments stepped as one. Subclasses
 * set `numEnvs`, `singleObservationSpace`, `singleActionSpace`,
 * `observationSpace` and `actionSpace` (the batched ones) and
 * `metadata.autoresetMode`, and define `step`; their `reset` calls
 * `super.reset(args)` first, which seeds `npRandom` when given one seed.
 */
export class VectorEnv {
  constructor() {
    /** @type {{ autoresetMode?: string, [key: string]: unknown }} */
    this.metadata = {};
    /** @type {import('./index.js').EnvSpec | import('../compgym.js').GymFaceSpec | null} */
    this.spec = null;
    /** @type {string | null} */
    this.renderMode = null;
    this.closed = false;
  }

  /**
   * Seeds npRandom when `args.seed` is one seed; subclasses return [observations, infos].
   * @param {any} [args]
   * @returns {any}
   */
  reset(args) {
    const seed = args?.seed;
    if (seed !== undefined && seed !== null && !Array.isArray(seed)) {
      const { seed: checked } = readResetArgs({ seed });
      /** @type {RngObject | undefined} */
      this._npRandom = new Rng(/** @type {number | bigint} */ (checked)); // not null: a seed was given
      /** @type {number | bigint | null | undefined} */
      this._npRandomSeed = checked;
    }
    return undefined;
  }
  /** @param {any} actions */
  /**
   * @param {any} actions
   * @returns {any}
   */
  step(actions) {
    throw notImplemented(`${this.constructor.name} must define step(actions)`);
  }
  render() {
    throw notImplemented(`${this.constructor.name} cannot render`);
  }
  /** Closes once: calls closeExtras() the first time, then does nothing. */
  close() {
    if (this.closed) return;
    this.closeExtras();
    this.closed = true;
  }
  /** What a subclass frees on close. */
  closeExtras() {}

  /** The vector environment's own generator, seeded by reset({seed}) (from entropy if never seeded). */
  get npRandom() {
    if (!this._npRandom) {
      this._npRandomSeed = entropySeed();
      this._npRandom = new Rng(this._npRandomSeed);
    }
    return this._npRandom;
  }
  /** @param {RngObject} rng */
  set npRandom(rng) {
    this._npRandom = rng;
    this._npRandomSeed = -1;
  }
  get npRandomSeed() {
    return this._npRandomSeed ?? null;
  }
  get unwrapped() {
    return this;
  }
  toString() {
    return `${this.constructor.name}(${this.spec?.id ? `${this.spec.id}, ` : ''}numEnvs=${/** @type {{ numEnvs?: number }} */ (this).numEnvs})`;
  }
}

/** True for a vector environment: reset, step and a positive numEnvs (known at once or once `ready`). */
/**
 * @param {any} env
 * @returns {env is AnyVectorEnv}
 */
function isVectorEnv(env) {
  return env !== null && typeof env === 'object' && typeof env.reset === 'function' && typeof env.step === 'function' && 'numEnvs' in env;
}

/**
 * Gymnasium's VectorWrapper: forwards what it does not change (spaces,
 * numEnvs, metadata, spec, renderMode, closed, npRandom, render, close,
 * call, getAttr, setAttr); set a space to change it.
 */
export class VectorWrapper {
  /** @param {unknown} env */
  constructor(env) {
    if (!isVectorEnv(env))
      throw typeError(`${new.target.name} wraps a vector environment (with reset, step and numEnvs), got ${describe(env)}`);
    if (env.singleObservationSpace === undefined) {
      throw typeError(
        `${new.target.name}: the vector environment does not know its spaces yet: wrap an AsyncVectorEnv after \`await envs.ready\``,
      );
    }
    /** @type {AnyVectorEnv} */
    this.env = env;
  }
  /** @param {VectorResetArgs} [args] */
  reset(args) {
    return this.env.reset(args);
  }
  /** @param {any} actions */
  step(actions) {
    return this.env.step(actions);
  }
  render() {
    return this.env.render();
  }
  close() {
    return this.env.close();
  }
  closeExtras() {
    return this.env.closeExtras?.();
  }
  /**
   * @param {string} name
   * @param {unknown[]} args
   */
  call(name, ...args) {
    return this.env.call(name, ...args);
  }
  /** @param {string} name */
  getAttr(name) {
    return this.env.getAttr(name);
  }
  /**
   * @param {string} name
   * @param {unknown} values
   */
  setAttr(name, values) {
    return this.env.setAttr(name, values);
  }

  get unwrapped() {
    return this.env.unwrapped ?? this.env;
  }
  get numEnvs() {
    return this.env.numEnvs;
  }
  /** @returns {SpaceObject} */
  get observationSpace() {
    return this._observationSpace ?? this.env.observationSpace;
  }
  /** @param {SpaceObject} space */
  set observationSpace(space) {
    this._observationSpace = space;
  }
  /** @returns {SpaceObject} */
  get actionSpace() {
    return this._actionSpace ?? this.env.actionSpace;
  }
  /** @param {SpaceObject} space */
  set actionSpace(space) {
    this._actionSpace = space;
  }
  /** @returns {SpaceObject} */
  get singleObservationSpace() {
    return this._singleObservationSpace ?? this.env.singleObservationSpace;
  }
  /** @param {SpaceObject} space */
  set singleObservationSpace(space) {
    this._singleObservationSpace = space;
  }
  /** @returns {SpaceObject} */
  get singleActionSpace() {
    return this._singleActionSpace ?? this.env.singleActionSpace;
  }
  /** @param {SpaceObject} space */
  set singleActionSpace(space) {
    this._singleActionSpace = space;
  }
  /** @returns {{ autoresetMode?: string, [key: string]: unknown }} */
  get metadata() {
    return this._metadata ?? this.env.metadata;
  }
  /** @param {{ autoresetMode?: string, [key: string]: unknown }} metadata */
  set metadata(metadata) {
    this._metadata = metadata;
  }
  get spec() {
    return this.env.spec;
  }
  get renderMode() {
    return this.env.renderMode;
  }
  get closed() {
    return this.env.closed;
  }
  /** @returns {RngObject} */
  get npRandom() {
    return this.env.npRandom;
  }
  /** @param {RngObject} rng */
  set npRandom(rng) {
    this.env.npRandom = rng;
  }
  get npRandomSeed() {
    return this.env.npRandomSeed;
  }
  /** AsyncVectorEnv's promise of its spaces, passed through. */
  get ready() {
    return andThen(this.env.ready, () => this);
  }
  toString() {
    return `${this.constructor.name}<${this.env}>`;
  }
}

/** The autoreset mode a vector wrapper sees: metadata's, or NextStep (with a warning) when missing. */
/**
 * @param {AnyVectorEnv} env
 * @param {string} who
 * @returns {string}
 */
export function autoresetModeOf(env, who) {
  const mode = env.metadata?.autoresetMode;
  if (mode === undefined) {
    warn(`${who}: the vector environment ${env} has no metadata.autoresetMode; assuming NextStep`);
    return 'NextStep';
  }
  return mode;
}

/**
 * Changes batched observations: define `observations(observations)`.
 * Not over SameStep autoreset, whose final observations it would miss.
 */
export class VectorObservationWrapper extends VectorWrapper {
  /** @param {unknown} env */
  constructor(env) {
    super(env);
    this._checkAutoreset();
  }
  _checkAutoreset() {
    const mode = autoresetModeOf(this.env, this.constructor.name);
    if (mode !== 'NextStep' && mode !== 'Disabled') {
      throw valueError(`${this.constructor.name} needs autoresetMode NextStep or Disabled, got ${mode}`);
    }
  }
  /** @param {VectorResetArgs} [args] */
  reset(args) {
    return andThen(this.env.reset(args), ([observations, infos]) => [this.observations(observations), infos]);
  }
  /** @param {any} actions */
  step(actions) {
    return andThen(this.env.step(actions), ([observations, rewards, terminations, truncations, infos]) => [
      this.observations(observations),
      rewards,
      terminations,
      truncations,
      infos,
    ]);
  }
  /** @param {any} observations */
  /**
   * @param {any} observations
   * @returns {any}
   */
  observations(observations) {
    throw notImplemented(`${this.constructor.name} must define observations(observations)`);
  }
}

/** Changes batched rewards: define `rewards(rewards)`. */
export class VectorRewardWrapper extends VectorWrapper {
  /** @param {any} actions */
  step(actions) {
    return andThen(this.env.step(actions), ([observations, rewards, terminations, truncations, infos]) => [
      observations,
      this.rewards(rewards),
      terminations,
      truncations,
      infos,
    ]);
  }
  /** @param {RewardArray} rewards */
  /**
   * @param {RewardArray} rewards
   * @returns {RewardArray}
   */
  rewards(rewards) {
    throw notImplemented(`${this.constructor.name} must define rewards(rewards)`);
  }
}

/** Changes batched actions before the environments see them: define `actions(actions)`. */
export class VectorActionWrapper extends VectorWrapper {
  /** @param {any} actions */
  step(actions) {
    return this.env.step(this.actions(actions));
  }
  /** @param {any} actions */
  /**
   * @param {any} actions
   * @returns {any}
   */
  actions(actions) {
    throw notImplemented(`${this.constructor.name} must define actions(actions)`);
  }
}

keepNames({ VectorEnv, VectorWrapper, VectorObservationWrapper, VectorRewardWrapper, VectorActionWrapper });
