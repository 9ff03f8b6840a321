// Gymnasium 1.x's ClipReward: rewards clipped into [minReward, maxReward].
import { describe, requireEnv, typeError, valueError, keepNames } from './core.js';
import { TransformReward } from './wrappers.js';

/**
 * A bound of ClipReward: a number, or null for none.
 * @param {unknown} x
 * @param {string} what
 * @returns {number | null}
 */
function readLimit(x, what) {
  if (x === undefined || x === null) return null;
  if (typeof x !== 'number' || Number.isNaN(x)) throw typeError(`ClipReward: ${what} must be a number or null, got ${describe(x)}`);
  return x;
}

/**
 * Gymnasium's clip of a reward; a bound left null does not clip.
 * @param {unknown} minReward
 * @param {unknown} maxReward
 */
export function clipReward(minReward, maxReward) {
  const min = readLimit(minReward, 'minReward');
  const max = readLimit(maxReward, 'maxReward');
  if (min === null && max === null) throw valueError('ClipReward: minReward and maxReward cannot both be null');
  if (min !== null && max !== null && max < min) throw valueError(`ClipReward: minReward (${min}) must be at most maxReward (${max})`);
  return { min, max, clip: (/** @type {unknown} */ r) => Math.min(max ?? Infinity, Math.max(min ?? -Infinity, Number(r))) };
}

/** Clips every reward into [minReward, maxReward] (either may be null: no bound on that side). */
export class ClipReward extends TransformReward {
  /**
   * @param {any} env
   * @param {{ minReward?: number | null, maxReward?: number | null }} [bounds]
   */
  constructor(env, { minReward = null, maxReward = null } = {}) {
    requireEnv(env, "ClipReward's environment");
    const { min, max, clip } = clipReward(minReward, maxReward);
    super(env, clip);
    this.minReward = min;
    this.maxReward = max;
  }
}

keepNames({ ClipReward });
