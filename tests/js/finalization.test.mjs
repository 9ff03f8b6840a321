// Finalisation: objects nothing holds are freed by the garbage collector
// (the glue registers each in a FinalizationRegistry), so a program that
// never calls free() still runs in bounded memory; and one freed by hand is
// not freed again when it is collected.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { make, wasmLiveBytes } from '../../pkg/node.js';

setFlagsFromString('--expose-gc');
/** @type {() => void} */
const gc = runInNewContext('gc');

const BENCHMARK = 'benchmark://suite-v0/power-mod';

/** Collects garbage until `finalized()` reaches `count` (our registry's
 * callbacks, queued by the same collections as the glue's), then lets the
 * glue's callbacks run too. */
async function collect(count, finalized) {
  for (let turn = 0; turn < 200 && finalized() < count; turn++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  assert.equal(finalized(), count, 'every dropped object was finalised');
  await new Promise((resolve) => setTimeout(resolve, 5));
}

/**
 * Rounds of 400 stepped environments and 400 forks left to the collector,
 * half of them freed by hand first (when `freeHalf`); the wasm memory live
 * after two rounds and after five more.
 * @param {boolean} freeHalf
 */
async function rounds(freeHalf) {
  let finalized = 0;
  const ours = new FinalizationRegistry(() => (finalized += 1));
  // Made in a function of their own, so no local of the caller keeps the last one.
  const garbage = () => {
    for (let i = 0; i < 400; i++) {
      const env = make('bril-ic-v0', { benchmark: BENCHMARK });
      env.reset();
      env.step(i % env.actionSpace.n);
      const fork = env.fork();
      fork.step(0);
      ours.register(env, 0);
      ours.register(fork, 0);
      if (freeHalf && i % 2 === 0) {
        fork.free();
        env.close();
        env.free();
      }
    }
  };
  const round = async () => {
    const before = finalized;
    garbage();
    await collect(before + 800, () => finalized);
  };
  await round();
  await round();
  const settled = wasmLiveBytes();
  for (let i = 0; i < 5; i++) await round();
  return [settled, wasmLiveBytes()];
}

test('objects the garbage collector takes free their wasm memory', async () => {
  // Without their finalisation, the memory would grow by megabytes a round.
  const [settled, after] = await rounds(false);
  assert.equal(after, settled);
});

test('objects freed by hand and then collected are freed once', async () => {
  const [settled, after] = await rounds(true);
  assert.equal(after, settled);
  // A pointer freed twice would corrupt the allocator: every object made
  // after it must still be whole.
  const env = make('bril-ic-v0', { benchmark: BENCHMARK });
  env.reset();
  const start = env.observation.get('IrInstructionCount');
  const forks = Array.from({ length: 200 }, () => env.fork());
  for (const fork of forks) {
    assert.equal(fork.observation.get('IrInstructionCount'), start);
    fork.free();
  }
});
