// Hostile use of the built package from Node, as a user would meet it: the
// rows of the hardening issue, objects used after free() or never made by
// the package, calls re-entered from callbacks and Proxy traps. Each is an
// Error with one of the package's names, and the next valid call works.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as api from '../../pkg/node.js';

const FIB = 'benchmark://suite-v0/fib-iter';

/** Asserts that `f` throws an Error named `name` whose message matches `pattern`. */
function throwsNamed(f, name, pattern = /./) {
  assert.throws(f, (e) => {
    assert.ok(e instanceof Error, `not an Error: ${e}`);
    assert.equal(e.name, name, e.message);
    assert.match(e.message, pattern);
    return true;
  });
}

/** A valid call or two: the instance is alive. */
function stillWorks() {
  const space = api.Space.box({ low: 0, high: 1, shape: [3] });
  assert.ok(space.contains(space.sample()));
  space.free();
  const env = api.make('bril-ic-v0', { benchmark: FIB });
  env.reset();
  assert.equal(typeof env.step(0).reward, 'number');
  env.free();
}

test('a Box sample past the byte budget is a LimitError at once', () => {
  // At once: refused before anything is allocated, so the wasm memory does
  // not grow by the 800 MB asked for (counted, not timed).
  const before = api.wasmMemoryBytes();
  throwsNamed(() => api.Space.box({ low: 0, high: 1, shape: [50_000_000], dtype: 'float32' }).sample(), 'LimitError', /268435456/);
  assert.ok(api.wasmMemoryBytes() - before < 2 ** 20, `the wasm memory grew by ${api.wasmMemoryBytes() - before} bytes`);
  stillWorks();
});

test('spaceFromJSON of a SpaceSequence nested 100,000 deep is a LimitError', () => {
  let description = { type: 'Discrete', name: 'd', n: 2 };
  for (let i = 0; i < 100_000; i++) description = { type: 'SpaceSequence', name: 's', space: description };
  throwsNamed(() => api.spaceFromJSON(description), 'LimitError', /nested more than 128 levels/);
  throwsNamed(() => api.Space.fromJSON(description), 'LimitError');
  stillWorks();
});

test('values nested past the limits, cycles, huge strings and BigInts are typed errors', () => {
  let deep = [1];
  for (let i = 0; i < 100_000; i++) deep = [deep];
  const service = new api.Service();
  throwsNamed(() => service.call('StartSession', { benchmark: { uri: FIB }, deep }), 'LimitError');
  const cyclic = { type: 'Tuple', name: 't' };
  cyclic.spaces = [cyclic];
  throwsNamed(() => api.Space.fromJSON(cyclic), 'ValueError', /contains itself/);
  throwsNamed(() => api.Space.fromJSON('x'.repeat(2 ** 28 / 3 + 1)), 'LimitError', /UTF-16 units/);
  throwsNamed(() => api.Space.discrete(2n ** 100000n), 'OverflowError');
  service.free();
  stillWorks();
});

test('throwing getters, revoked Proxies and lying lengths are typed errors', () => {
  const revoked = Proxy.revocable({}, {});
  revoked.revoke();
  throwsNamed(() => api.make('bril-v0', revoked.proxy), 'TypeError');
  throwsNamed(() => api.make('bril-v0', { get benchmark() { throw new Error('boom'); } }), 'TypeError', /boom/);
  const huge = new Proxy([], { get: (t, k) => (k === 'length' ? 2 ** 32 - 1 : 0) });
  const tuple = api.Space.tuple([api.Space.discrete(2)], {});
  assert.equal(tuple.contains(huge), false);
  throwsNamed(() => tuple.flatten(huge), 'LimitError', /4294967295 items/);
  stillWorks();
});

test('wrong argument types are TypeErrors naming the argument, whatever their valueOf does', () => {
  const hostile = { valueOf() { throw new Error('valueOf'); }, toString() { throw new Error('toString'); } };
  throwsNamed(() => api.canonicalDtype(hostile), 'TypeError', /name must be a string/);
  throwsNamed(() => api.make(hostile), 'TypeError', /id must be a string/);
  throwsNamed(() => new api.Rng(1).uniform(0n, 1), 'TypeError', /low must be a number/);
  throwsNamed(() => api.Space.discrete(3).sampleBatch(-1), 'ValueError', /n must be an integer/);
  throwsNamed(() => api.Space.box({ low: 0, high: 1, shape: [2] }).equals({}), 'TypeError', /Space/);
  stillWorks();
});

test('a detached buffer is not a member and cannot be read', () => {
  const data = new Float32Array(4);
  structuredClone(data.buffer, { transfer: [data.buffer] });
  const box = api.Space.box({ low: 0, high: 1, shape: [4] });
  assert.equal(box.contains(data), false);
  // Its length reads 0 once detached.
  throwsNamed(() => box.flatten(data), 'ValueError', /got 0/);
  stillWorks();
});

test('an object used after free() is a ValueError; free() twice is a no-op', () => {
  const space = api.Space.discrete(3);
  const other = api.Space.discrete(3);
  space.free();
  space.free();
  throwsNamed(() => space.sample(), 'ValueError', /freed/);
  throwsNamed(() => space.n, 'ValueError', /freed/);
  throwsNamed(() => other.equals(space), 'ValueError', /freed/);
  const env = api.make('bril-v0', { benchmark: FIB });
  env.free();
  throwsNamed(() => env.reset(), 'ValueError', /freed/);
  assert.ok(other.contains(other.sample()));
  stillWorks();
});

test('objects the package did not make, and free() through a Proxy, are TypeErrors', () => {
  throwsNamed(() => Object.create(api.Space.prototype).sample(), 'TypeError', /not a Space made by compgym/);
  const space = api.Space.discrete(3);
  throwsNamed(() => new Proxy(space, {}).free(), 'TypeError', /Proxy/);
  assert.ok(space.contains(space.sample()), 'the space itself is untouched');
  stillWorks();
});

test('re-entering a busy object from a Proxy trap is a ServiceError, and the outer call goes on', () => {
  const space = api.Space.tuple([api.Space.discrete(3)], {});
  let inner;
  const value = new Proxy([1], {
    get(target, key, receiver) {
      try {
        space.sample();
      } catch (error) {
        inner = error;
      }
      return Reflect.get(target, key, receiver);
    },
  });
  assert.equal(space.contains(value), true);
  assert.equal(inner?.name, 'ServiceError', inner?.message);
  assert.match(inner.message, /busy/);
  assert.ok(space.contains(space.sample()));

  const env = api.make('bril-ic-v0', { benchmark: FIB });
  env.reset();
  let seen;
  env.reward.addSpace({
    name: 'Reentrant',
    observationSpaces: ['IrInstructionCount'],
    reset() {},
    update() {
      try {
        env.step(0);
      } catch (error) {
        seen = error;
      }
      return 1;
    },
  });
  env.rewardSpace = 'Reentrant';
  assert.equal(env.step(0).reward, 1);
  assert.equal(seen?.name, 'ServiceError', seen?.message);
  env.free();
  stillWorks();
});

test('free() inside a callback of a call on the same object frees it when the call returns', () => {
  const env = api.make('bril-ic-v0', { benchmark: FIB });
  env.reset();
  const view = env.observation;
  view.addDerivedSpace('Freeing', 'IrInstructionCount', (count) => {
    env.free();
    return count;
  });
  assert.equal(typeof view.get('Freeing'), 'number');
  throwsNamed(() => env.step(0), 'ValueError', /freed/);
  stillWorks();
});

test('a callback that throws or returns garbage is a typed error naming it', () => {
  const env = api.make('bril-ic-v0', { benchmark: FIB });
  env.reset();
  env.observation.addDerivedSpace('Throws', 'IrInstructionCount', () => {
    throw 42;
  });
  throwsNamed(() => env.observation.get('Throws'), 'ValueError');
  env.observation.addDerivedSpace('Garbage', 'IrInstructionCount', () => Symbol('s'), {
    space: { type: 'Scalar', name: 's', dtype: 'int64' },
  });
  throwsNamed(() => env.observation.get('Garbage'), 'TypeError');
  assert.equal(typeof env.step(0).reward, 'number');
  env.free();
  stillWorks();
});
