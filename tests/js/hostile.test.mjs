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

test('loadPretrained and loadDataset: options other than { base } are a TypeError of their own, as a rejected promise', async () => {
  const revoked = Proxy.revocable({}, {});
  revoked.revoke();
  const cases = [
    [42, /options must be an object/],
    [{ baseUrl: 'x' }, /unknown option "baseUrl"/],
    [{ get base() { throw new RangeError('boom'); } }, /could not be read: boom/],
    [revoked.proxy, /could not be read/],
  ];
  for (const [options, pattern] of cases) {
    for (const [caller, load] of [
      ['loadPretrained', () => api.loadPretrained(options)],
      ['loadDataset', () => api.loadDataset('large-v0', options)],
    ]) {
      const promise = load(); // never throws: the error is the promise's
      await assert.rejects(promise, (e) => {
        assert.equal(e.name, 'TypeError', e.message);
        assert.match(e.message, new RegExp(`^${caller}: `));
        assert.match(e.message, pattern);
        return true;
      });
    }
  }
  assert.deepEqual(await api.loadPretrained(null), ['size', 'runtime']);
  assert.equal(await api.loadDataset('large-v0', {}), 'large-v0');
  stillWorks();
});

test('wrong argument types are TypeErrors naming the argument, whatever their valueOf does', () => {
  const hostile = { valueOf() { throw new Error('valueOf'); }, toString() { throw new Error('toString'); } };
  throwsNamed(() => api.canonicalDtype(hostile), 'TypeError', /name must be a string/);
  throwsNamed(() => api.make(hostile), 'TypeError', /id must be a string/);
  throwsNamed(() => new api.Rng(1).uniform(0n, 1), 'TypeError', /low must be a number/);
  throwsNamed(() => api.Space.discrete(3).sampleBatch(-1), 'ValueError', /n must be an integer/);
  throwsNamed(() => api.Space.box({ low: 0, high: 1, shape: [2] }).equals({}), 'TypeError', /Space/);
  for (const name of [hostile, {}, 2147483647, Symbol('s'), undefined]) {
    throwsNamed(() => api.splitOf(name), 'TypeError', /name must be a string/);
  }
  assert.equal(api.splitOf('suite-v0/fib-iter'), api.splitOf('benchmark://suite-v0/fib-iter'));
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

test('a method called on an object of another class is a TypeError before any wasm code runs', () => {
  const rng = new api.Rng(1);
  const before = rng.state;
  throwsNamed(() => api.Space.prototype.toJSON.call(rng), 'TypeError', /this is not a Space made by compgym: it is a Rng/);
  throwsNamed(() => api.Space.prototype.seed.call(rng, 5), 'TypeError', /not a Space/);
  assert.deepEqual(rng.state, before, 'nothing was written into the Rng');
  const env = api.make('bril-ic-v0', { benchmark: FIB });
  env.reset();
  throwsNamed(() => api.Space.prototype.sample.call(env), 'TypeError', /it is a CompilerEnv/);
  throwsNamed(() => api.Policy.prototype.toJson.call(env), 'TypeError', /not a Policy/);
  throwsNamed(() => Reflect.get(api.Rng.prototype, 'state', env), 'TypeError', /not a Rng/);
  assert.equal(typeof env.step(0).reward, 'number', 'the environment is not left busy');
  // Class arguments as well: another class, a forged pointer, a Proxy that answers one.
  const space = api.Space.discrete(3);
  throwsNamed(() => space.equals(rng), 'TypeError', /other is not a Space made by compgym: it is a Rng/);
  throwsNamed(() => space.equals({ __wbg_ptr: 8 }), 'TypeError', /other is not a Space/);
  throwsNamed(() => space.equals(Object.setPrototypeOf({ __wbg_ptr: 8 }, api.Space.prototype)), 'TypeError', /not a Space/);
  const lying = new Proxy(space, { get: (t, k) => (k === '__wbg_ptr' ? 8 : Reflect.get(t, k)) });
  throwsNamed(() => space.equals(lying), 'TypeError', /Proxy/);
  throwsNamed(() => lying.sample(), 'TypeError', /Proxy/);
  throwsNamed(() => api.Space.batched(Object.setPrototypeOf({ __wbg_ptr: 8 }, api.Space.prototype), [2]), 'TypeError', /space is not a Space/);
  throwsNamed(() => space.sampleWith(space), 'TypeError', /rng is not a Rng made by compgym: it is a Space/);
  throwsNamed(() => new api.LinUcb(3, 1, 1).act(env), 'TypeError', /env is not a StationaryStochasticPerArmEnvironment/);
  const revoked = Proxy.revocable(space, {});
  revoked.revoke();
  throwsNamed(() => space.equals(revoked.proxy), 'TypeError', /other is not a Space made by compgym/);
  throwsNamed(() => api.Space.prototype.free.call(rng), 'TypeError', /not a Space/);
  assert.ok(space.contains(space.sample()) && typeof rng.random() === 'number');
  env.free();
  stillWorks();
});

test('__wbg_ptr and __destroy_into_raw cannot be written, and shadowing them reaches nothing: no aliasing, no double free', () => {
  const a = api.Space.discrete(3);
  const b = api.Space.box({ low: 0, high: 1, shape: [2] });
  const pointerOfA = a.__wbg_ptr;
  throwsNamed(() => {
    b.__wbg_ptr = pointerOfA;
  }, 'TypeError', /read-only/);
  assert.throws(() => {
    api.Space.prototype.__destroy_into_raw = () => 8;
  }, TypeError);
  assert.throws(() => Object.defineProperty(api.Space.prototype, '__wbg_ptr', { value: 8 }), TypeError);
  // Own properties in their place: the glue takes b's pointer from its brand, never from them.
  Object.defineProperty(b, '__wbg_ptr', { value: pointerOfA });
  Object.defineProperty(b, '__destroy_into_raw', { value: () => pointerOfA });
  assert.equal(b.toJSON().type, 'Box');
  throwsNamed(() => b.n, 'TypeError', /not for Box/);
  // A changed prototype changes nothing either.
  Object.setPrototypeOf(b, { __wbg_ptr: pointerOfA });
  assert.equal(api.Space.prototype.toJSON.call(b).type, 'Box');
  Object.setPrototypeOf(b, api.Space.prototype);
  assert.equal(a.n, 3);
  b.free();
  b.free();
  throwsNamed(() => b.sample(), 'ValueError', /freed/);
  assert.equal(a.n, 3, 'freeing b freed nothing of a');
  assert.ok(a.contains(a.sample()));
  // An object made from the prototype, given a pointer, is still not one the module made.
  const forged = Object.create(api.Space.prototype);
  throwsNamed(() => {
    forged.__wbg_ptr = pointerOfA;
  }, 'TypeError', /read-only/);
  Object.defineProperty(forged, '__wbg_ptr', { value: pointerOfA });
  throwsNamed(() => forged.sample(), 'TypeError', /not a Space made by compgym/);
  throwsNamed(() => forged.free(), 'TypeError', /not a Space made by compgym/);
  throwsNamed(() => a.equals(forged), 'TypeError', /not a Space made by compgym/);
  assert.ok(a.contains(a.sample()));
  // Many frees of shadowed objects, then the memory is used again: nothing was freed twice.
  for (let i = 0; i < 200; i++) {
    const c = api.Space.box({ low: 0, high: 1, shape: [4] });
    Object.defineProperty(c, '__destroy_into_raw', { value: () => pointerOfA });
    c.free();
  }
  assert.equal(a.n, 3);
  assert.equal(api.Space.discrete(5).n, 5);
  stillWorks();
});

test('the raw classes, their __wrap and the wasm exports are out of reach', async () => {
  for (const klass of [api.Space, api.Rng, api.CompilerEnv]) {
    assert.equal(klass.__wrap, undefined);
    assert.equal('__wrap' in klass, false);
    assert.equal(Object.getOwnPropertyNames(klass).includes('__wrap'), false);
    assert.equal(Object.getOwnPropertyDescriptor(klass, '__wrap'), undefined);
    assert.equal(klass.prototype.constructor, klass);
    assert.equal(Reflect.set(klass, '__wrap', () => ({})), false);
  }
  const space = api.Space.discrete(2);
  assert.equal(space.constructor, api.Space);
  assert.ok(space instanceof api.Space);
  assert.equal(api.initSync({ module: new Uint8Array(0) }), undefined, 'initSync returns no wasm exports');
  assert.equal(await api.default(), undefined, 'init returns no wasm exports');
  // Classes without a constructor make nothing with `new`; subclasses of those with one work.
  throwsNamed(() => new api.Space(), 'TypeError', /factories/);
  class Seeded extends api.Rng {
    twice() {
      return [this.random(), this.random()];
    }
  }
  const rng = new Seeded(7);
  assert.ok(rng instanceof Seeded && rng instanceof api.Rng);
  const plain = new api.Rng(7);
  assert.deepEqual(rng.twice(), [plain.random(), plain.random()]);
  stillWorks();
});

test('a sparse array is a TypeError found from its length, before its holes are read', () => {
  throwsNamed(() => api.Space.box({ low: new Array(4e6), high: 1 }), 'TypeError', /low is a sparse array: 4000000 long/);
  const holey = [0, 1];
  holey[9999] = 2;
  throwsNamed(() => api.Space.box({ low: 0, high: holey }), 'TypeError', /sparse array: 10000 long with at most 3 items/);
  stillWorks();
});

test('integers past 2^53 round-trip exactly: BigInt in JS, strings in JSON text', () => {
  const n = 2n ** 63n - 1n;
  const discrete = api.Space.discrete(n);
  assert.equal(discrete.n, n);
  assert.equal(discrete.toJSON().n, '9223372036854775807');
  assert.ok(api.Space.fromJSON(discrete.toJSON()).equals(discrete));
  assert.ok(api.Space.fromJSON(JSON.stringify(discrete)).equals(discrete));
  assert.equal(api.Space.discrete(3).n, 3, 'a number where a number holds it');
  for (const low of [0, 0n]) {
    const box = api.Space.box({ low, high: 2n ** 53n + 1n, shape: [2], dtype: 'int64' });
    assert.equal(box.toJSON().high, '9007199254740993');
    assert.equal(box.toJSON().low, 0);
    assert.ok(api.Space.fromJSON(JSON.parse(JSON.stringify(box))).equals(box));
    assert.ok(box.contains(new BigInt64Array([2n ** 53n + 1n, 0n])));
    assert.ok(!box.contains(new BigInt64Array([2n ** 53n + 2n, 0n])));
    const widest = api.Space.box({ low, high: 2n ** 63n - 1n, shape: [1], dtype: 'int64' });
    assert.ok(api.Space.fromJSON(widest.toJSON()).equals(widest));
  }
  stillWorks();
});

test('an episode stops at 2^20 steps with a LimitError, and reset starts another', () => {
  const env = api.make('bril-v0', { benchmark: FIB });
  env.reset();
  const chunk = new Array(1 << 16).fill(0);
  for (let i = 0; i < 15; i++) assert.equal(env.multistep(chunk).truncated, false);
  env.multistep(chunk.slice(1));
  assert.equal(env.step(0).truncated, true, 'the step that reaches the cap truncates');
  throwsNamed(() => env.step(0), 'LimitError', /at most 1048576 actions/);
  throwsNamed(() => env.multistep([0, 0]), 'LimitError', /reset\(\)/);
  env.reset();
  assert.equal(env.step(0).truncated, false);
  assert.equal(env.state.commandline, '-dce');
  env.free();
  stillWorks();
});
