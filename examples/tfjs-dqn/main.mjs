// Trains the DQN and compares its greedy episodes with the masked random
// policy and the best single pass, on every program of suite-v0:
//   node examples/tfjs-dqn/main.mjs [--seed N] [--steps N]
// (after scripts/build.sh, with node_modules/compgym linked to pkg/ as
// tests/js/tfjs-dqn.test.mjs does).
import { benchmarksOf, bestSinglePass, randomReturn } from './baselines.mjs';
import { greedyReturn, trainDqn } from './dqn.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const id = 'bril-autophase-ic-v0';
const episodeLength = 10;
const seed = arg('seed', 1);
const steps = arg('steps', 1500);
const benchmarks = benchmarksOf(id, 'benchmark://suite-v0');
const model = await trainDqn({ id, episodeLength, seed, steps, log: console.log });
const rows = [
  ['DQN (greedy, masked)', greedyReturn(model, { id, benchmarks, episodeLength })],
  ['random (uniform over allowed)', randomReturn({ id, benchmarks, length: episodeLength, seed })],
];
const best = bestSinglePass({ id, benchmarks, length: episodeLength });
rows.push([`best single pass (${best.pass})`, best.meanReturn]);
console.log(`| policy | mean return over ${benchmarks.length} programs (1.0 = -Oz) |\n|---|---:|`);
for (const [name, value] of rows) console.log(`| ${name} | ${value.toFixed(3)} |`);
