// Gymnasium 1.x's vectorized transforms (gymnasium/wrappers/vector/
// vectorize_*.py, dict_info_to_list.py): TransformObservation,
// TransformReward and TransformAction (a function of the whole batch);
// VectorizeTransformObservation, -Reward and -Action (a single-env wrapper
// applied to each environment's part of a batch) and the vector ClipAction,
// RescaleAction, ClipReward, FlattenObservation, FilterObservation and
// DtypeObservation built on them; DictInfoToList (infos as one object per
// environment).
import { Env, describe, isPlainObject, notImplemented, requireFunction, requireSpace, typeError, valueError, keepNames } from './core.js';
import { DtypeObservation as SingleDtypeObservation } from './ml-wrappers.js';
import { FlattenObservation as SingleFlattenObservation } from './wrappers.js';
import { ClipAction as SingleClipAction, RescaleAction as SingleRescaleAction } from './action-wrappers.js';
import { ClipReward as SingleClipReward } from './reward-wrappers.js';
import { FilterObservation as SingleFilterObservation } from './observation-wrappers.js';
import { batcher } from './vector.js';
import { VectorActionWrapper, VectorObservationWrapper, VectorRewardWrapper, VectorWrapper, andThen } from './vector-env.js';
import { isTypedArray } from './arrays.js';

/** @import { RewardArray, VectorResetArgs } from './index.js' */
/** @import { SpaceObject } from './core.js' */
/** @import { AnyVectorEnv } from './vector-env.js' */
/** @typedef {import('./vector.js').Batcher} Batcher */
/**
 * A single-env wrapper built over SpacesOnly: its spaces, and the
 * observation, reward or action method a vectorizing wrapper calls.
 * @typedef {{ observationSpace: SpaceObject, actionSpace: SpaceObject, [member: string]: any }} SingleWrapper
 */

/** A stand-in environment with only spaces, for a single-env wrapper to be built over. */
class SpacesOnly extends Env {
  /**
   * @param {SpaceObject} observationSpace
   * @param {SpaceObject} actionSpace
   */
  constructor(observationSpace, actionSpace) {
    super();
    this.observationSpace = observationSpace;
    this.actionSpace = actionSpace;
  }
  /** @returns {never} */
  reset() {
    throw notImplemented('a vectorized wrapper only transforms values');
  }
  /** @returns {never} */
  step() {
    throw notImplemented('a vectorized wrapper only transforms values');
  }
}

/**
 * @param {AnyVectorEnv} env
 * @param {unknown} Wrapper checked: a wrapper class
 * @param {unknown[]} args
 * @param {string} who
 * @returns {SingleWrapper}
 */
function singleWrapper(env, Wrapper, args, who) {
  if (typeof Wrapper !== 'function') throw typeError(`${who}: wrapper must be a wrapper class, got ${describe(Wrapper)}`);
  return new /** @type {new (env: SpacesOnly, ...args: unknown[]) => SingleWrapper} */ (Wrapper)(
    new SpacesOnly(env.singleObservationSpace, env.singleActionSpace),
    ...args,
  );
}

/**
 * Each environment's part of `batch` (by `from`) mapped by `f`, batched again by `to`.
 * @param {unknown} batch
 * @param {number} n
 * @param {Batcher} from
 * @param {Batcher} to
 * @param {(item: any) => unknown} f
 */
function mapBatch(batch, n, from, to, f) {
  return to.concatenate(Array.from({ length: n }, (_, i) => f(from.item(batch, i))));
}

/**
 * Applies `f` to each batch of observations; `observationSpace` (or
 * `singleObservationSpace`, batched) is the new space (default: unchanged).
 */
export class TransformObservation extends VectorObservationWrapper {
  /**
   * @param {unknown} env
   * @param {unknown} f checked: a function of a batch of observations
   * @param {unknown} [observationSpace] checked: a Space, or null
   * @param {unknown} [singleObservationSpace] checked: a Space, or null
   */
  constructor(env, f, observationSpace = null, singleObservationSpace = null) {
    super(env);
    this.f = requireFunction(f, 'TransformObservation: f');
    if (singleObservationSpace !== null)
      this.singleObservationSpace = requireSpace(singleObservationSpace, 'TransformObservation: singleObservationSpace');
    if (observationSpace !== null) this.observationSpace = requireSpace(observationSpace, 'TransformObservation: observationSpace');
    else if (singleObservationSpace !== null) this.observationSpace = batcher(this.singleObservationSpace, this.numEnvs).space;
  }
  /** @param {any} observations */
  observations(observations) {
    return this.f(observations);
  }
}

/** Applies `f` to each batch of rewards. */
export class TransformReward extends VectorRewardWrapper {
  /**
   * @param {unknown} env
   * @param {unknown} f checked: a function of a batch of rewards
   */
  constructor(env, f) {
    super(env);
    this.f = requireFunction(f, 'TransformReward: f');
  }
  /** @param {RewardArray} rewards */
  rewards(rewards) {
    return this.f(rewards);
  }
}

/**
 * Applies `f` to each batch of actions before the environments see it;
 * `actionSpace` (or `singleActionSpace`, batched) is the space agents act in.
 */
export class TransformAction extends VectorActionWrapper {
  /**
   * @param {unknown} env
   * @param {unknown} f checked: a function of a batch of actions
   * @param {unknown} [actionSpace] checked: a Space, or null
   * @param {unknown} [singleActionSpace] checked: a Space, or null
   */
  constructor(env, f, actionSpace = null, singleActionSpace = null) {
    super(env);
    this.f = requireFunction(f, 'TransformAction: f');
    if (singleActionSpace !== null) this.singleActionSpace = requireSpace(singleActionSpace, 'TransformAction: singleActionSpace');
    if (actionSpace !== null) this.actionSpace = requireSpace(actionSpace, 'TransformAction: actionSpace');
    else if (singleActionSpace !== null) this.actionSpace = batcher(this.singleActionSpace, this.numEnvs).space;
  }
  /** @param {any} actions */
  actions(actions) {
    return this.f(actions);
  }
}

/**
 * Applies a single-env observation wrapper's `observation(x)` to each
 * environment's observation: `new VectorizeTransformObservation(envs,
 * Log1pObservation)`; further arguments go to the wrapper's constructor.
 * The spaces are the wrapper's, batched.
 */
export class VectorizeTransformObservation extends VectorObservationWrapper {
  /**
   * @param {unknown} env
   * @param {unknown} wrapper checked: a wrapper class
   * @param {unknown[]} args its constructor's further arguments
   */
  constructor(env, wrapper, ...args) {
    super(env);
    this.wrapper = singleWrapper(this.env, wrapper, args, 'VectorizeTransformObservation');
    this.singleObservationSpace = this.wrapper.observationSpace;
    this._in = batcher(this.env.singleObservationSpace, this.numEnvs);
    this._out = batcher(this.singleObservationSpace, this.numEnvs);
    this.observationSpace = this._out.space;
  }
  /** @param {any} observations */
  observations(observations) {
    return mapBatch(observations, this.numEnvs, this._in, this._out, (x) => this.wrapper.observation(x));
  }
}

/** Applies a single-env reward wrapper's `reward(r)` to each environment's reward. */
export class VectorizeTransformReward extends VectorRewardWrapper {
  /**
   * @param {unknown} env
   * @param {unknown} wrapper checked: a wrapper class
   * @param {unknown[]} args its constructor's further arguments
   */
  constructor(env, wrapper, ...args) {
    super(env);
    this.wrapper = singleWrapper(this.env, wrapper, args, 'VectorizeTransformReward');
  }
  /** @param {RewardArray} rewards */
  rewards(rewards) {
    return rewards.map((/** @type {number} */ r) => this.wrapper.reward(r));
  }
}

/**
 * Applies a single-env action wrapper's `action(a)` to each environment's
 * action; agents act in the wrapper's action space, batched.
 */
export class VectorizeTransformAction extends VectorActionWrapper {
  /**
   * @param {unknown} env
   * @param {unknown} wrapper checked: a wrapper class
   * @param {unknown[]} args its constructor's further arguments
   */
  constructor(env, wrapper, ...args) {
    super(env);
    this.wrapper = singleWrapper(this.env, wrapper, args, 'VectorizeTransformAction');
    this.singleActionSpace = this.wrapper.actionSpace;
    this._in = batcher(this.singleActionSpace, this.numEnvs);
    this._out = batcher(this.env.singleActionSpace, this.numEnvs);
    this.actionSpace = this._in.space;
  }
  /** @param {any} actions */
  actions(actions) {
    if (this._in.length(actions) !== this.numEnvs)
      throw valueError(`step takes a batch of ${this.numEnvs} actions, got ${describe(actions)}`);
    return mapBatch(actions, this.numEnvs, this._in, this._out, (a) => this.wrapper.action(a));
  }
}

/** ClipAction for each environment. */
export class ClipAction extends VectorizeTransformAction {
  /** @param {unknown} env */
  constructor(env) {
    super(env, SingleClipAction);
  }
}

/** RescaleAction for each environment. */
export class RescaleAction extends VectorizeTransformAction {
  /**
   * @param {unknown} env
   * @param {unknown} minAction
   * @param {unknown} maxAction
   */
  constructor(env, minAction, maxAction) {
    super(env, SingleRescaleAction, minAction, maxAction);
  }
}

/** ClipReward for each environment. */
export class ClipReward extends VectorizeTransformReward {
  /**
   * @param {unknown} env
   * @param {{ minReward?: number | null, maxReward?: number | null }} [options]
   */
  constructor(env, options) {
    super(env, SingleClipReward, options);
  }
}

/** FlattenObservation for each environment. */
export class FlattenObservation extends VectorizeTransformObservation {
  /** @param {unknown} env */
  constructor(env) {
    super(env, SingleFlattenObservation);
  }
}

/** FilterObservation for each environment. */
export class FilterObservation extends VectorizeTransformObservation {
  /**
   * @param {unknown} env
   * @param {unknown} filterKeys
   */
  constructor(env, filterKeys) {
    super(env, SingleFilterObservation, filterKeys);
  }
}

/** DtypeObservation for each environment. */
export class DtypeObservation extends VectorizeTransformObservation {
  /**
   * @param {unknown} env
   * @param {unknown} dtype
   */
  constructor(env, dtype) {
    super(env, SingleDtypeObservation, dtype);
  }
}

/**
 * Environment `i`'s entry of a batched info array (a typed array holds the n rows end to end).
 * @param {any} array a typed array or an array
 * @param {number} i
 * @param {number} n
 */
function entryOf(array, i, n) {
  if (!isTypedArray(array)) return array[i];
  const width = array.length / n;
  return width === 1 ? array[i] : array.slice(i * width, (i + 1) * width);
}

/**
 * Gymnasium's _convert_info_to_list: batched infos as one info object per environment.
 * @param {{ [key: string]: any }} infos
 * @param {number} n
 * @returns {{ [key: string]: unknown }[]}
 */
function infoList(infos, n) {
  /** @type {{ [key: string]: unknown }[]} */
  const list = Array.from({ length: n }, () => ({}));
  for (const [key, value] of Object.entries(infos)) {
    if (key.startsWith('_')) continue;
    const mask = infos[`_${key}`];
    if (isPlainObject(value)) {
      infoList(value, n).forEach((entry, i) => {
        if (mask?.[i]) list[i][key] = entry;
      });
      continue;
    }
    for (let i = 0; i < n; i++) if (mask?.[i]) list[i][key] = entryOf(value, i, n);
  }
  return list;
}

/**
 * Gymnasium's DictInfoToList: reset and step give an array of one info
 * object per environment (with the keys it set) instead of batched infos.
 */
export class DictInfoToList extends VectorWrapper {
  /** @param {VectorResetArgs} [args] */
  reset(args) {
    return andThen(this.env.reset(args), ([observations, infos]) => [observations, infoList(infos, this.numEnvs)]);
  }
  /** @param {any} actions */
  step(actions) {
    return andThen(this.env.step(actions), ([observations, rewards, terminations, truncations, infos]) => [
      observations,
      rewards,
      terminations,
      truncations,
      infoList(infos, this.numEnvs),
    ]);
  }
}

keepNames({
  SpacesOnly,
  TransformObservation,
  TransformReward,
  TransformAction,
  VectorizeTransformObservation,
  VectorizeTransformReward,
  VectorizeTransformAction,
  ClipAction,
  RescaleAction,
  ClipReward,
  FlattenObservation,
  FilterObservation,
  DtypeObservation,
  DictInfoToList,
});
