// Gymnasium 1.x's action wrappers: ClipAction and RescaleAction (Box
// actions), StickyAction (the previous action repeated with a probability,
// drawn from the environment's seeded generator) and RepeatAction (one
// action applied k times: frame skip; for a compiler, the same pass k times).
import { Space } from '../api.js';
import { ActionWrapper, Wrapper, describe, requireEnv, typeError, valueError, keepNames } from './core.js';
import { TransformAction } from './wrappers.js';
import { DTYPES } from './ml-wrappers.js';
import { boxBounds } from './space-values.js';
import { isTypedArray } from './arrays.js';

/** @import { ResetArgs } from './index.js' */
/** @import { DType } from '../compgym.js' */

/** Rounds as the dtype stores a number: float32 through Math.fround, float64 as it is. */
const rounding = (/** @type {DType} */ dtype) => (dtype === 'float32' ? Math.fround : (/** @type {number} */ x) => x);

/** Each element of `action` (a number, an array or a typed array) mapped by `f(x, i)`, as a typed array of `dtype`. */
/**
 * @param {unknown} action checked here
 * @param {DType} dtype a float or integer dtype (a Box's that is not bool)
 * @param {(x: number, i: number) => number} f
 */
function mapAction(action, dtype, f) {
  if (typeof action === 'number') return f(action, 0);
  if (!(isTypedArray(action) || Array.isArray(action)))
    throw typeError(`a Box action must be a number, an array or a typed array, got ${describe(action)}`);
  const out = new DTYPES[/** @type {keyof typeof DTYPES} */ (dtype)](action.length);
  for (let i = 0; i < action.length; i++) out[i] = f(Number(action[i]), i);
  return out;
}

/**
 * Clips each action into the environment's Box before it steps; agents act
 * in a Box of the same shape and dtype with infinite bounds (Gymnasium 1.x).
 */
export class ClipAction extends TransformAction {
  /** @param {unknown} env */
  constructor(env) {
    const box = boxBounds(requireEnv(env, "ClipAction's environment").actionSpace, 'ClipAction');
    const clip = (/** @type {number} */ x, /** @type {number} */ i) => Math.min(box.high[i], Math.max(box.low[i], x));
    super(
      env,
      (/** @type {unknown} */ action) => mapAction(action, box.dtype, clip),
      Space.box({ low: -Infinity, high: Infinity, shape: box.shape, dtype: box.dtype }),
    );
  }
}

/**
 * A bound given as a number or one number per element, as `size` numbers.
 * @param {unknown} bound
 * @param {number} size
 * @param {string} what
 * @returns {number[]}
 */
function readBound(bound, size, what) {
  if (typeof bound === 'number') return new Array(size).fill(bound);
  if (isTypedArray(bound) || Array.isArray(bound)) {
    if (bound.length !== size) throw valueError(`${what} must have ${size} elements, got ${bound.length}`);
    return Array.from(bound, Number);
  }
  throw typeError(`${what} must be a number or an array of numbers, got ${describe(bound)}`);
}

/**
 * Affinely rescales a float Box action space to [minAction, maxAction]
 * (numbers or one per element): agents act there, and each action is mapped
 * back onto the environment's Box (Gymnasium's rescale_box, in the Box's
 * dtype). Infinite bounds stay where they are and must match.
 */
export class RescaleAction extends TransformAction {
  /**
   * @param {unknown} env
   * @param {unknown} minAction checked: a number or one per element
   * @param {unknown} maxAction checked: a number or one per element
   */
  constructor(env, minAction, maxAction) {
    const box = boxBounds(requireEnv(env, "RescaleAction's environment").actionSpace, 'RescaleAction');
    if (!box.dtype.startsWith('float')) throw typeError(`RescaleAction needs a float Box action space, got dtype ${box.dtype}`);
    const newMin = readBound(minAction, box.size, 'RescaleAction: minAction');
    const newMax = readBound(maxAction, box.size, 'RescaleAction: maxAction');
    const round = rounding(box.dtype);
    const gradient = new Array(box.size).fill(1);
    const intercept = new Array(box.size).fill(0);
    for (let i = 0; i < box.size; i++) {
      const [lo, hi, a, b] = [box.low[i], box.high[i], newMin[i], newMax[i]];
      if ((!Number.isFinite(a) || !Number.isFinite(lo)) && a !== lo)
        throw valueError('RescaleAction: for unbounded components, the target bounds must match the original infinity bounds');
      if ((!Number.isFinite(b) || !Number.isFinite(hi)) && b !== hi)
        throw valueError('RescaleAction: for unbounded components, the target bounds must match the original infinity bounds');
      if (!(a <= b)) throw valueError(`RescaleAction: minAction must be at most maxAction, got ${a} and ${b} at ${i}`);
      if (a === b)
        throw valueError(
          `RescaleAction: minAction (${a}) must be strictly smaller than maxAction (${b}): the rescaling has no inverse where they are equal`,
        );
      if (Number.isFinite(a) && Number.isFinite(b)) gradient[i] = round((b - a) / (hi - lo));
      if (Number.isFinite(b)) intercept[i] = round(b - hi);
      if (Number.isFinite(a)) intercept[i] = round(round(gradient[i] * -lo) + a);
    }
    const back = (/** @type {number} */ x, /** @type {number} */ i) => round(round(x - intercept[i]) / gradient[i]);
    super(
      env,
      (/** @type {unknown} */ action) => mapAction(action, box.dtype, back),
      Space.box({ low: newMin, high: newMax, shape: box.shape, dtype: box.dtype }),
    );
    this.minAction = newMin;
    this.maxAction = newMax;
  }
}

/** @param {unknown} p */
function readProbability(p) {
  if (typeof p !== 'number') throw typeError(`StickyAction: repeatActionProbability must be a number, got ${describe(p)}`);
  if (!(p >= 0 && p < 1)) throw valueError(`StickyAction: repeatActionProbability must be in [0, 1), got ${p}`);
  return p;
}

/**
 * @param {unknown} duration
 * @returns {[number, number]}
 */
function readDuration(duration) {
  const range = typeof duration === 'number' ? [duration, duration] : duration;
  if (!Array.isArray(range) || range.length !== 2) {
    throw valueError(`StickyAction: repeatActionDuration must be an integer or [min, max], got ${describe(duration)}`);
  }
  if (!range.every((x) => Number.isSafeInteger(x) && x >= 1))
    throw valueError(`StickyAction: repeatActionDuration must be integers >= 1, got ${JSON.stringify(range)}`);
  if (range[0] > range[1]) throw valueError(`StickyAction: repeatActionDuration [${range}] is not a valid range`);
  return [range[0], range[1]];
}

/**
 * Gymnasium's StickyAction (Machado et al., 2018): with probability
 * `repeatActionProbability` the previous action is taken instead of the
 * agent's, for `repeatActionDuration` steps (an integer, or [min, max]
 * drawn uniformly). The draws come from the environment's `npRandom`, so
 * `reset({seed})` makes a run reproduce.
 */
export class StickyAction extends ActionWrapper {
  /**
   * @param {unknown} env
   * @param {unknown} repeatActionProbability checked: in [0, 1)
   * @param {{ repeatActionDuration?: number | [number, number] }} [options] checked
   */
  constructor(env, repeatActionProbability, { repeatActionDuration = 1 } = {}) {
    super(env);
    this.repeatActionProbability = readProbability(repeatActionProbability);
    this.repeatActionDurationRange = readDuration(repeatActionDuration);
    // The sticky state, as _clear() leaves it.
    /** @type {unknown} */
    this.lastAction = null;
    this.isStickyActions = false;
    this.numRepeats = 0;
    this.repeatsTaken = 0;
  }
  _clear() {
    this.lastAction = null;
    this.isStickyActions = false;
    this.numRepeats = 0;
    this.repeatsTaken = 0;
  }
  /** @param {ResetArgs} [args] */
  reset(args) {
    this._clear();
    return this.env.reset(args);
  }
  /**
   * As ActionWrapper's, but a step that throws leaves the sticky state as it was (its draws are spent).
   * @param {any} action
   */
  step(action) {
    /** @type {[unknown, boolean, number, number]} */
    const saved = [this.lastAction, this.isStickyActions, this.numRepeats, this.repeatsTaken];
    try {
      return this.env.step(this.action(action));
    } catch (error) {
      [this.lastAction, this.isStickyActions, this.numRepeats, this.repeatsTaken] = saved;
      throw error;
    }
  }
  /** @param {any} action */
  action(action) {
    let taken = action;
    if (this.isStickyActions || (this.lastAction !== null && this.npRandom.random() < this.repeatActionProbability)) {
      if (this.numRepeats === 0) {
        const [low, high] = this.repeatActionDurationRange;
        this.numRepeats = Number(this.npRandom.integers(low, high + 1));
      }
      taken = this.lastAction;
      this.isStickyActions = true;
      this.repeatsTaken += 1;
    }
    if (this.isStickyActions && this.numRepeats === this.repeatsTaken) {
      this.isStickyActions = false;
      this.numRepeats = 0;
      this.repeatsTaken = 0;
    }
    this.lastAction = taken;
    return taken;
  }
}

/**
 * Gymnasium's RepeatAction, frame skip: each action is applied
 * `numRepeats` times (fewer if the episode ends), returning the last
 * observation and info and the sum of the rewards.
 */
export class RepeatAction extends Wrapper {
  /**
   * @param {unknown} env
   * @param {unknown} numRepeats checked: a positive integer
   */
  constructor(env, numRepeats) {
    super(env);
    if (typeof numRepeats !== 'number' || !Number.isInteger(numRepeats))
      throw typeError(`RepeatAction: numRepeats must be an integer, got ${describe(numRepeats)}`);
    if (numRepeats < 1) throw valueError(`RepeatAction: numRepeats must be at least 1, got ${numRepeats}`);
    this.numRepeats = numRepeats;
  }
  /** @param {any} action */
  step(action) {
    let total = 0;
    let result;
    for (let i = 0; i < this.numRepeats; i++) {
      result = this.env.step(action);
      total += Number(result[1]);
      if (result[2] || result[3]) break;
    }
    return [result[0], total, result[2], result[3], result[4]];
  }
}

keepNames({ ClipAction, RescaleAction, StickyAction, RepeatAction });
