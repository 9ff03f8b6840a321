// The runtime rewards as the environment computes them (src/rewards/cost.rs),
// from instruction counts measured in a worker: the page defers them so that
// no step runs a program on the main thread (see episode.js). No DOM: the
// Node tests check them against the environment's own.

/** Rewards that run the program at every step. */
export const RUNTIME_REWARDS = /^DynamicInstructionCount/;

/** The least share of the initial cost a baseline-relative reward divides by (the core's `BASELINE_FLOOR`). */
const BASELINE_FLOOR = 0.05;

/** Whether reward `name` needs the program's count after -O2. */
export function needsO2(name) {
  return name === 'DynamicInstructionCountO2';
}

/**
 * The reward under `name` of a step from a program executing `before`
 * instructions to one executing `after`; `o0`: the count of the program as
 * loaded, `o2`: after -O2 (only for `DynamicInstructionCountO2`).
 * @param {string} name
 * @param {number} before
 * @param {number} after
 * @param {{ o0?: number, o2?: number }} [counts]
 * @returns {number}
 */
export function runtimeReward(name, before, after, { o0, o2 } = {}) {
  return (before - after) / scale(name, o0, o2);
}

/**
 * @param {string} name
 * @param {any} o0
 * @param {any} o2
 */
function scale(name, o0, o2) {
  if (name === 'DynamicInstructionCountNorm') return o0 === 0 ? 1 : o0;
  if (needsO2(name)) return Math.max(o0 - o2, BASELINE_FLOOR * o0, 1);
  return 1;
}
