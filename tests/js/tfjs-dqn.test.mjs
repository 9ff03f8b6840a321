// A real client: examples/tfjs-dqn, a DQN written with TensorFlow.js (pure
// JS, CPU backend) against makeVec's ML-ready vector environments and their
// action masks, trained for a fixed step budget with seed 1. Its greedy
// episodes must beat the masked random policy and the best single pass
// repeated, on the same programs (suite-v0) and episode length.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, lstatSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';

const example = new URL('../../examples/tfjs-dqn/', import.meta.url);
const modules = new URL('node_modules/', example);
assert.ok(
  existsSync(new URL('@tensorflow/tfjs/package.json', modules)),
  'TensorFlow.js is missing: run scripts/setup.sh test (it installs examples/tfjs-dqn from its lock file)',
);
// The example imports compgym/gym as a user would: point it at the built package.
const link = new URL('compgym', modules).pathname;
mkdirSync(modules, { recursive: true });
if (existsSync(link) || lstatSync(link, { throwIfNoEntry: false })) rmSync(link, { recursive: true, force: true });
symlinkSync(new URL('../../pkg/', import.meta.url).pathname, link, 'dir');

const { benchmarksOf, bestSinglePass, randomReturn } = await import(new URL('baselines.mjs', example));
const { greedyReturn, trainDqn } = await import(new URL('dqn.mjs', example));

const ID = 'bril-autophase-ic-v0';
const EPISODE = 10;
const SEED = 1;
const STEPS = 1500;

test('the tfjs DQN beats the masked random policy and the best single pass', async () => {
  const benchmarks = benchmarksOf(ID, 'benchmark://suite-v0');
  const model = await trainDqn({ id: ID, episodeLength: EPISODE, seed: SEED, steps: STEPS });
  const dqn = greedyReturn(model, { id: ID, benchmarks, episodeLength: EPISODE });
  const random = randomReturn({ id: ID, benchmarks, length: EPISODE, seed: SEED });
  const single = bestSinglePass({ id: ID, benchmarks, length: EPISODE });
  const report = `DQN ${dqn.toFixed(3)}, random ${random.toFixed(3)}, best single pass ${single.pass} ${single.meanReturn.toFixed(3)}`;
  assert.ok(dqn > random, report);
  assert.ok(dqn > single.meanReturn, report);
  assert.equal(greedyReturn(model, { id: ID, benchmarks, episodeLength: EPISODE }), dqn, 'greedy episodes replay');
});
