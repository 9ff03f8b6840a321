// What a learning library wants from an environment, as Gymnasium 1.x's
// wrappers: DtypeObservation (observations as one dtype's typed array),
// NormalizeObservation (running mean and variance), NormalizeReward
// (scaled by the running std of the discounted return), and
// Log1pObservation, compgym's log-scaling of counts (ln(1 + x), as compgym's
// policy reads features). `mlReady(env)` is what make's `mlReady: true`
// applies.
import { Space } from '../api.js';
import { ObservationWrapper, Wrapper, describe, isPlainObject, requireSpace, typeError, valueError, keepNames } from './core.js';
import { isTypedArray } from './arrays.js';
/** @import { TypedArray } from './arrays.js' */
/** @import * as Declared from './index.js' */
/** @import { ResetArgs } from './index.js' */
/** @import { DescriptionBounds, DescriptionNumber } from '../compgym.js' */
/** @typedef {number | number[]} Bounds one number for every element, or one per element */

/** The dtypes a wrapper can convert observations to, with their typed arrays. */
export const DTYPES = Object.freeze({
  float32: Float32Array,
  float64: Float64Array,
  int8: Int8Array,
  int16: Int16Array,
  int32: Int32Array,
  int64: BigInt64Array,
  uint8: Uint8Array,
  uint16: Uint16Array,
  uint32: Uint32Array,
  uint64: BigUint64Array,
});

/**
 * `dtype` checked against `allowed` (a ValueError naming them), or TypeError if not a string.
 * @param {unknown} dtype
 * @param {string} what
 * @param {string[]} [allowed]
 * @returns {import('./index.js').ObservationDtype}
 */
export function readDtype(dtype, what, allowed = Object.keys(DTYPES)) {
  if (typeof dtype !== 'string') throw typeError(`${what} must be a dtype name (${allowed.join(', ')}), got ${describe(dtype)}`);
  if (!allowed.includes(dtype)) throw valueError(`${what} must be one of ${allowed.join(', ')}, got ${JSON.stringify(dtype)}`);
  return /** @type {import('./index.js').ObservationDtype} */ (dtype);
}

/**
 * The range of an integer dtype (as numbers, or BigInts for 64 bits), or null for a float one.
 * @param {string} dtype
 * @returns {[number, number] | [bigint, bigint] | null}
 */
function intRange(dtype) {
  if (dtype.startsWith('float')) return null;
  if (dtype === 'int64') return [-(2n ** 63n), 2n ** 63n - 1n];
  if (dtype === 'uint64') return [0n, 2n ** 64n - 1n];
  const bits = Number(dtype.replace(/\D/g, ''));
  return dtype.startsWith('u') ? [0, 2 ** bits - 1] : [-(2 ** (bits - 1)), 2 ** (bits - 1) - 1];
}

/**
 * `x` truncated and saturated into `range` (numbers, or BigInts for a 64-bit range); infinities stay.
 * @param {any} x a number, or a BigInt for a 64-bit range
 * @param {[number, number] | [bigint, bigint]} range
 * @returns {number | bigint}
 */
function saturate(x, range) {
  if (typeof range[0] === 'bigint') {
    if (!Number.isFinite(x)) return x;
    const b = typeof x === 'bigint' ? x : BigInt(Math.trunc(x));
    return b < range[0] ? range[0] : b > range[1] ? range[1] : b;
  }
  const [low, high] = /** @type {[number, number]} */ (range);
  return Math.min(high, Math.max(low, Math.trunc(Number(x))));
}

/**
 * `values` (a typed array, an array or a number) as a new `Ctor` typed
 * array, mapped by `f`; into an integer `range` values truncate and saturate.
 * @param {unknown} values
 * @param {new (length: number) => TypedArray} Ctor
 * @param {((x: number) => number) | null} [f]
 * @param {[number, number] | [bigint, bigint] | null} [range]
 * @returns {TypedArray}
 */
function convert(values, Ctor, f = null, range = null) {
  const list = isTypedArray(values) || Array.isArray(values) ? values : [values];
  const out = new Ctor(list.length);
  for (let i = 0; i < list.length; i++) {
    const x = f ? f(Number(list[i])) : list[i];
    out[i] = range ? saturate(x, range) : Number(x);
  }
  return out;
}

/**
 * An options object with only `known` keys (TypeError otherwise).
 * @param {unknown} options
 * @param {string[]} known
 * @param {string} who
 * @returns {{ [option: string]: any }} the options, their values still to check
 */
function readOptions(options, known, who) {
  if (options === undefined || options === null) return {};
  if (!isPlainObject(options)) throw typeError(`${who}: options must be an object, got ${describe(options)}`);
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) throw typeError(`${who}: unknown option ${JSON.stringify(key)} (known: ${known.join(', ')})`);
  }
  return options;
}

/**
 * @param {unknown} x
 * @param {string} what
 */
function readPositive(x, what) {
  if (typeof x !== 'number' || !(x > 0) || !Number.isFinite(x)) throw valueError(`${what} must be a positive number, got ${describe(x)}`);
  return x;
}

/** A bound of a description as a number (`"inf"`/`"-inf"` as infinities). */
const boundNumber = (/** @type {DescriptionNumber} */ x) => (x === 'inf' ? Infinity : x === '-inf' ? -Infinity : Number(x));
// toJSON writes a Box's bounds flat, one number per element (or one for all).
const bounds = (/** @type {DescriptionBounds} */ b) =>
  Array.isArray(b) ? /** @type {DescriptionNumber[]} */ (b).map(boundNumber) : boundNumber(b);

/**
 * The shape and element bounds of an array-valued space, or a TypeError naming `who`.
 * @param {unknown} space
 * @param {string} who
 * @returns {{ shape: number[], low: Bounds, high: Bounds, integer: boolean }}
 */
function arraySpace(space, who) {
  const d = requireSpace(space, `${who}: the observation space`).toJSON();
  switch (d.type) {
    case 'Box':
      return { shape: d.shape, low: bounds(d.low), high: bounds(d.high), integer: !String(d.dtype).startsWith('float') };
    case 'MultiDiscrete': {
      const start = d.start.map(Number);
      return { shape: d.shape, low: start, high: d.nvec.map((n, i) => start[i] + Number(n) - 1), integer: true };
    }
    case 'MultiBinary':
      return { shape: d.shape, low: 0, high: 1, integer: true };
    case 'Discrete':
      return { shape: [], low: Number(d.start), high: Number(d.start) + Number(d.n) - 1, integer: true };
    default:
      throw typeError(`${who} needs a Box, MultiDiscrete, MultiBinary or Discrete observation space, got ${space}`);
  }
}

/** @type {(b: Bounds, f: (x: number) => number | bigint) => number | bigint | (number | bigint)[]} */
const mapBound = (b, f) => (Array.isArray(b) ? b.map(f) : f(b));

/**
 * Gymnasium's DtypeObservation: observations as a typed array of `dtype`
 * (one of DTYPES), the observation space a Box of that dtype with the same
 * bounds. Box, MultiDiscrete, MultiBinary and Discrete observations. Into
 * an integer dtype values truncate and saturate at its range (bounds too).
 */
export class DtypeObservation extends ObservationWrapper {
  /**
   * @param {unknown} env
   * @param {unknown} dtype checked: one of DTYPES
   */
  constructor(env, dtype) {
    super(env);
    this.dtype = readDtype(dtype, 'DtypeObservation: dtype');
    const { shape, low, high } = arraySpace(this.env.observationSpace, 'DtypeObservation');
    this._Ctor = DTYPES[this.dtype];
    this._range = intRange(this.dtype);
    // Bounds beyond an integer dtype's range saturate at it, as the values do.
    const bound = (/** @type {number} */ x) => (this._range && Number.isFinite(x) ? saturate(x, this._range) : x);
    this.observationSpace = Space.box({ low: mapBound(low, bound), high: mapBound(high, bound), shape, dtype: this.dtype });
  }
  /** @param {any} observation */
  observation(observation) {
    return convert(observation, this._Ctor, null, this._range);
  }
}

/** compgym's log-scaling: `sign(x) ln(1 + |x|)`, which is `ln(1 + x)` on counts. */
export const log1p = (/** @type {number} */ x) => Math.sign(x) * Math.log1p(Math.abs(x));

/**
 * Log-scales observations as compgym's policy reads features: each element
 * x becomes `ln(1 + x)` (`sign(x) ln(1 + |x|)` below zero), so small and
 * large programs share a scale. Options: `dtype` ("float32", default, or
 * "float64"). The observation space is a Box with the bounds scaled alike.
 */
export class Log1pObservation extends ObservationWrapper {
  /**
   * @param {unknown} env
   * @param {unknown} [options] checked: `{dtype}`
   */
  constructor(env, options) {
    super(env);
    const { dtype = 'float32' } = readOptions(options, ['dtype'], 'Log1pObservation');
    this.dtype = readDtype(dtype, 'Log1pObservation: dtype', ['float32', 'float64']);
    const { shape, low, high } = arraySpace(this.env.observationSpace, 'Log1pObservation');
    this._Ctor = DTYPES[this.dtype];
    this.observationSpace = Space.box({ low: mapBound(low, log1p), high: mapBound(high, log1p), shape, dtype: this.dtype });
  }
  /** @param {any} observation */
  observation(observation) {
    return convert(observation, this._Ctor, log1p);
  }
}

/**
 * Gymnasium's RunningMeanStd: mean, variance and count of values, merged batch by batch.
 * @implements {Declared.RunningMeanStd}
 */
export class RunningMeanStd {
  /**
   * @param {number} size
   * @param {number} [epsilon]
   */
  constructor(size, epsilon = 1e-4) {
    this.mean = new Float64Array(size);
    this.var = new Float64Array(size).fill(1);
    this.count = epsilon;
  }
  /**
   * Adds one sample (an array of `size` numbers).
   * @param {ArrayLike<number | bigint>} x
   */
  update(x) {
    const total = this.count + 1;
    for (let i = 0; i < this.mean.length; i++) {
      const delta = Number(x[i]) - this.mean[i];
      this.mean[i] += delta / total;
      // Parallel algorithm with a batch of one (batch variance 0).
      this.var[i] = (this.var[i] * this.count + (delta * delta * this.count) / total) / total;
    }
    this.count = total;
  }
  copy() {
    const c = new RunningMeanStd(this.mean.length);
    c.mean.set(this.mean);
    c.var.set(this.var);
    c.count = this.count;
    return c;
  }
}

/**
 * Gymnasium's NormalizeObservation: each element centred on the running
 * mean and divided by the running standard deviation (`sqrt(var +
 * epsilon)`), as a Float32Array; the statistics update on every reset and
 * step while `updateRunningMean` is true (turn it off to evaluate).
 * Options: `epsilon` (1e-8).
 */
export class NormalizeObservation extends ObservationWrapper {
  /**
   * @param {unknown} env
   * @param {unknown} [options] checked: `{epsilon}`
   */
  constructor(env, options) {
    super(env);
    const { epsilon = 1e-8 } = readOptions(options, ['epsilon'], 'NormalizeObservation');
    this.epsilon = readPositive(epsilon, 'NormalizeObservation: epsilon');
    const { shape } = arraySpace(this.env.observationSpace, 'NormalizeObservation');
    this.observationSpace = Space.box({ low: -Infinity, high: Infinity, shape, dtype: 'float32' });
    this.obsRms = new RunningMeanStd(shape.reduce((/** @type {number} */ a, /** @type {number} */ b) => a * b, 1));
    this.updateRunningMean = true;
  }
  /** @param {any} observation */
  observation(observation) {
    const x = isTypedArray(observation) || Array.isArray(observation) ? observation : [observation];
    if (this.updateRunningMean) this.obsRms.update(x);
    const { mean, var: variance } = this.obsRms;
    const out = new Float32Array(mean.length);
    for (let i = 0; i < out.length; i++) out[i] = (Number(x[i]) - mean[i]) / Math.sqrt(variance[i] + this.epsilon);
    return out;
  }
  fork() {
    const copy = super.fork();
    copy.obsRms = this.obsRms.copy();
    return copy;
  }
}

/**
 * Gymnasium's NormalizeReward: rewards divided by the running standard
 * deviation of the discounted return (`sqrt(var + epsilon)`; the mean is
 * not subtracted), the return updated as `return * gamma * (1 -
 * terminated) + reward` on every step while `updateRunningMean` is true.
 * Options: `gamma` (0.99, in [0, 1]) and `epsilon` (1e-8).
 */
export class NormalizeReward extends Wrapper {
  /**
   * @param {unknown} env
   * @param {unknown} [options] checked: `{gamma, epsilon}`
   */
  constructor(env, options) {
    super(env);
    const { gamma = 0.99, epsilon = 1e-8 } = readOptions(options, ['gamma', 'epsilon'], 'NormalizeReward');
    if (typeof gamma !== 'number' || !(gamma >= 0 && gamma <= 1))
      throw valueError(`NormalizeReward: gamma must be in [0, 1], got ${describe(gamma)}`);
    this.gamma = gamma;
    this.epsilon = readPositive(epsilon, 'NormalizeReward: epsilon');
    this.returnRms = new RunningMeanStd(1);
    this.discountedReward = 0;
    this.updateRunningMean = true;
  }
  /** @param {any} action */
  step(action) {
    const [observation, reward, terminated, truncated, info] = this.env.step(action);
    this.discountedReward = this.discountedReward * this.gamma * (terminated ? 0 : 1) + Number(reward);
    if (this.updateRunningMean) this.returnRms.update([this.discountedReward]);
    return [observation, Number(reward) / Math.sqrt(this.returnRms.var[0] + this.epsilon), terminated, truncated, info];
  }
  fork() {
    const copy = super.fork();
    copy.returnRms = this.returnRms.copy();
    return copy;
  }
}

/**
 * Reads make's `mlReady` option: a boolean (TypeError otherwise).
 * @param {unknown} value
 */
export function readMlReady(value, who = 'make') {
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') throw typeError(`${who}: mlReady must be a boolean, got ${describe(value)}`);
  return value;
}

/**
 * What `make(id, {mlReady: true})` applies: observations as Float32Arrays,
 * log-scaled (Log1pObservation) when the observation space holds integers
 * (counts: Autophase, InstCount), cast (DtypeObservation) when it holds
 * floats. Rewards stay plain numbers; a discrete action is a number.
 * @param {import('./core.js').AnyEnv} env
 */
export function mlReady(env) {
  const { integer } = arraySpace(env.observationSpace, 'mlReady');
  return integer ? new Log1pObservation(env) : new DtypeObservation(env, 'float32');
}

keepNames({ DtypeObservation, Log1pObservation, RunningMeanStd, NormalizeObservation, NormalizeReward });
