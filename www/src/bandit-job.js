// The bandit's regret curves, computed in a worker: LinUCB and a uniformly
// random policy on tf_agents' stationary stochastic per-arm environment with
// a linear reward, the same seed for both.
import { StationaryStochasticPerArmEnvironment, LinUcb, Rng } from '../pkg/index.js';

export const THETA = [1, -1, 0.5, 2, -0.5];
export const ARMS = 6;

function makeEnv(seed) {
  return new StationaryStochasticPerArmEnvironment({
    globalContextSamplingFn: { kind: 'gaussian', dim: 2 },
    armContextSamplingFn: { kind: 'uniform', dim: 3, low: -1, high: 1 },
    maxNumActions: ARMS,
    rewardFn: { kind: 'linear', theta: THETA, noiseStd: 0.1 },
    seed,
  });
}

/** Cumulative regret after each step for a policy `choose(env) → action`. */
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

/** `{linucb, random}`: cumulative regret curves over `steps` steps. */
export function banditJob({ steps, seed }) {
  const agent = new LinUcb(THETA.length);
  const linucb = regretCurve(steps, seed, (env) => agent.act(env), (reward) => agent.learn(reward));
  agent.free();
  const rng = new Rng(seed + 1);
  const random = regretCurve(steps, seed, () => Int32Array.of(Number(rng.integers(0, ARMS))));
  rng.free();
  return { linucb, random };
}
