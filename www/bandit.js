// The bandit panel: LinUCB against a uniformly random policy on tf_agents'
// per-arm stochastic bandit with a linear reward; cumulative regret plotted.
import { StationaryStochasticPerArmEnvironment, LinUcb } from './pkg/index.js';
import { describe } from './format.js';

const THETA = [1, -1, 0.5, 2, -0.5];

function makeEnv(seed) {
  return new StationaryStochasticPerArmEnvironment({
    globalContextSamplingFn: { kind: 'gaussian', dim: 2 },
    armContextSamplingFn: { kind: 'uniform', dim: 3, low: -1, high: 1 },
    maxNumActions: 6,
    rewardFn: { kind: 'linear', theta: THETA, noiseStd: 0.1 },
    seed,
  });
}

/** Cumulative regret after each step for a policy `choose(env) -> action`. */
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

function plot(canvas, curves) {
  const ctx = canvas.getContext('2d');
  const { width, height } = canvas;
  ctx.clearRect(0, 0, width, height);
  const max = Math.max(...curves.map(({ curve }) => curve[curve.length - 1]), 1e-9);
  for (const { curve, color } of curves) {
    ctx.strokeStyle = color;
    ctx.lineWidth = 2;
    ctx.beginPath();
    curve.forEach((y, t) => {
      const px = (t / (curve.length - 1)) * (width - 10) + 5;
      const py = height - 5 - (y / max) * (height - 10);
      t === 0 ? ctx.moveTo(px, py) : ctx.lineTo(px, py);
    });
    ctx.stroke();
  }
}

export function wireBandit($) {
  $('bandit-run').addEventListener('click', () => {
    try {
      const steps = Math.max(10, Math.min(20000, Number($('bandit-steps').value) || 1000));
      const seed = 3;
      const agent = new LinUcb(THETA.length);
      const linucb = regretCurve(steps, seed, (env) => agent.act(env), (reward) => agent.learn(reward));
      agent.free();
      let state = 12345;
      const random = regretCurve(steps, seed, () => {
        state = (state * 1103515245 + 12345) % 2147483648;
        return state % 6;
      });
      plot($('bandit-canvas'), [
        { curve: random, color: '#a4161a' },
        { curve: linucb, color: '#1d3557' },
      ]);
      const last = (c) => c[c.length - 1].toFixed(1);
      $('bandit-result').textContent =
        `after ${steps} steps: LinUCB regret ${last(linucb)}, random regret ${last(random)}`;
      $('bandit-result').dataset.linucb = last(linucb);
      $('bandit-result').dataset.random = last(random);
    } catch (error) {
      $('bandit-result').textContent = describe(error);
    }
  });
}
