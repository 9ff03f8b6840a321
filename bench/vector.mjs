// Vector environment throughput in Node, in one run: aggregate steps per
// second of `bril-autophase-ic-v0` episodes (Autophase observations, random
// actions, 20-step episodes) for one environment stepped alone, a
// SyncVectorEnv, and an AsyncVectorEnv whose environments are shared by 1,
// 2 and 4 worker threads, on two workloads:
//
// - "one program": every episode on the median suite program. The Bril
//   compiler remembers the transitions it has seen, so after a warm-up most
//   steps run no pass: a step costs microseconds, and messages to workers
//   cost more than the work they carry.
// - "new programs": every episode on a new generated program
//   (`generator://random-v0`), so every pass, feature and baseline runs: a
//   step costs milliseconds, and workers run them on every core.
//
// Each configuration warms up first (each worker has its own compiler and
// its own cache), each figure is the best of 3 rounds (rounds interleave
// the configurations), and the load average is printed before and after:
// on a shared machine the numbers are noisy, and the output says so.
//
//   make bench-vector        (or: node bench/vector.mjs [seconds per measure] [environments])
import { cpus, loadavg } from 'node:os';
import * as gym from '../pkg/gym/node.js';

const seconds = Number(process.argv[2] ?? 1.5);
const numEnvs = Number(process.argv[3] ?? 8);
const ROUNDS = 3;
const ID = 'bril-autophase-ic-v0';
// [name, make options, warm-up seconds]: the compiler's cache of one program fills in about a second.
const WORKLOADS = [
  ['one program', { benchmark: 'benchmark://suite-v0/power-mod', maxEpisodeSteps: 20 }, 1.5],
  ['new programs', { dataset: 'generator://random-v0', maxEpisodeSteps: 20 }, 0.3],
];

/** Steps per second of `step` (which returns how many steps it took) over `seconds`, after a warm-up. */
async function rate(step, warmUp) {
  for (const end = performance.now() + warmUp * 1000; performance.now() < end; ) await step();
  let steps = 0;
  const start = performance.now();
  for (const end = start + seconds * 1000; performance.now() < end; ) steps += await step();
  return steps / ((performance.now() - start) / 1000);
}

function single(options, warmUp) {
  const env = gym.make(ID, options);
  env.reset({ seed: 0 });
  const step = () => {
    const [, , terminated, truncated] = env.step(env.actionSpace.sample());
    if (terminated || truncated) env.reset();
    return 1;
  };
  return rate(step, warmUp).finally(() => env.close());
}

async function vector(envs, warmUp) {
  try {
    await envs.reset({ seed: 0 });
    envs.actionSpace.seed(0);
    return await rate(async () => {
      await envs.step(envs.actionSpace.sample());
      return envs.numEnvs;
    }, warmUp);
  } finally {
    await envs.close();
  }
}

const configurations = (options, warmUp) => {
  const specs = new Array(numEnvs).fill({ id: ID, options });
  return [
    ['one environment, no vector', 1, '-', () => single(options, warmUp)],
    ['SyncVectorEnv', numEnvs, 'main thread', () => vector(new gym.SyncVectorEnv(specs), warmUp)],
    ...[1, 2, 4].map((workers) => [
      'AsyncVectorEnv',
      numEnvs,
      workers,
      () => vector(new gym.AsyncVectorEnv(specs, { workers }), warmUp),
    ]),
  ];
};

const loadBefore = loadavg();
const results = [];
for (const [workload, options, warmUp] of WORKLOADS) {
  const runs = configurations(options, warmUp);
  const best = new Array(runs.length).fill(0);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, [, , , run]] of runs.entries()) best[i] = Math.max(best[i], await run());
  }
  results.push([workload, runs, best]);
}
const loadAfter = loadavg();

const fmt = (x) => Math.round(x).toLocaleString('en');
const busy = Math.max(loadBefore[0], loadAfter[0]) > cpus().length / 2;
console.log(
  `${ID}, 20-step episodes, random actions; Node ${process.version}, ${cpus().length} cores; ` +
    `best of ${ROUNDS} rounds of ${seconds} s after a warm-up\n` +
    `load average before ${loadBefore.map((x) => x.toFixed(2)).join(' ')}, after ${loadAfter.map((x) => x.toFixed(2)).join(' ')}` +
    (busy ? ' (the machine was busy: the numbers are noisy)' : '') +
    '\n',
);
console.log('| workload | | environments | workers | steps/s (all environments) | ÷ one environment |');
console.log('|---|---|---:|---:|---:|---:|');
for (const [workload, runs, best] of results) {
  runs.forEach(([name, envs, workers], i) => {
    console.log(`| ${workload} | ${name} | ${envs} | ${workers} | ${fmt(best[i])} | ${(best[i] / best[0]).toFixed(2)} |`);
  });
}
