// The bandit's regret curves, computed in a worker: LinUCB and a uniformly
// random policy on tf_agents' stationary stochastic per-arm environment with
// a linear reward, the same seed for both.
//
// The problem is sized so that learning is visible over a few thousand
// steps: 20 arms, 10 features (4 global, 6 per arm) and noise three times
// the spread of a weight. With 5 features and noise 0.1, LinUCB knew the
// weights after 3 steps and its regret was flat from there (about 7 at any
// horizon); here it grows by about 200 over the first 1,000 steps and by
// about 65 over the next 2,000 (seed 3), while random's grows by about 2.4 a step.
import { StationaryStochasticPerArmEnvironment, LinUcb, Rng } from '../pkg/index.js';

export const THETA = [1, -1, 0.5, 2, -0.5, 0.8, -1.2, 0.3, 1.5, -0.7];
export const ARMS = 20;
const GLOBAL_DIM = 4;
const NOISE = 3;

/** @param {number} seed */
function makeEnv(seed) {
  return new StationaryStochasticPerArmEnvironment({
    globalContextSamplingFn: { kind: 'gaussian', dim: GLOBAL_DIM },
    armContextSamplingFn: { kind: 'uniform', dim: THETA.length - GLOBAL_DIM, low: -1, high: 1 },
    maxNumActions: ARMS,
    rewardFn: { kind: 'linear', theta: THETA, noiseStd: NOISE },
    seed,
  });
}

/**
 * Cumulative regret after each step for a policy `choose(env) → action`.
 * @param {number} steps
 * @param {number} seed
 * @param {(env: import('../pkg/compgym.js').StationaryStochasticPerArmEnvironment) => Int32Array} choose
 * @param {(reward: any) => void} [learn] given each step's reward
 */
function regretCurve(steps, seed, choose, learn) {
  const env = makeEnv(seed);
  env.reset();
  const curve = new Float64Array(steps);
  let total = 0;
  for (let t = 0; t < steps; t++) {
    const best = env.optimalExpectedRewards()[0];
    const action = choose(env);
    total += best - env.expectedRewards(action)[0];
    const ts = env.step(action);
    learn?.(ts.reward);
    curve[t] = total;
  }
  env.free();
  return curve;
}

/**
 * `{linucb, random}`: cumulative regret curves over `steps` steps.
 * @param {{ steps: number, seed: number }} job
 */
export function banditJob({ steps, seed }) {
  const agent = new LinUcb(THETA.length);
  const linucb = regretCurve(
    steps,
    seed,
    (env) => agent.act(env),
    (reward) => agent.learn(reward),
  );
  agent.free();
  const rng = new Rng(seed + 1);
  const random = regretCurve(steps, seed, () => Int32Array.of(Number(rng.integers(0, ARMS))));
  rng.free();
  return { linucb, random };
}
