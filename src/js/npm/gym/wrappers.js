// Gymnasium 1.x's common wrappers: TimeLimit, RecordEpisodeStatistics,
// FlattenObservation, TransformObservation, TransformReward and
// TransformAction. Each forwards what it does not change (see Wrapper) and
// forks with its own state copied.
import {
  ActionWrapper,
  ObservationWrapper,
  RewardWrapper,
  Wrapper,
  describe,
  isPlainObject,
  requireFunction,
  requireSpace,
  valueError,
  keepNames,
} from './core.js';

/** @import { ResetArgs } from './index.js' */

/**
 * Truncates episodes after `maxEpisodeSteps` steps: the step that reaches
 * the limit returns `truncated = true` (whatever `terminated` says).
 * A step before the first reset is passed on, and counts from zero.
 */
export class TimeLimit extends Wrapper {
  /**
   * @param {unknown} env
   * @param {number} maxEpisodeSteps checked: a positive safe integer
   */
  constructor(env, maxEpisodeSteps) {
    super(env);
    if (!Number.isSafeInteger(maxEpisodeSteps) || maxEpisodeSteps < 1) {
      throw valueError(`TimeLimit: maxEpisodeSteps must be a positive integer, got ${describe(maxEpisodeSteps)}`);
    }
    this.maxEpisodeSteps = maxEpisodeSteps;
    /** @type {number | null} */
    this.elapsedSteps = null;
  }
  /** @param {ResetArgs} [args] */
  reset(args) {
    const result = this.env.reset(args);
    this.elapsedSteps = 0;
    return result;
  }
  /** @param {any} action */
  step(action) {
    const [observation, reward, terminated, truncated, info] = this.env.step(action);
    this.elapsedSteps = (this.elapsedSteps ?? 0) + 1;
    return [observation, reward, terminated, truncated || this.elapsedSteps >= this.maxEpisodeSteps, info];
  }
  get spec() {
    const spec = super.spec;
    return spec ? { ...spec, maxEpisodeSteps: this.maxEpisodeSteps } : spec;
  }
}

const now = () => (globalThis.performance?.now() ?? Date.now()) / 1000;

/**
 * Records each episode's return, length and wall time: the step that ends
 * an episode adds `info[statsKey] = {r, l, t}` (t in seconds, to the
 * microsecond), and the last `bufferLength` episodes are kept in
 * `returnQueue`, `lengthQueue` and `timeQueue`.
 */
export class RecordEpisodeStatistics extends Wrapper {
  /**
   * @param {unknown} env
   * @param {{ bufferLength?: number, statsKey?: string }} [options] checked
   */
  constructor(env, { bufferLength = 100, statsKey = 'episode' } = {}) {
    super(env);
    if (!Number.isSafeInteger(bufferLength) || bufferLength < 1) {
      throw valueError(`RecordEpisodeStatistics: bufferLength must be a positive integer, got ${describe(bufferLength)}`);
    }
    if (typeof statsKey !== 'string') throw valueError(`RecordEpisodeStatistics: statsKey must be a string, got ${describe(statsKey)}`);
    this.bufferLength = bufferLength;
    this.statsKey = statsKey;
    this.episodeCount = 0;
    this.episodeStartTime = now();
    this.episodeReturns = 0;
    this.episodeLengths = 0;
    /** @type {number[]} */
    this.returnQueue = [];
    /** @type {number[]} */
    this.lengthQueue = [];
    /** @type {number[]} */
    this.timeQueue = [];
  }
  /** @param {ResetArgs} [args] */
  reset(args) {
    const result = this.env.reset(args);
    this.episodeStartTime = now();
    this.episodeReturns = 0;
    this.episodeLengths = 0;
    return result;
  }
  /** @param {any} action */
  step(action) {
    const [observation, reward, terminated, truncated, info] = this.env.step(action);
    this.episodeReturns += reward;
    this.episodeLengths += 1;
    if (terminated || truncated) {
      if (isPlainObject(info) && this.statsKey in info) {
        throw valueError(`RecordEpisodeStatistics: the info already has a ${JSON.stringify(this.statsKey)} key; pass another statsKey`);
      }
      const t = Math.round((now() - this.episodeStartTime) * 1e6) / 1e6;
      const stats = { r: this.episodeReturns, l: this.episodeLengths, t };
      /** @type {[number[], number][]} */
      const queues = [
        [this.returnQueue, stats.r],
        [this.lengthQueue, stats.l],
        [this.timeQueue, stats.t],
      ];
      for (const [queue, value] of queues) {
        queue.push(value);
        if (queue.length > this.bufferLength) queue.shift();
      }
      this.episodeCount += 1;
      return [observation, reward, terminated, truncated, { ...info, [this.statsKey]: stats }];
    }
    return [observation, reward, terminated, truncated, info];
  }
  fork() {
    const copy = super.fork();
    copy.returnQueue = [...this.returnQueue];
    copy.lengthQueue = [...this.lengthQueue];
    copy.timeQueue = [...this.timeQueue];
    return copy;
  }
}

/** Flattens observations into one typed array: the space's `flattenSpace()`, values its `flatten(x)`. */
export class FlattenObservation extends ObservationWrapper {
  /** @param {unknown} env */
  constructor(env) {
    super(env);
    this._inner = requireSpace(this.env.observationSpace, 'FlattenObservation: the observation space');
    this.observationSpace = this._inner.flattenSpace();
  }
  /** @param {any} observation */
  observation(observation) {
    return this._inner.flatten(observation);
  }
}

/** Applies `f` to every observation; `observationSpace` is the new space (default: unchanged). */
export class TransformObservation extends ObservationWrapper {
  /**
   * @param {unknown} env
   * @param {unknown} f checked: a function of an observation
   * @param {unknown} [observationSpace] checked: a Space, or null
   */
  constructor(env, f, observationSpace = null) {
    super(env);
    this.f = requireFunction(f, 'TransformObservation: f');
    if (observationSpace !== null) this.observationSpace = requireSpace(observationSpace, 'TransformObservation: observationSpace');
  }
  /** @param {any} observation */
  observation(observation) {
    return this.f(observation);
  }
}

/** Applies `f` to every reward. */
export class TransformReward extends RewardWrapper {
  /**
   * @param {unknown} env
   * @param {unknown} f checked: a function of a reward
   */
  constructor(env, f) {
    super(env);
    this.f = requireFunction(f, 'TransformReward: f');
  }
  /** @param {number} reward */
  reward(reward) {
    return this.f(reward);
  }
}

/** Applies `f` to every action before the environment sees it; `actionSpace` is the space agents act in (default: unchanged). */
export class TransformAction extends ActionWrapper {
  /**
   * @param {unknown} env
   * @param {unknown} f checked: a function of an action
   * @param {unknown} [actionSpace] checked: a Space, or null
   */
  constructor(env, f, actionSpace = null) {
    super(env);
    this.f = requireFunction(f, 'TransformAction: f');
    if (actionSpace !== null) this.actionSpace = requireSpace(actionSpace, 'TransformAction: actionSpace');
  }
  /** @param {any} action */
  action(action) {
    return this.f(action);
  }
}

keepNames({ TimeLimit, RecordEpisodeStatistics, FlattenObservation, TransformObservation, TransformReward, TransformAction });
