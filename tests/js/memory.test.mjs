// Memory: a million reset/step/fork/close cycles through the built package
// leave the wasm memory exactly as large as it was after a warm-up, so
// nothing an episode allocates outlives it (sessions, forks, JS wrappers).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { make, wasmMemoryBytes } from '../../pkg/node.js';

// Small programs and cheap passes keep a million cycles well under a minute.
const BENCHMARKS = ['fib-iter', 'fact-tail', 'ssa-loop', 'tak'].map((b) => `benchmark://suite-v0/${b}`);
const WARM_UP = 10_000;
const CYCLES = 1_000_000;

test(`${CYCLES.toLocaleString('en')} reset/step/fork/close cycles do not grow wasm memory`, () => {
  const env = make('bril-v0', { benchmark: BENCHMARKS[0] });
  const [deadFunctions, tailCall] = env.commandlineToActions('-dead-functions -tail-call');
  const cycle = (i) => {
    env.reset({ benchmark: BENCHMARKS[i % BENCHMARKS.length] });
    env.step(deadFunctions);
    const fork = env.fork();
    fork.step(tailCall);
    fork.close();
    fork.free();
    env.close();
  };
  for (let i = 0; i < WARM_UP; i++) cycle(i);
  const warm = wasmMemoryBytes();
  const start = performance.now();
  for (let i = 0; i < CYCLES; i++) cycle(i);
  const seconds = (performance.now() - start) / 1000;
  console.log(`${CYCLES} cycles in ${seconds.toFixed(1)} s; wasm memory ${warm} bytes`);
  assert.equal(wasmMemoryBytes(), warm);
  env.free();
});
