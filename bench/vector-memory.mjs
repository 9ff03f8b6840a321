// A SyncVectorEnv on new programs over time: steps per second and the wasm
// memory in use every 5 seconds. Every episode is on a new generated program,
// so what the environments remember of past programs is all they hold
// (docs/benchmarks.md, "Programs reset once are not kept").
//
//   node bench/vector-memory.mjs [environments (8)] [seconds (30)] [dataset (generator://random-v0)]
import * as gym from '../pkg/gym/node.js';
import { wasmLiveBytes } from '../pkg/node.js';

const numEnvs = Number(process.argv[2] ?? 8);
const seconds = Number(process.argv[3] ?? 30);
const dataset = process.argv[4] ?? 'generator://random-v0';
const spec = { id: 'bril-autophase-ic-v0', options: { dataset, maxEpisodeSteps: 20 } };
const envs = new gym.SyncVectorEnv(new Array(numEnvs).fill(spec));
await envs.reset({ seed: 0 });
envs.actionSpace.seed(0);

const mib = (bytes) => (bytes / 2 ** 20).toFixed(0);
console.log(`${numEnvs} environments, ${dataset}, Autophase, 20-step episodes, random actions`);
console.log('| seconds | steps/s | live MiB | peak MiB |\n|---:|---:|---:|---:|');
const start = performance.now();
let windowStart = start;
let steps = 0;
let peak = 0;
while (performance.now() - start < seconds * 1000) {
  await envs.step(envs.actionSpace.sample());
  steps += numEnvs;
  peak = Math.max(peak, wasmLiveBytes());
  const now = performance.now();
  if (now - windowStart >= 5000) {
    const rate = Math.round(steps / ((now - windowStart) / 1000)).toLocaleString('en');
    console.log(`| ${((now - start) / 1000).toFixed(0)} | ${rate} | ${mib(wasmLiveBytes())} | ${mib(peak)} |`);
    windowStart = now;
    steps = 0;
  }
}
await envs.close();
