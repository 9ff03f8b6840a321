// The runtime rewards, settled from instruction counts measured in a worker:
// the page defers them so that no step runs a program on the main thread
// (see episode.js). Which rewards run the program, which need the count
// after -O2, and the formula are the core's (`catalog()` and
// `runtimeReward`), read once the wasm is initialised: the page initialises
// it before any view runs. No DOM: the Node tests check them against the
// environment's own.
import { catalog } from './registries.js';

/** @type {{ runs: Set<string>, o2: Set<string> } | null} */
let kinds = null;
/** The names of the runtime rewards and of those measured against -O2, from the core's registry. */
function rewardKinds() {
  if (!kinds) {
    const { rewards } = catalog();
    kinds = {
      runs: new Set(rewards.filter((r) => r.runsProgram).map((r) => r.name)),
      o2: new Set(rewards.filter((r) => r.needsO2).map((r) => r.name)),
    };
  }
  return kinds;
}

/** Rewards that run the program at every step (`RUNTIME_REWARDS.test(name)`). */
export const RUNTIME_REWARDS = {
  /** @param {string} name */
  test: (name) => rewardKinds().runs.has(name),
};

/**
 * Whether reward `name` needs the program's count after -O2.
 * @param {string} name
 */
export function needsO2(name) {
  return rewardKinds().o2.has(name);
}

/**
 * The reward under `name` of a step from a program executing `before`
 * instructions to one executing `after`: `runtimeReward(name, before, after,
 * {o0, o2})`, `o0` the count of the program as loaded, `o2` after -O2 (only
 * for a reward that needs it). The core's own formula.
 */
export { runtimeReward } from '../pkg/index.js';
