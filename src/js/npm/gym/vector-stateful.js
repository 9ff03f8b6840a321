// Gymnasium 1.x's stateful vector wrappers (gymnasium/wrappers/vector/
// common.py, stateful_*.py): RecordEpisodeStatistics, and
// NormalizeObservation and NormalizeReward with Gymnasium's running mean
// and variance over the whole batch.
import { Space } from '../api.js';
import { describe, typeError, valueError, keepNames } from './core.js';
import { RunningMeanStd } from './ml-wrappers.js';
import { VectorObservationWrapper, VectorWrapper, andThen, autoresetModeOf } from './vector-env.js';
import { isTypedArray } from './arrays.js';

/** @import { RewardArray, VectorResetArgs } from './index.js' */

const now = () => (globalThis.performance?.now() ?? Date.now()) / 1000;

/**
 * The environments a reset selects: all, or those of `options.resetMask`.
 * @param {VectorResetArgs | undefined} args
 * @param {number} n
 */
function selected(args, n) {
  const mask = args?.options?.resetMask;
  return mask === undefined || mask === null ? new Uint8Array(n).fill(1) : Uint8Array.from(mask, (x) => (x ? 1 : 0));
}

/**
 * Gymnasium's vector RecordEpisodeStatistics: when environments end an
 * episode, `infos[statsKey] = {r, l, t}` (a Float64Array, an Int32Array and
 * a Float64Array of seconds, 0 for the others) with the `_statsKey` mask;
 * the last `bufferLength` episodes stay in `returnQueue`, `lengthQueue`,
 * `timeQueue`. Under NextStep autoreset the reset step is no episode's.
 */
export class RecordEpisodeStatistics extends VectorWrapper {
  /**
   * @param {unknown} env
   * @param {{ bufferLength?: number, statsKey?: string }} [options] checked
   */
  constructor(env, { bufferLength = 100, statsKey = 'episode' } = {}) {
    super(env);
    if (!Number.isSafeInteger(bufferLength) || bufferLength < 1)
      throw valueError(`RecordEpisodeStatistics: bufferLength must be a positive integer, got ${describe(bufferLength)}`);
    if (typeof statsKey !== 'string') throw typeError(`RecordEpisodeStatistics: statsKey must be a string, got ${describe(statsKey)}`);
    this.bufferLength = bufferLength;
    this.statsKey = statsKey;
    this.autoresetMode = autoresetModeOf(this.env, 'RecordEpisodeStatistics');
    this.episodeCount = 0;
    const n = this.numEnvs;
    this.episodeStartTimes = new Float64Array(n);
    this.episodeReturns = new Float64Array(n);
    this.episodeLengths = new Int32Array(n);
    this.prevDones = new Uint8Array(n);
    /** @type {number[]} */
    this.returnQueue = [];
    /** @type {number[]} */
    this.lengthQueue = [];
    /** @type {number[]} */
    this.timeQueue = [];
  }
  /** @param {VectorResetArgs} [args] */
  reset(args) {
    return andThen(this.env.reset(args), (result) => {
      const mask = selected(args, this.numEnvs);
      const t = now();
      mask.forEach((on, i) => {
        if (!on) return;
        this.episodeStartTimes[i] = t;
        this.episodeReturns[i] = 0;
        this.episodeLengths[i] = 0;
        this.prevDones[i] = 0;
      });
      return result;
    });
  }
  /** @param {any} actions */
  step(actions) {
    return andThen(this.env.step(actions), (result) => this._record(result));
  }
  /** @param {[unknown, RewardArray, Uint8Array, Uint8Array, { [key: string]: unknown }]} result the wrapped step's */
  _record([observations, rewards, terminations, truncations, infos]) {
    const n = this.numEnvs;
    const sameStep = this.autoresetMode === 'SameStep';
    for (let i = 0; i < n; i++) {
      if (!sameStep && this.prevDones[i]) {
        // The NextStep reset step: a new episode starts after it.
        this.episodeReturns[i] = 0;
        this.episodeLengths[i] = 0;
        this.episodeStartTimes[i] = now();
      } else {
        this.episodeReturns[i] += Number(rewards[i]);
        this.episodeLengths[i] += 1;
      }
    }
    const dones = Uint8Array.from({ length: n }, (_, i) => (terminations[i] || truncations[i] ? 1 : 0));
    this.prevDones = dones;
    if (!dones.some(Boolean)) return [observations, rewards, terminations, truncations, infos];
    if (this.statsKey in infos || `_${this.statsKey}` in infos) {
      throw valueError(`RecordEpisodeStatistics: the infos already have a ${JSON.stringify(this.statsKey)} key; pass another statsKey`);
    }
    const t = now();
    const r = new Float64Array(n);
    const l = new Int32Array(n);
    const times = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      if (!dones[i]) continue;
      r[i] = this.episodeReturns[i];
      l[i] = this.episodeLengths[i];
      times[i] = Math.round((t - this.episodeStartTimes[i]) * 1e6) / 1e6;
      this._keep(r[i], l[i], times[i]);
      this.episodeCount += 1;
      if (sameStep) {
        // Already reset within this step: its statistics restart now.
        this.episodeReturns[i] = 0;
        this.episodeLengths[i] = 0;
        this.episodeStartTimes[i] = t;
      }
    }
    return [
      observations,
      rewards,
      terminations,
      truncations,
      { ...infos, [this.statsKey]: { r, l, t: times }, [`_${this.statsKey}`]: dones },
    ];
  }
  /**
   * @param {number} r
   * @param {number} l
   * @param {number} t
   */
  _keep(r, l, t) {
    /** @type {[number[], number][]} */
    const kept = [
      [this.returnQueue, r],
      [this.lengthQueue, l],
      [this.timeQueue, t],
    ];
    for (const [queue, value] of kept) {
      queue.push(value);
      if (queue.length > this.bufferLength) queue.shift();
    }
  }
}

/**
 * Gymnasium's RunningMeanStd.update with a batch: `rows` values of `size`
 * elements end to end, merged by their mean and (population) variance.
 * @param {RunningMeanStd} rms
 * @param {ArrayLike<number | bigint>} batch
 * @param {number} rows
 * @param {number} size
 */
function updateFromBatch(rms, batch, rows, size) {
  const total = rms.count + rows;
  for (let k = 0; k < size; k++) {
    let mean = 0;
    for (let i = 0; i < rows; i++) mean += Number(batch[i * size + k]);
    mean /= rows;
    let variance = 0;
    for (let i = 0; i < rows; i++) variance += (Number(batch[i * size + k]) - mean) ** 2;
    variance /= rows;
    const delta = mean - rms.mean[k];
    const m2 = rms.var[k] * rms.count + variance * rows + (delta * delta * rms.count * rows) / total;
    rms.mean[k] += (delta * rows) / total;
    rms.var[k] = m2 / total;
  }
  rms.count = total;
}

/**
 * @param {unknown} options
 * @param {string[]} known
 * @param {string} who
 * @returns {{ [option: string]: any }} the options, their values still to check
 */
function readOptions(options, known, who) {
  const o = options ?? {};
  if (typeof o !== 'object' || Array.isArray(o)) throw typeError(`${who}: options must be an object, got ${describe(options)}`);
  for (const key of Object.keys(o))
    if (!known.includes(key)) throw typeError(`${who}: unknown option ${JSON.stringify(key)} (known: ${known.join(', ')})`);
  return o;
}

/**
 * @param {unknown} epsilon
 * @param {string} who
 */
function readEpsilon(epsilon, who) {
  if (typeof epsilon !== 'number' || !(epsilon > 0) || !Number.isFinite(epsilon))
    throw valueError(`${who}: epsilon must be a positive number, got ${describe(epsilon)}`);
  return epsilon;
}

/**
 * Gymnasium's vector NormalizeObservation: every environment's observation
 * centred on the running mean and divided by the running standard
 * deviation, both over all environments' observations (updated by each
 * batch while `updateRunningMean`), as one Float32Array. NextStep
 * autoreset only; a partial reset is a ValueError.
 */
export class NormalizeObservation extends VectorObservationWrapper {
  /**
   * @param {unknown} env
   * @param {unknown} [options] checked: `{epsilon}`
   */
  constructor(env, options) {
    super(env);
    const { epsilon = 1e-8 } = readOptions(options, ['epsilon'], 'NormalizeObservation');
    this.epsilon = readEpsilon(epsilon, 'NormalizeObservation');
    if (autoresetModeOf(this.env, 'NormalizeObservation') !== 'NextStep')
      throw valueError(`NormalizeObservation needs autoresetMode NextStep, got ${this.env.metadata.autoresetMode}`);
    const shape = this.env.singleObservationSpace.shape;
    if (!Array.isArray(shape) && !isTypedArray(shape))
      throw typeError(`NormalizeObservation needs an observation space with a shape, got ${this.env.singleObservationSpace}`);
    this._size = Array.from(/** @type {ArrayLike<number>} */ (shape)).reduce((a, b) => a * b, 1);
    this.singleObservationSpace = Space.box({
      low: -Infinity,
      high: Infinity,
      shape: Array.from(/** @type {ArrayLike<number>} */ (shape)),
      dtype: 'float32',
    });
    this.observationSpace = Space.batched(this.singleObservationSpace, [this.numEnvs]);
    this.obsRms = new RunningMeanStd(this._size);
    this.updateRunningMean = true;
  }
  /** @param {VectorResetArgs} [args] */
  reset(args) {
    const mask = args?.options?.resetMask;
    if (mask !== undefined && mask !== null && !Array.from(mask).every(Boolean)) {
      throw valueError('NormalizeObservation does not support partial resets: resetMask must select every environment');
    }
    return super.reset(args);
  }
  /** @param {any} observations */
  observations(observations) {
    const n = this.numEnvs;
    const size = this._size;
    if (observations?.length !== n * size)
      throw valueError(`NormalizeObservation: a batch of ${n} × ${size} values, got ${describe(observations)}`);
    if (this.updateRunningMean) updateFromBatch(this.obsRms, observations, n, size);
    const { mean, var: variance } = this.obsRms;
    const out = new Float32Array(n * size);
    for (let i = 0; i < out.length; i++) out[i] = (Number(observations[i]) - mean[i % size]) / Math.sqrt(variance[i % size] + this.epsilon);
    return out;
  }
}

/**
 * Gymnasium's vector NormalizeReward: rewards divided by the running
 * standard deviation of the discounted returns of all environments
 * (`accumulatedReward`, updated as `return * gamma * (1 - terminated) +
 * reward` on every step that is an episode's, while `updateRunningMean`).
 */
export class NormalizeReward extends VectorWrapper {
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
    this.epsilon = readEpsilon(epsilon, 'NormalizeReward');
    this.returnRms = new RunningMeanStd(1);
    this.accumulatedReward = new Float64Array(this.numEnvs);
    this.updateRunningMean = true;
    this._prevDones = new Uint8Array(this.numEnvs);
    this._autoresetMode = this.env.metadata?.autoresetMode ?? 'NextStep';
  }
  /** @param {VectorResetArgs} [args] */
  reset(args) {
    this.accumulatedReward.fill(0);
    this._prevDones.fill(0);
    return this.env.reset(args);
  }
  /** @param {any} actions */
  step(actions) {
    return andThen(this.env.step(actions), ([observations, rewards, terminations, truncations, infos]) => {
      const n = this.numEnvs;
      const sameStep = this._autoresetMode === 'SameStep';
      /** @type {number[]} */
      const active = [];
      for (let i = 0; i < n; i++) {
        if (!sameStep && this._prevDones[i]) continue;
        this.accumulatedReward[i] = this.accumulatedReward[i] * this.gamma * (terminations[i] ? 0 : 1) + Number(rewards[i]);
        active.push(this.accumulatedReward[i]);
      }
      if (this.updateRunningMean && active.length) updateFromBatch(this.returnRms, active, active.length, 1);
      for (let i = 0; i < n; i++) {
        this._prevDones[i] = terminations[i] || truncations[i] ? 1 : 0;
        if (sameStep && this._prevDones[i]) this.accumulatedReward[i] = 0;
      }
      const scale = Math.sqrt(this.returnRms.var[0] + this.epsilon);
      return [observations, rewards.map((/** @type {number} */ r) => Number(r) / scale), terminations, truncations, infos];
    });
  }
}

keepNames({ RecordEpisodeStatistics, NormalizeObservation, NormalizeReward });
