// Memory: a million reset/step/fork/close cycles through the built package
// leave the wasm memory exactly as large as it was after a warm-up, so
// nothing an episode allocates outlives it (sessions, forks, JS wrappers).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { make, wasmMemoryBytes } from '../../pkg/node.js';

const BENCHMARKS = ['power-mod', 'fib-iter', 'ssa-loop', 'tak'].map((b) => `benchmark://suite-v0/${b}`);
const CYCLES = 1_000_000;

test(`${CYCLES.toLocaleString('en')} reset/step/fork/close cycles do not grow wasm memory`, () => {
  const env = make('bril-ic-v0', { benchmark: BENCHMARKS[0], rewardSpace: 'IrInstructionCount' });
  const n = env.actionSpace.n;
  const cycle = (benchmark, first, second) => {
    env.reset({ benchmark });
    env.step(first);
    const fork = env.fork();
    fork.step(second);
    fork.close();
    fork.free();
    env.close();
  };
  // The warm-up plays every cycle there is once, so everything the compiler
  // remembers about these benchmarks (the states two passes lead to) is there.
  for (const benchmark of BENCHMARKS) {
    for (let first = 0; first < n; first++) {
      for (let second = 0; second < n; second++) cycle(benchmark, first, second);
    }
  }
  const warm = wasmMemoryBytes();
  let seed = 1;
  const next = (k) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return (seed >>> 8) % k;
  };
  const start = performance.now();
  for (let i = 0; i < CYCLES; i++) cycle(BENCHMARKS[next(BENCHMARKS.length)], next(n), next(n));
  const seconds = (performance.now() - start) / 1000;
  console.log(`${CYCLES} cycles in ${seconds.toFixed(1)} s; wasm memory ${warm} bytes`);
  assert.equal(wasmMemoryBytes(), warm);
  env.free();
});
