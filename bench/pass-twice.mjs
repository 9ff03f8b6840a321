// How often a pass changes a program again right after it changed it: every
// pass on every program of suite-v0, applied once and, where that changed
// the program, once more. What frame skip (RepeatAction) can add for a
// compiler (docs/gym.md).
//
//   scripts/build.sh && node bench/pass-twice.mjs
import * as gym from '../pkg/gym/node.js';

const probe = gym.make('bril-ic-v0', { dataset: 'benchmark://suite-v0' });
const flags = probe.actionSpace.flags;
const programs = new Set();
probe.reset({ seed: 0 });
for (let i = 0; i < 500; i++) programs.add(probe.reset()[1].benchmark);

let once = 0;
const again = {};
for (const benchmark of [...programs].sort()) {
  for (const [action, flag] of flags.entries()) {
    const env = gym.make('bril-ic-v0', { benchmark });
    env.reset();
    if (!env.step(action)[4].actionHadNoEffect) {
      once += 1;
      if (!env.step(action)[4].actionHadNoEffect) again[flag] = (again[flag] ?? 0) + 1;
    }
    env.close();
  }
}
const twice = Object.values(again).reduce((a, b) => a + b, 0);
console.log(`${programs.size} programs × ${flags.length} passes: ${once} changed the program, ${twice} of them changed it again at once`, again);
