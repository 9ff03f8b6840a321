// Vector environment throughput in Node, in one run: aggregate steps per
// second of `bril-autophase-ic-v0` episodes (Autophase observations, random
// actions, 20-step episodes over the suite) for one environment stepped
// alone, a SyncVectorEnv, and an AsyncVectorEnv whose environments are
// shared by 1, 2 and 4 worker threads. Each figure is the best of 3 rounds
// (the rounds interleave the configurations), and the load average is
// printed before and after: on a shared machine, say so beside the numbers.
//
//   make bench-vector        (or: node bench/vector.mjs [seconds per measure] [environments])
import { cpus, loadavg } from 'node:os';
import * as gym from '../pkg/gym/node.js';

const seconds = Number(process.argv[2] ?? 1);
const numEnvs = Number(process.argv[3] ?? 8);
const ROUNDS = 3;
const ID = 'bril-autophase-ic-v0';
const OPTIONS = { dataset: 'benchmark://suite-v0', maxEpisodeSteps: 20 };

/** Steps per second of one environment, resetting when an episode ends. */
function single() {
  const env = gym.make(ID, OPTIONS);
  env.reset({ seed: 0 });
  let steps = 0;
  const start = performance.now();
  const end = start + seconds * 1000;
  while (performance.now() < end) {
    for (let i = 0; i < 100; i++) {
      const [, , terminated, truncated] = env.step(env.actionSpace.sample());
      if (terminated || truncated) env.reset();
    }
    steps += 100;
  }
  const rate = steps / ((performance.now() - start) / 1000);
  env.close();
  return rate;
}

/** Aggregate steps per second of a vector environment (autoreset keeps it going). */
async function vector(envs) {
  await envs.reset({ seed: 0 });
  envs.actionSpace.seed(0);
  for (let i = 0; i < 20; i++) await envs.step(envs.actionSpace.sample()); // warm up
  let steps = 0;
  const start = performance.now();
  const end = start + seconds * 1000;
  while (performance.now() < end) {
    await envs.step(envs.actionSpace.sample());
    steps += envs.numEnvs;
  }
  return steps / ((performance.now() - start) / 1000);
}

const specs = new Array(numEnvs).fill({ id: ID, options: OPTIONS });
const configurations = [
  ['one environment, no vector', 1, '-', () => single()],
  [`SyncVectorEnv`, numEnvs, 'main thread', () => vector(new gym.SyncVectorEnv(specs))],
  ...[1, 2, 4].map((workers) => [
    'AsyncVectorEnv',
    numEnvs,
    workers,
    async () => {
      const envs = new gym.AsyncVectorEnv(specs, { workers });
      try {
        return await vector(envs);
      } finally {
        await envs.close();
      }
    },
  ]),
];

const loadBefore = loadavg();
single(); // warm up: V8 optimises the hot wasm and JS first
const best = new Array(configurations.length).fill(0);
for (let round = 0; round < ROUNDS; round++) {
  for (const [i, [, , , run]] of configurations.entries()) best[i] = Math.max(best[i], await run());
}
const loadAfter = loadavg();

const fmt = (x) => Math.round(x).toLocaleString('en');
console.log(
  `${ID}, ${OPTIONS.maxEpisodeSteps}-step episodes over the suite, random actions; Node ${process.version}, ` +
    `${cpus().length} cores; best of ${ROUNDS} rounds of ${seconds} s\n` +
    `load average before ${loadBefore.map((x) => x.toFixed(2)).join(' ')}, after ${loadAfter.map((x) => x.toFixed(2)).join(' ')}` +
    (Math.max(loadBefore[0], loadAfter[0]) > cpus().length / 2 ? ' (the machine was busy: numbers are noisy)' : '') +
    '\n',
);
console.log('| | environments | workers | steps/s (all environments) | ÷ one environment |');
console.log('|---|---:|---:|---:|---:|');
configurations.forEach(([name, envs, workers], i) => {
  console.log(`| ${name} | ${envs} | ${workers} | ${fmt(best[i])} | ${(best[i] / best[0]).toFixed(2)} |`);
});
