// Every member of every class, called on a forged `this`, and every class
// argument given a forgery: each is refused by guard.js before any wasm code
// runs, as a TypeError (or a ValueError for a freed object) in the package's
// words. Neither the glue's plain Errors ("null pointer passed to rust",
// `_assertClass`'s "expected instance of") nor a native TypeError from a
// revoked Proxy may escape, and the instance keeps working.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as api from '../../pkg/node.js';

const CLASSES = Object.entries(api).filter(([, v]) => typeof v === 'function' && typeof v.prototype?.free === 'function');

/** Asserts that `f` is refused by guard.js. */
function refused(f, what) {
  let threw = false;
  try {
    f();
  } catch (e) {
    threw = true;
    assert.ok(e instanceof Error, `${what}: not an Error: ${e}`);
    assert.equal(Object.getPrototypeOf(e), Error.prototype, `${what}: a native ${e.name}: ${e.message}`);
    assert.ok(['TypeError', 'ValueError'].includes(e.name), `${what}: ${e.name}: ${e.message}`);
    assert.doesNotMatch(e.message, /null pointer passed to rust|expected instance of|revoked/, what);
    assert.match(e.message, /made by compgym|was freed|freed object/, `${what}: ${e.message}`);
  }
  assert.ok(threw, `${what}: nothing was thrown`);
}

/** Objects that are not a live object of any class but `except`'s, each named. */
function forgeries(except) {
  const space = api.Space.discrete(3);
  const freedSpace = api.Space.discrete(2);
  freedSpace.free();
  const revoked = Proxy.revocable(api.Space.discrete(4), {});
  revoked.revoke();
  const revokedPlain = Proxy.revocable({}, {});
  revokedPlain.revoke();
  const rng = new api.Rng(7n);
  const all = [
    ['a revoked Proxy of a Space', revoked.proxy],
    ['a revoked Proxy of an object', revokedPlain.proxy],
    ['a Proxy of a Space', new Proxy(space, {})],
    ['a Proxy answering __wbg_ptr', new Proxy(space, { get: (t, k) => (k === '__wbg_ptr' ? 8 : Reflect.get(t, k)) })],
    ['{__wbg_ptr: 8}', { __wbg_ptr: 8 }],
    ['{__wbg_ptr: 0}', { __wbg_ptr: 0 }],
    ['a freed Space', freedSpace],
    ['an object made from Space.prototype', Object.create(api.Space.prototype)],
  ];
  if (except !== api.Space) all.push(['a Space', space]);
  if (except !== api.Rng) all.push(['an Rng', rng]);
  return all;
}

/** Every method, getter and setter of `klass.prototype` (but free), as [name, call(this, ...args)]. */
function members(klass) {
  const out = [];
  for (const key of Object.getOwnPropertyNames(klass.prototype)) {
    if (key === 'constructor' || key === 'free' || key.startsWith('__')) continue;
    const d = Object.getOwnPropertyDescriptor(klass.prototype, key);
    if (typeof d.value === 'function') out.push([key, (self, ...args) => d.value.apply(self, args)]);
    if (d.get) out.push([`get ${key}`, (self) => d.get.call(self)]);
    if (d.set) out.push([`set ${key}`, (self) => d.set.call(self, 1)]);
  }
  return out;
}

/** A valid call or two: the instance is alive. */
function stillWorks() {
  const space = api.Space.box({ low: 0, high: 1, shape: [3] });
  assert.ok(space.contains(space.sample()));
  space.free();
  const env = api.make('bril-ic-v0', { benchmark: 'benchmark://suite-v0/fib-iter' });
  env.reset();
  assert.equal(typeof env.step(0).reward, 'number');
  env.free();
}

test('every member of every class refuses a forged, foreign, revoked or freed this', () => {
  assert.ok(CLASSES.length >= 15, `only ${CLASSES.length} classes found`);
  let calls = 0;
  for (const [name, klass] of CLASSES) {
    for (const [member, call] of members(klass)) {
      for (const [forged, self] of forgeries(klass)) {
        refused(() => call(self, 0, 0), `${name}.prototype.${member} on ${forged}`);
        calls++;
      }
      for (const self of [undefined, null, 42, 'x', klass.prototype]) {
        refused(() => call(self), `${name}.prototype.${member} on ${self === klass.prototype ? 'its prototype' : String(self)}`);
      }
    }
  }
  assert.ok(calls > 500, `only ${calls} calls made`);
  stillWorks();
});

test('a method of one class called on another class is a TypeError (Policy.prototype.toJson.call(env))', () => {
  const env = api.make('bril-v0');
  const space = api.Space.discrete(3);
  refused(() => api.Policy.prototype.toJson.call(env), 'Policy.prototype.toJson on a CompilerEnv');
  refused(() => api.CompilerEnv.prototype.reset.call(space), 'CompilerEnv.prototype.reset on a Space');
  refused(() => api.Space.prototype.sample.call(env), 'Space.prototype.sample on a CompilerEnv');
  env.reset();
  assert.equal(env.actions.length, 0, 'the env is not busy');
  env.free();
  space.free();
  stillWorks();
});

test('every class argument refuses forgeries, revoked Proxies included, before any wasm code runs', () => {
  const space = api.Space.discrete(5);
  const sized = api.Space.box({ low: 0, high: 1, shape: [2] });
  const env = api.make('bril-v0');
  const cases = [
    ['Space.batched(space)', (x) => api.Space.batched(x, [2])],
    ['Space.spaceSequence(space)', (x) => api.Space.spaceSequence(x)],
    ['Space.permutation(scalarRange)', (x) => api.Space.permutation(x)],
    ['space.equals(other)', (x) => space.equals(x)],
    ['space.sampleWith(rng)', (x) => sized.sampleWith(x)],
    ['env.observation.addSpace(spec)', (x) => env.observation.addSpace(x)],
  ];
  for (const [what, call] of cases) {
    for (const [forged, value] of forgeries(null)) {
      // The real class of the argument is fine; skip the forgery that is one.
      if ((forged === 'a Space' && !what.includes('rng') && !what.includes('spec')) || (forged === 'an Rng' && what.includes('rng'))) continue;
      refused(() => call(value), `${what} given ${forged}`);
    }
  }
  assert.ok(space.equals(space) && sized.contains(sized.sampleWith(new api.Rng(1n))[1]));
  for (const x of [space, sized, env]) x.free();
  stillWorks();
});
