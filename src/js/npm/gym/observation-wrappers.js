// Gymnasium 1.x's observation wrappers beyond the transforms of
// wrappers.js: FrameStackObservation (the last N observations, batched as
// a vector environment batches them), TimeAwareObservation (the step count
// added to each observation), DelayObservation (observations handed out N
// steps late) and FilterObservation (some parts of a Dict or Tuple).
import { Space } from '../api.js';
import {
  ObservationWrapper,
  Wrapper,
  describe,
  exactDescription,
  requireEnv,
  requireSpace,
  typeError,
  valueError,
  keepNames,
} from './core.js';
import { TimeLimit, TransformObservation } from './wrappers.js';
import { batcher } from './vector.js';
import { zeroValue } from './space-values.js';

/** @import { BoxDescription, DictDescription, SpaceDescription, SpaceValue } from '../compgym.js' */
/** @import { ResetArgs } from './index.js' */
/** @import { AnyEnv } from './core.js' */

/**
 * @param {unknown} n
 * @param {string} what
 * @param {number} min
 */
function readCount(n, what, min) {
  if (typeof n !== 'number' || !Number.isInteger(n)) throw typeError(`${what} must be an integer, got ${describe(n)}`);
  if (n < min) throw valueError(`${what} must be at least ${min}, got ${n}`);
  return n;
}

/**
 * The last `stackSize` observations, oldest first, batched into one value
 * of the batched space (arrays end to end in a typed array, as a vector
 * environment batches them). Before there are enough, the padding fills
 * in: `paddingType` "reset" (the reset's observation, the default), "zero"
 * (the space's value nearest zero) or a custom element of the space.
 */
export class FrameStackObservation extends Wrapper {
  /**
   * @param {unknown} env
   * @param {unknown} stackSize checked: an integer of at least 1
   * @param {{ paddingType?: unknown }} [options] checked: "reset", "zero" or an element of the space
   */
  constructor(env, stackSize, { paddingType = 'reset' } = {}) {
    super(env);
    this.stackSize = readCount(stackSize, 'FrameStackObservation: stackSize', 1);
    const inner = requireSpace(this.env.observationSpace, 'FrameStackObservation: the observation space');
    if (paddingType === 'reset' || paddingType === 'zero') {
      this.paddingType = paddingType;
      this.paddingValue = paddingType === 'zero' ? zeroValue(inner) : null;
    } else if (inner.contains(paddingType)) {
      this.paddingType = '_custom';
      this.paddingValue = paddingType;
    } else {
      throw valueError(
        `FrameStackObservation: paddingType must be "reset", "zero" or an element of ${inner}, got ${describe(paddingType)}`,
      );
    }
    this._batch = batcher(inner, this.stackSize);
    this.observationSpace = this._batch.space;
    /** @type {unknown[]} */
    this._queue = new Array(this.stackSize).fill(this.paddingValue);
  }
  /** @param {ResetArgs} [args] */
  reset(args) {
    const [observation, info] = this.env.reset(args);
    if (this.paddingType === 'reset') this.paddingValue = observation;
    this._queue = [...new Array(this.stackSize - 1).fill(this.paddingValue), observation];
    return [this._batch.concatenate(this._queue), info];
  }
  /** @param {any} action */
  step(action) {
    const [observation, reward, terminated, truncated, info] = this.env.step(action);
    this._queue = [...this._queue.slice(1), observation];
    return [this._batch.concatenate(this._queue), reward, terminated, truncated, info];
  }
  fork() {
    const copy = super.fork();
    copy._queue = [...this._queue];
    return copy;
  }
}

/**
 * The episode step limit of `env`: its spec's maxEpisodeSteps, or a TimeLimit in its stack.
 * @param {AnyEnv} env
 * @returns {number}
 */
function stepLimit(env) {
  const limit = env.spec?.maxEpisodeSteps;
  if (Number.isSafeInteger(limit)) return limit;
  for (let e = env; e instanceof Wrapper; e = e.env) if (e instanceof TimeLimit) return e.maxEpisodeSteps;
  throw valueError('TimeAwareObservation: the environment must be wrapped by a TimeLimit, or its spec give maxEpisodeSteps');
}

/**
 * Adds the steps taken in the episode to each observation: under
 * `dictTimeKey` of a Dict observation, last in a Tuple, otherwise as
 * `{obs, time}`; flattened into one typed array by default (`flatten`).
 * The time is an Int32Array of one count in [0, limit], or with
 * `normalizeTime` a Float32Array of the count over the episode's step
 * limit (which the environment needs: a TimeLimit or spec.maxEpisodeSteps).
 */
export class TimeAwareObservation extends ObservationWrapper {
  /**
   * @param {unknown} env
   * @param {{ flatten?: boolean, normalizeTime?: boolean, dictTimeKey?: string }} [options] checked
   */
  constructor(env, { flatten = true, normalizeTime = false, dictTimeKey = 'time' } = {}) {
    super(env);
    for (const [name, value] of [
      ['flatten', flatten],
      ['normalizeTime', normalizeTime],
    ]) {
      if (typeof value !== 'boolean') throw typeError(`TimeAwareObservation: ${name} must be a boolean, got ${describe(value)}`);
    }
    if (typeof dictTimeKey !== 'string')
      throw typeError(`TimeAwareObservation: dictTimeKey must be a string, got ${describe(dictTimeKey)}`);
    this.flatten = flatten;
    this.normalizeTime = normalizeTime;
    this.maxTimesteps = stepLimit(this.env);
    this.timesteps = 0;
    // The time as a one-element Box (Gymnasium writes a shape-() Box but returns one element).
    /** @type {BoxDescription} */
    const timeSpace = normalizeTime
      ? { type: 'Box', name: 'Box', dtype: 'float32', shape: [1], low: 0, high: 1 }
      : { type: 'Box', name: 'Box', dtype: 'int32', shape: [1], low: 0, high: this.maxTimesteps };
    this._time = normalizeTime
      ? (/** @type {number} */ t) => Float32Array.of(t / this.maxTimesteps)
      : (/** @type {number} */ t) => Int32Array.of(t);
    const inner = exactDescription(requireSpace(this.env.observationSpace, 'TimeAwareObservation: the observation space').toJSON());
    let joined;
    /** @type {(observation: any, time: Int32Array | Float32Array) => SpaceValue} the observation is the environment's, unchecked */
    this._join;
    if (inner.type === 'Dict') {
      if (inner.spaces.some((/** @type {[string, SpaceDescription]} */ [key]) => key === dictTimeKey))
        throw valueError(`TimeAwareObservation: the key ${JSON.stringify(dictTimeKey)} is already in the observation space`);
      joined = Space.dict(Object.fromEntries([[dictTimeKey, timeSpace], ...inner.spaces]));
      // Keys in the space's (sorted) order, as its samples have them.
      const keys = /** @type {DictDescription} */ (joined.toJSON()).spaces.map(([key]) => key);
      this._join = (observation, time) => Object.fromEntries(keys.map((key) => [key, key === dictTimeKey ? time : observation[key]]));
    } else if (inner.type === 'Tuple') {
      joined = Space.tuple([...inner.spaces, timeSpace]);
      this._join = (observation, time) => [...observation, time];
    } else {
      joined = Space.dict({ obs: inner, time: timeSpace });
      this._join = (observation, time) => ({ obs: observation, time });
    }
    this._joined = joined;
    this.observationSpace = flatten ? joined.flattenSpace() : joined;
  }
  /** @param {any} observation */
  observation(observation) {
    const joined = this._join(observation, this._time(this.timesteps));
    return this.flatten ? this._joined.flatten(joined) : joined;
  }
  /** @param {ResetArgs} [args] */
  reset(args) {
    this.timesteps = 0;
    return super.reset(args);
  }
  /** @param {any} action */
  step(action) {
    const [observation, reward, terminated, truncated, info] = this.env.step(action);
    this.timesteps += 1; // after the step: a step that throws does not count
    return [this.observation(observation), reward, terminated, truncated, info];
  }
}

/**
 * Observations handed out `delay` steps late: until then, the value of the
 * observation space nearest zero. The queue empties on reset.
 */
export class DelayObservation extends ObservationWrapper {
  /**
   * @param {unknown} env
   * @param {unknown} delay checked: an integer of at least 0
   */
  constructor(env, delay) {
    super(env);
    this.delay = readCount(delay, 'DelayObservation: delay', 0);
    // Checked now, so a space without a zero value fails here rather than at the first reset.
    if (this.delay > 0) zeroValue(requireSpace(this.env.observationSpace, 'DelayObservation: the observation space'));
    /** @type {unknown[]} */
    this._queue = [];
  }
  /** @param {ResetArgs} [args] */
  reset(args) {
    this._queue = [];
    return super.reset(args);
  }
  /** @param {any} observation */
  observation(observation) {
    this._queue.push(observation);
    return this._queue.length > this.delay ? this._queue.shift() : zeroValue(this.env.observationSpace);
  }
  fork() {
    const copy = super.fork();
    copy._queue = [...this._queue];
    return copy;
  }
}

/**
 * The parts of a Dict (keys) or Tuple (indices) description that `filterKeys` keeps, checked as Gymnasium checks them.
 * @param {SpaceDescription} d
 * @param {any} filterKeys checked here: strings or indices
 * @returns {[string | number, SpaceDescription][]}
 */
function filteredParts(d, filterKeys) {
  if (!Array.isArray(filterKeys)) throw typeError(`FilterObservation: filterKeys must be an array, got ${describe(filterKeys)}`);
  if (new Set(filterKeys).size !== filterKeys.length)
    throw valueError(`FilterObservation: filterKeys has duplicates: ${JSON.stringify(filterKeys)}`);
  if (d.type === 'Dict') {
    if (!filterKeys.every((k) => typeof k === 'string'))
      throw typeError(`FilterObservation: the keys of a Dict are strings, got ${JSON.stringify(filterKeys)}`);
    const parts = new Map(d.spaces);
    const missing = filterKeys.filter((k) => !parts.has(k));
    if (missing.length)
      throw valueError(
        `FilterObservation: ${JSON.stringify(missing)} not in the observation space (keys: ${[...parts.keys()].join(', ')})`,
      );
    return filterKeys.map((/** @type {string} */ k) => [k, /** @type {SpaceDescription} */ (parts.get(k))]); // none missing
  }
  if (d.type === 'Tuple') {
    if (!filterKeys.every((k) => Number.isSafeInteger(k)))
      throw typeError(`FilterObservation: the keys of a Tuple are indices, got ${JSON.stringify(filterKeys)}`);
    const outside = filterKeys.filter((k) => k < 0 || k >= d.spaces.length);
    if (outside.length) throw valueError(`FilterObservation: indices ${JSON.stringify(outside)} outside the Tuple of ${d.spaces.length}`);
    return filterKeys.map((k) => [k, d.spaces[k]]);
  }
  throw valueError(`FilterObservation needs a Dict or Tuple observation space, got a ${d.type}`);
}

/**
 * Keeps the parts `filterKeys` names of each observation: keys of a Dict
 * observation (in the Dict's sorted order), or indices of a Tuple (in the
 * order given).
 */
export class FilterObservation extends TransformObservation {
  /**
   * @param {unknown} env
   * @param {any} filterKeys checked: the keys of a Dict or the indices of a Tuple
   */
  constructor(env, filterKeys) {
    const inner = requireSpace(
      requireEnv(env, "FilterObservation's environment").observationSpace,
      'FilterObservation: the observation space',
    );
    const d = exactDescription(inner.toJSON());
    const parts = filteredParts(d, filterKeys);
    if (parts.length === 0) throw valueError('FilterObservation: filtering every part leaves an empty observation space');
    let space;
    let keep;
    if (d.type === 'Dict') {
      space = Space.dict(Object.fromEntries(parts));
      const keys = /** @type {DictDescription} */ (space.toJSON()).spaces.map(([key]) => key);
      keep = (/** @type {any} */ observation) => Object.fromEntries(keys.map((key) => [key, observation[key]]));
    } else {
      space = Space.tuple(parts.map(([, part]) => part));
      keep = (/** @type {any} */ observation) => filterKeys.map((/** @type {number} */ i) => observation[i]);
    }
    super(env, keep, space);
    this.filterKeys = [...filterKeys];
  }
}

keepNames({ FrameStackObservation, TimeAwareObservation, DelayObservation, FilterObservation });
