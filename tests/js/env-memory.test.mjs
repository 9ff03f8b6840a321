// Live environments through the built package: an idle one (made, not in an
// episode) takes a few kilobytes of wasm memory, so 100,000 fit, and making
// more costs the same however many are alive. Counted in bytes of wasm
// memory grown, an upper bound on what they hold (tests/env_memory.rs
// counts the same natively with the allocator).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { make, wasmMemoryBytes } from '../../pkg/node.js';

const IDLE_BUDGET = 16 * 1024;
const N = 20_000;

/** Makes `n` environments, keeping them; the wasm memory grown per environment. */
function grownEach(n, kept) {
  const before = wasmMemoryBytes();
  for (let i = 0; i < n; i++) kept.push(make('bril-ic-v0', { benchmark: 'benchmark://suite-v0/fib-iter' }));
  return (wasmMemoryBytes() - before) / n;
}

test(`${N.toLocaleString('en')} idle environments fit in ${IDLE_BUDGET / 1024} KiB each, and making more costs no more`, () => {
  const kept = [];
  grownEach(100, kept); // the first one builds what all share
  const first = grownEach(N, kept);
  const second = grownEach(N, kept);
  console.log(`wasm memory grown per idle environment: ${first.toFixed(0)} B, then ${second.toFixed(0)} B with ${N} alive`);
  assert.ok(first <= IDLE_BUDGET, `${first} bytes per idle environment`);
  assert.ok(second <= IDLE_BUDGET, `${second} bytes per idle environment with ${N} alive`);
  // They all work, each on its own.
  const [a, b] = [kept[5], kept[kept.length - 1]];
  a.reset();
  a.step(0);
  assert.equal(a.actions.length, 1);
  assert.equal(b.inEpisode, false);
  for (const env of kept) env.free();
  // Freed, their memory is made again without growing.
  const after = wasmMemoryBytes();
  const again = [];
  grownEach(N, again);
  assert.equal(wasmMemoryBytes(), after, 'environments made after others were freed reuse their memory');
  for (const env of again) env.free();
});
