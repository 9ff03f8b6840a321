import * as gym from '../../pkg/gym/node.js';
import { wasmMemoryBytes } from '../../pkg/node.js';
const n = Number(process.argv[2] ?? 1);
const options = { dataset: 'generator://random-v0', maxEpisodeSteps: 20 };
const envs = new gym.SyncVectorEnv(new Array(n).fill({ id: 'bril-autophase-ic-v0', options }));
await envs.reset({ seed: 0 }); envs.actionSpace.seed(0);
const run = async (secs) => { let steps = 0; const start = performance.now(); while (performance.now() - start < secs * 1000) { await envs.step(envs.actionSpace.sample()); steps += n; }
  return steps / ((performance.now() - start) / 1000); };
for (let i = 0; i < Number(process.argv[3] ?? 6); i++) console.log(Math.round(await run(3)), 'steps/s', (wasmMemoryBytes() / 2 ** 20).toFixed(0), 'MiB');
