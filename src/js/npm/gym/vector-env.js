// Gymnasium's VectorEnv and its wrapper bases, for JS authors to extend:
// VectorEnv (SyncVectorEnv and AsyncVectorEnv extend it), VectorWrapper,
// VectorObservationWrapper, VectorRewardWrapper and VectorActionWrapper.
// A wrapper works over a vector environment whose reset and step return
// promises (AsyncVectorEnv; wrap it once `ready` resolves, when its spaces
// are known) as over one that returns values, and returns what it does.
import { Rng } from '../api.js';
import { describe, entropySeed, notImplemented, readResetArgs, typeError, valueError } from './core.js';
import { warn } from './warn.js';

/** `f(result)`, or a promise of it when `result` is a promise. */
export function andThen(result, f) {
  return result !== null && typeof result?.then === 'function' ? result.then(f) : f(result);
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
    this.metadata = {};
    this.spec = null;
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
      this._npRandom = new Rng(/** @type {number | bigint} */ (checked)); // not null: a seed was given
      this._npRandomSeed = checked;
    }
    return undefined;
  }
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
function isVectorEnv(env) {
  return env !== null && typeof env === 'object' && typeof env.reset === 'function' && typeof env.step === 'function' && 'numEnvs' in env;
}

/**
 * Gymnasium's VectorWrapper: forwards what it does not change (spaces,
 * numEnvs, metadata, spec, renderMode, closed, npRandom, render, close,
 * call, getAttr, setAttr); set a space to change it.
 */
export class VectorWrapper {
  constructor(env) {
    if (!isVectorEnv(env))
      throw typeError(`${new.target.name} wraps a vector environment (with reset, step and numEnvs), got ${describe(env)}`);
    if (env.singleObservationSpace === undefined) {
      throw typeError(
        `${new.target.name}: the vector environment does not know its spaces yet: wrap an AsyncVectorEnv after \`await envs.ready\``,
      );
    }
    this.env = env;
  }
  reset(args) {
    return this.env.reset(args);
  }
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
  call(name, ...args) {
    return this.env.call(name, ...args);
  }
  getAttr(name) {
    return this.env.getAttr(name);
  }
  setAttr(name, values) {
    return this.env.setAttr(name, values);
  }

  get unwrapped() {
    return this.env.unwrapped ?? this.env;
  }
  get numEnvs() {
    return this.env.numEnvs;
  }
  get observationSpace() {
    return this._observationSpace ?? this.env.observationSpace;
  }
  set observationSpace(space) {
    this._observationSpace = space;
  }
  get actionSpace() {
    return this._actionSpace ?? this.env.actionSpace;
  }
  set actionSpace(space) {
    this._actionSpace = space;
  }
  get singleObservationSpace() {
    return this._singleObservationSpace ?? this.env.singleObservationSpace;
  }
  set singleObservationSpace(space) {
    this._singleObservationSpace = space;
  }
  get singleActionSpace() {
    return this._singleActionSpace ?? this.env.singleActionSpace;
  }
  set singleActionSpace(space) {
    this._singleActionSpace = space;
  }
  get metadata() {
    return this._metadata ?? this.env.metadata;
  }
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
  get npRandom() {
    return this.env.npRandom;
  }
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
  reset(args) {
    return andThen(this.env.reset(args), ([observations, infos]) => [this.observations(observations), infos]);
  }
  step(actions) {
    return andThen(this.env.step(actions), ([observations, rewards, terminations, truncations, infos]) => [
      this.observations(observations),
      rewards,
      terminations,
      truncations,
      infos,
    ]);
  }
  observations(observations) {
    throw notImplemented(`${this.constructor.name} must define observations(observations)`);
  }
}

/** Changes batched rewards: define `rewards(rewards)`. */
export class VectorRewardWrapper extends VectorWrapper {
  step(actions) {
    return andThen(this.env.step(actions), ([observations, rewards, terminations, truncations, infos]) => [
      observations,
      this.rewards(rewards),
      terminations,
      truncations,
      infos,
    ]);
  }
  rewards(rewards) {
    throw notImplemented(`${this.constructor.name} must define rewards(rewards)`);
  }
}

/** Changes batched actions before the environments see them: define `actions(actions)`. */
export class VectorActionWrapper extends VectorWrapper {
  step(actions) {
    return this.env.step(this.actions(actions));
  }
  actions(actions) {
    throw notImplemented(`${this.constructor.name} must define actions(actions)`);
  }
}
