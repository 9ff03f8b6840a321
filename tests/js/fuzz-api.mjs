// A fuzzer over the public JS API of the built package (pkg/): every exported
// function, class constructor, static method, method, getter and setter,
// called with hostile values — wrong types, throwing getters, Proxies whose
// traps throw, recurse or call back into the API, NaN/Infinity/-0, BigInt
// extremes, huge sizes, deep nesting, cyclic objects, detached buffers,
// objects used after free(), callbacks that throw, return garbage or
// re-enter the object that called them — and, half the time, with valid
// arguments one part of which is made hostile.
//
// What it checks, after every call:
// - whatever is thrown is an Error whose `name` is one of `errorNames()`
//   (a TypeError thrown by JS itself, for a wrong `this`, has a name of
//   that list too), never a trap of the wasm code (`WebAssembly.RuntimeError`);
//   so is whatever a returned promise rejects with (`loadDataset`), checked
//   once the run's promises have settled;
// - so is whatever a callback saw thrown when it called back into the API;
// - after an error, the instance is alive (`version()`, a space sampled and
//   checked) and the object the call was made on still works; every 50
//   calls, and at the end, a fresh environment makes a step.
//
// Runs are seeded: the same seed makes the same calls. Usage:
//   node tests/js/fuzz-api.mjs [--minutes N | --calls N] [--seed S]
// `make fuzz-js` runs it for FUZZ_MINUTES (10) minutes; tests/js/fuzz-api.test.mjs
// runs a short run as part of `make test`.

import * as api from '../../pkg/node.js';
// What the glue reads as an object's pointer (scripts/guard-glue.mjs), not its `__wbg_ptr`.
import { guardPointer } from '../../pkg/guard.js';
import { pathToFileURL } from 'node:url';

const NAMES = new Set(api.errorNames());
const FIB = 'benchmark://suite-v0/fib-iter';

// ---- a seeded generator (xorshift128+ on BigInts would be slow; mulberry32 x2) ----

export class Rand {
  constructor(seed) {
    this.a = seed >>> 0 || 1;
    this.b = Math.imul(seed >>> 0, 2654435761) >>> 0 || 2;
  }
  u32() {
    // Two mulberry32 streams added: enough for choosing calls.
    let t = (this.a = (this.a + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    let u = (this.b = (this.b + 0x9e3779b9) >>> 0);
    u = Math.imul(u ^ (u >>> 16), u | 1);
    return (((t ^ (t >>> 14)) >>> 0) + (u >>> 0)) >>> 0;
  }
  int(n) {
    return n <= 0 ? 0 : this.u32() % n;
  }
  chance(p) {
    return this.u32() / 4294967296 < p;
  }
  pick(items) {
    return items[this.int(items.length)];
  }
}

// ---- values that fight back ----

/** Thrown by hostile values themselves, to tell their throws from the package's. */
class HostileError extends Error {
  constructor(message = 'hostile') {
    super(message);
    this.name = 'HostileError';
  }
}

/** Errors seen by callbacks that called back into the API, checked after each call. */
const innerErrors = [];

/** Calls `f` and records what it throws (for callbacks that re-enter the API). */
function probeInside(f) {
  try {
    f();
  } catch (error) {
    innerErrors.push(error);
  }
}

const lazy = (make) => {
  let value;
  let made = false;
  return () => {
    if (!made) {
      value = make();
      made = true;
    }
    return value;
  };
};

const deepArray = lazy(() => {
  let v = [1];
  for (let i = 0; i < 100_000; i++) v = [v];
  return v;
});
const deepObject = lazy(() => {
  let v = { type: 'Discrete', name: 'd', n: 2 };
  for (let i = 0; i < 100_000; i++) v = { type: 'SpaceSequence', name: 's', space: v };
  return v;
});
const longString = lazy(() => 'y'.repeat(1 << 20));
// One past the longest string the package reads (MAX_BYTES / 3 UTF-16 units).
const hugeString = lazy(() => 'z'.repeat(Math.floor(2 ** 28 / 3) + 1));
const bigTyped = lazy(() => new Float64Array(1 << 22));

function detached(make) {
  const array = make();
  structuredClone(array.buffer, { transfer: [array.buffer] });
  return array;
}

function cyclic() {
  const o = { a: 1, type: 'Tuple', name: 'c', spaces: [] };
  o.self = o;
  o.spaces.push(o);
  return o;
}

/** A Proxy over `target` with some hostile traps. */
function hostileProxy(r, target, fx) {
  const kind = r.int(6);
  if (kind === 0) return new Proxy(target, {}); // transparent
  if (kind === 1) {
    const { proxy, revoke } = Proxy.revocable(target, {});
    revoke();
    return proxy;
  }
  const throwing = () => {
    throw new HostileError('trap');
  };
  if (kind === 2) {
    return new Proxy(target, { get: throwing, ownKeys: throwing, getPrototypeOf: throwing, has: throwing });
  }
  if (kind === 3) {
    // A trap that recurses until the JS stack overflows.
    const recurse = (t, k) => recurse(t, k);
    return new Proxy(target, { get: recurse, ownKeys: recurse, getPrototypeOf: recurse });
  }
  if (kind === 4) {
    // A trap that calls back into the API, then answers.
    const call = fx.reentry(r);
    return new Proxy(target, {
      get(t, k, receiver) {
        probeInside(call);
        return Reflect.get(t, k, receiver);
      },
      ownKeys(t) {
        probeInside(call);
        return Reflect.ownKeys(t);
      },
    });
  }
  // A `length` that lies, changing on every read.
  let reads = 0;
  return new Proxy(target, {
    get(t, k, receiver) {
      if (k === 'length') return ++reads % 2 ? 3 : 2 ** 32 - 1;
      return Reflect.get(t, k, receiver);
    },
  });
}

/** A callback that misbehaves. */
function hostileFunction(r, fx) {
  const call = fx.reentry(r);
  return r.pick([
    () => {
      throw new HostileError('callback');
    },
    () => {
      throw 42;
    },
    () => {
      throw undefined;
    },
    () => NaN,
    () => 'not a number',
    () => Symbol('s'),
    () => 10n ** 30n,
    () => [1, 'two', {}],
    () => new Array(10),
    () => hostileProxy(r, [0.5, 0.5], fx),
    () => cyclic(),
    (...args) => {
      probeInside(call);
      return args.length ? 0 : [0.5];
    },
    function recurse() {
      return recurse();
    },
    async () => 1,
    (rng) => rng,
  ]);
}

const PRIMITIVES = [
  undefined,
  null,
  true,
  false,
  0,
  -0,
  1,
  -1,
  0.5,
  NaN,
  Infinity,
  -Infinity,
  2 ** 31 - 1,
  2 ** 32,
  2 ** 32 - 1,
  2 ** 53,
  2 ** 53 + 2,
  -(2 ** 53),
  1e308,
  -1e308,
  5e-324,
  0n,
  -1n,
  2n ** 63n - 1n,
  2n ** 63n,
  -(2n ** 63n),
  -(2n ** 63n) - 1n,
  2n ** 64n - 1n,
  2n ** 64n,
  2n ** 1000n,
  '',
  'a',
  '0',
  '\u0000',
  '\ud800',
  'float32',
  'int64',
  'bool',
  '-dce',
  '-lvn',
  'bril-v0',
  FIB,
  'benchmark://suite-v0/nope',
  'Autophase',
  'IrInstructionCount',
  'Ir',
  '__proto__',
  'constructor',
  'GetVersion',
  'StartSession',
  'Step',
  'NaN',
  'Infinity',
  '{"type": "Discrete", "n": 3}',
  '[[[[',
  Symbol('s'),
  Symbol.iterator,
];

/** A hostile value; `fx` supplies live objects of the package. */
export function hostile(r, fx, depth = 0) {
  switch (r.int(depth > 2 ? 2 : 12)) {
    case 0:
    case 1:
      return r.pick(PRIMITIVES);
    case 2:
      return r.pick([longString, deepArray, deepObject, bigTyped, () => 'x'.repeat(r.int(100))])();
    case 3:
      return r.chance(0.02) ? hugeString() : cyclic();
    case 4: {
      const makers = [
        () => new Float32Array([0.5, 0.25, 1]),
        () => new Float64Array(r.int(5)),
        () => new Int8Array([1, -1]),
        () => new Uint8Array([0, 1, 255]),
        () => new Uint8ClampedArray(2),
        () => new Int32Array([3]),
        () => new BigInt64Array([1n, -1n]),
        () => new BigUint64Array([2n ** 64n - 1n]),
        () => new Uint16Array(0),
        () => new Uint32Array([7]),
      ];
      const make = r.pick(makers);
      if (r.chance(0.3)) return detached(make);
      if (r.chance(0.1))
        return new (class Liar extends Float32Array {
          get length() {
            return 1e9;
          }
        })(2);
      return make();
    }
    case 5:
      return r.pick([
        () => new ArrayBuffer(4),
        () => detached(() => new Uint8Array(4)).buffer,
        () => new SharedArrayBuffer(4),
        () => new DataView(new ArrayBuffer(2)),
        () => new Date(0),
        () => /re/,
        () => new Map([[1, 2]]),
        () => new Set([1]),
        () => Promise.resolve(1),
        () => new Error('an error'),
        () => Object.create(null),
        () => Object.freeze({ a: 1 }),
        () => ({ length: 2 ** 32 - 1 }),
        () => ({
          toJSON() {
            throw new HostileError('toJSON');
          },
        }),
        () => ({
          toJSON() {
            return this;
          },
        }),
        () => ({
          valueOf() {
            throw new HostileError('valueOf');
          },
          toString() {
            throw new HostileError('toString');
          },
        }),
        () => ({
          get name() {
            throw new HostileError('getter');
          },
          get type() {
            throw new HostileError('getter');
          },
        }),
        () => [1, , 3],
        () => new Array(2 ** 32 - 1),
      ])();
    case 6:
      return hostileProxy(r, r.pick([{}, [], [1, 2], { type: 'Discrete', n: 3, name: 'd' }, new Float32Array(2)]), fx);
    case 7:
      return hostileFunction(r, fx);
    case 8:
      return fx.instance(r);
    case 9:
      return fx.freed(r);
    case 10:
      return Object.create(r.pick(fx.classes).prototype);
    default: {
      // A container of hostile values.
      const n = r.int(4);
      if (r.chance(0.5)) return Array.from({ length: n }, () => hostile(r, fx, depth + 1));
      const o = {};
      for (let i = 0; i < n; i++)
        o[r.pick(['a', 'type', 'name', 'low', 'high', 'shape', 'n', 'benchmark', 'sessionId', 'x'])] = hostile(r, fx, depth + 1);
      return o;
    }
  }
}

/** A copy of the valid value `v` with one part (or all of it) made hostile. */
export function mutate(r, fx, v, depth = 0) {
  if (depth > 4 || r.chance(0.25)) return hostile(r, fx);
  if (Array.isArray(v) && v.length) {
    const copy = v.slice();
    const i = r.int(copy.length);
    copy[i] = mutate(r, fx, copy[i], depth + 1);
    return copy;
  }
  if (v && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
    const copy = { ...v };
    const keys = Object.keys(copy);
    const action = r.int(4);
    if (action === 0 && keys.length) delete copy[r.pick(keys)];
    else if (action === 1) copy[r.pick(['bogus', '__proto__', 'constructor'])] = hostile(r, fx);
    else if (action === 2) return hostileProxy(r, copy, fx);
    else if (keys.length) {
      const k = r.pick(keys);
      copy[k] = mutate(r, fx, copy[k], depth + 1);
    }
    return copy;
  }
  return hostile(r, fx);
}

// ---- live objects of the package ----

/** Makes, keeps and frees the objects calls are made on. */
class Fixtures {
  constructor(r) {
    this.r = r;
    this.classes = Object.values(api).filter((v) => typeof v === 'function' && v.prototype && typeof v.prototype.free === 'function');
    this.live = new Map(this.classes.map((c) => [c, []]));
    this.freedOnes = [];
  }
  /** A new object of `klass` made with valid arguments (or null if that one cannot be made). */
  make(klass) {
    const r = this.r;
    const env = () => api.make(r.pick(['bril-v0', 'bril-ic-v0', 'bril-autophase-ic-v0']), { benchmark: FIB });
    const makers = {
      Space: () => api.Space.fromJSON(r.pick(SPACES)),
      Rng: () => new api.Rng(r.int(1000)),
      Service: () => new api.Service(),
      CompilerEnv: env,
      ObservationView: () => this.get(api.CompilerEnv).observation,
      RewardView: () => this.get(api.CompilerEnv).reward,
      ObservationSpaceSpec: () => this.get(api.CompilerEnv).observation.spec(r.pick(['Ir', 'Autophase', 'IrInstructionCount'])),
      StationaryStochasticPerArmEnvironment: () => new api.StationaryStochasticPerArmEnvironment(banditOptions(r, this)),
      LinUcb: () => new api.LinUcb(3, 1, 1),
      CompilerBandit: () => new api.CompilerBandit({ seed: r.int(100), batchSize: 1 + r.int(2), programs: ['fib-iter'] }),
      CompilerTimeStepEnvironment: () => new api.CompilerTimeStepEnvironment('bril-ic-v0', { benchmark: FIB, maxEpisodeSteps: 3 }),
    };
    const maker = makers[klass.name];
    if (!maker) return null;
    const made = maker();
    const list = this.live.get(klass);
    list.push(made);
    if (list.length > 4) this.retire(list.shift());
    return made;
  }
  /** A live object of `klass`, often one made before. */
  get(klass) {
    const list = this.live.get(klass);
    if (list.length && this.r.chance(0.8)) return this.r.pick(list);
    return this.make(klass) ?? list[0];
  }
  /** A live object of any class. */
  instance(r) {
    return this.get(r.pick(this.classes));
  }
  /** A freed object. */
  freed(r) {
    if (!this.freedOnes.length || r.chance(0.2)) {
      const klass = r.pick(this.classes);
      const made = this.make(klass);
      if (made) {
        this.live.set(
          klass,
          this.live.get(klass).filter((o) => o !== made),
        );
        this.retire(made);
      }
    }
    return this.freedOnes.length ? r.pick(this.freedOnes) : undefined;
  }
  retire(o) {
    o.free();
    this.freedOnes.push(o);
    if (this.freedOnes.length > 20) this.freedOnes.shift();
  }
  /**
   * Frees the package objects a call returned (alone or in an array), as a
   * careful user does: left to the garbage collector, a run of a million
   * calls that never yields to the event loop (where finalizers run) would
   * fill the wasm memory with objects nobody holds.
   */
  release(value) {
    // A result may hold the caller's own hostile values (`Rng#permutation` of an
    // array of Proxies hands them back): reading them here is the fuzzer's risk.
    let items;
    try {
      items = Array.isArray(value) ? [...value] : [value];
    } catch {
      return;
    }
    for (const v of items) {
      try {
        if (v === null || typeof v !== 'object' || typeof v.free !== 'function') continue;
        if ([...this.live.values()].some((list) => list.includes(v))) continue;
        v.free();
      } catch {
        // a hostile value, not the package's, or already freed: nothing to let go of
      }
    }
  }
  /** Frees `o` (any object, live or not) and stops handing it out as live. */
  free(o) {
    for (const [klass, list] of this.live) {
      if (list.includes(o))
        this.live.set(
          klass,
          list.filter((x) => x !== o),
        );
    }
    this.retire(o);
  }
  /** A call into the API for callbacks and traps to make re-entrantly. */
  reentry(r) {
    const targets = [
      () => this.get(api.CompilerEnv).step(0),
      () => this.get(api.CompilerEnv).reset(),
      () => this.get(api.CompilerEnv).observation.get('IrInstructionCount'),
      () => this.get(api.StationaryStochasticPerArmEnvironment).step([0]),
      () => this.get(api.StationaryStochasticPerArmEnvironment).reset(),
      () => this.get(api.Service).getVersion(),
      () => this.get(api.Rng).random(),
      () => this.get(api.Space).toJSON(),
      () => this.get(api.Space).sample(),
      () => this.get(api.Space).seed(7),
      () => this.get(api.LinUcb).theta,
      () => this.get(api.LinUcb).learn([0.5]),
      () => this.free(this.get(api.Space)),
      () => api.version(),
      () => this.free(this.get(api.CompilerEnv)),
    ];
    return r.pick(targets);
  }
}

/** Descriptions of valid spaces of every kind. */
const SPACES = [
  { type: 'Box', name: 'b', low: 0, high: 1, shape: [3], dtype: 'float32' },
  { type: 'Box', name: 'bi', low: -5, high: 5, shape: [2, 2], dtype: 'int64' },
  { type: 'Discrete', name: 'd', n: 5, start: -2 },
  { type: 'NamedDiscrete', name: 'nd', names: ['a', 'b'] },
  { type: 'Commandline', name: 'cl', flags: [{ name: 'a', flag: '-a', description: 'A' }] },
  { type: 'Scalar', name: 'si', min: 0, max: 10, dtype: 'int64' },
  { type: 'Scalar', name: 'sb', dtype: 'bool' },
  { type: 'Reward', name: 'r', min: -1, max: 1 },
  { type: 'Sequence', name: 'qs', sizeRange: [0, 4], dtype: 'str' },
  { type: 'Sequence', name: 'qb', sizeRange: [0, 4], dtype: 'bytes' },
  { type: 'Text', name: 't', maxLength: 5 },
  { type: 'Permutation', name: 'p', scalarRange: { type: 'Scalar', name: 'r', min: 1, max: 4, dtype: 'int64' } },
  { type: 'MultiDiscrete', name: 'md', nvec: [2, 3] },
  { type: 'MultiBinary', name: 'mb', shape: [3] },
  { type: 'Binary', name: 'bn', shape: [2] },
  { type: 'DynamicBox', name: 'db', low: 0, high: 9, shapeLow: [1], shapeHigh: [4], dtype: 'int32' },
  {
    type: 'Graph',
    name: 'g',
    nodeSpace: { type: 'Box', name: 'n', low: 0, high: 1, shape: [2] },
    edgeSpace: { type: 'Box', name: 'e', low: 0, high: 1, shape: [] },
    maxNodes: 4,
    maxEdges: 5,
    batchShape: [2],
  },
  {
    type: 'Dict',
    name: 'di',
    spaces: [
      ['x', { type: 'Discrete', name: 'd', n: 3 }],
      ['y', { type: 'Text', name: 't', maxLength: 3 }],
    ],
  },
  { type: 'Tuple', name: 'tu', spaces: [{ type: 'Discrete', name: 'd', n: 3 }] },
  { type: 'SpaceSequence', name: 'ss', sizeRange: [0, 3], space: { type: 'Discrete', name: 'd', n: 3 } },
  {
    type: 'Union',
    name: 'u',
    spaces: [
      { type: 'Discrete', name: 'd', n: 3 },
      { type: 'Text', name: 't', maxLength: 2 },
    ],
  },
  { type: 'Batched', name: 'bb', space: { type: 'Box', name: 'b', low: 0, high: 1, shape: [2] }, batchShape: [2] },
];

function banditOptions(r, fx) {
  const callbacks = r.chance(0.5);
  return {
    globalContextSamplingFn: callbacks ? () => [0.5, 0.25] : { kind: 'uniform', dim: 2, low: 0, high: 1 },
    armContextSamplingFn: callbacks ? () => [1] : { kind: 'uniform', dim: 1, low: 0, high: 1 },
    maxNumActions: 3,
    rewardFn: callbacks ? (x) => x[0] : { kind: 'linear', theta: [1, 1, 1], noiseStd: 0 },
    batchSize: 1 + r.int(2),
    seed: r.int(100),
  };
}

/** A `runCli` host over one program in memory; it throws for anything else. */
function cliHost() {
  const program = '@main {\n  x: int = const 4;\n  print x;\n}\n';
  const none = () => {
    throw new Error('no such file');
  };
  return {
    readFile: (path) => (path === 'p.bril' ? program : none()),
    readStdin: () => new TextEncoder().encode(program),
    writeFile: none,
    listFolder: none,
    isFolder: () => false,
    realPath: none,
    stdout: () => {},
    stderr: () => {},
  };
}

// ---- valid arguments for each member, to mutate ----

/** Valid arguments for `Class.member` / `Class#member` / `function`, or null if none are known. */
function validArgs(key, r, fx, self) {
  const space = () => fx.get(api.Space);
  const table = {
    canonicalDtype: () => ['float32'],
    compilerEnvStatesFromCsv: () => [`benchmark,reward,walltime,commandline\n${FIB},1,0.5,-dce`],
    compilerEnvStatesToCsv: () => [[{ benchmark: FIB, commandline: '-dce', walltime: 1, reward: null }], { header: false }],
    make: () => ['bril-v0', { benchmark: FIB, maxEpisodeSteps: 4 }],
    runBril: () => ['@main {\n  x: int = const 4;\n  print x;\n}\n', []],
    runCli: () => [
      r.pick([
        ['run', '-p'],
        ['verify', 'p.bril'],
        ['opt', '--passes', '-dce', '-'],
      ]),
      cliHost(),
    ],
    spaceFromJSON: () => [r.pick(SPACES)],
    validateEnvironment: () => [fx.get(api.CompilerTimeStepEnvironment), 1],
    'Space.fromJSON': () => [r.pick(SPACES)],
    'Space.fromGym': () => [{ type: 'Box', low: 0, high: 1, shape: [2], dtype: 'float32' }],
    'Space.box': () => [{ low: 0, high: 1, shape: [2] }],
    'Space.discrete': () => [4, { start: 1 }],
    'Space.namedDiscrete': () => [['a', 'b'], {}],
    'Space.commandlineSpace': () => [[{ name: 'a', flag: '-a', description: 'A' }], {}],
    'Space.scalar': () => [{ min: 0, max: 1 }],
    'Space.sequence': () => [{ sizeRange: [0, 3], dtype: 'str' }],
    'Space.spaceSequence': () => [space(), { sizeRange: [0, 2] }],
    'Space.permutation': () => [api.Space.scalar({ min: 1, max: 3, dtype: 'int64' }), {}],
    'Space.dict': () => [{ a: space(), b: space() }, { sortKeys: false }],
    'Space.tuple': () => [[space(), space()], {}],
    'Space.union': () => [[space(), space()], {}],
    'Space.reward': () => [{ name: 'r', min: 0, max: 1 }],
    'Space.multiDiscrete': () => [[2, 3], {}],
    'Space.multiBinary': () => [3, {}],
    'Space.binary': () => [[2], {}],
    'Space.dynamicBox': () => [{ low: 0, high: 1, shapeLow: [1], shapeHigh: [3] }],
    'Space.graph': () => [{ nodeSpace: api.Space.box({ low: 0, high: 1, shape: [2] }), maxNodes: 3, maxEdges: 3, batchShape: [2] }],
    'Space.text': () => [{ maxLength: 4, charset: 'ab' }],
    'Space.batched': () => [space(), [2], {}],
    'Space#contains': () => [self.sample()],
    'Space#seed': () => [r.int(10)],
    'Space#sampleWith': () => [fx.get(api.Rng)],
    'Space#sampleBatch': () => [r.int(4)],
    'Space#isBounded': () => [r.pick(['both', 'below', 'above'])],
    'Space#equals': () => [space()],
    'Space#getRepr': () => [{ abbreviate: true, includeDtype: false }],
    'Space#flatten': () => [self.sample()],
    'Space#unflatten': () => [self.flatten(self.sample())],
    'Space#clip': () => [self.sample()],
    'Space#get': () => ['a'],
    'Space#commandline': () => [[0]],
    'Space#fromCommandline': () => ['-a'],
    'Space#shapeContains': () => [[2]],
    'Space#pad': () => [self.sample()],
    'Space#unpad': () => [self.pad(self.sample()), [1]],
    'Rng.fromState': () => [new api.Rng(1).state],
    'Rng#uniform': () => [0, 1],
    'Rng#integers': () => [0, 10],
    'Service#call': () => ['GetVersion', {}],
    'Service#startSession': () => [{ benchmark: { uri: FIB } }],
    'Service#step': () => [{ sessionId: 0, action: [{ int64Value: 0 }] }],
    'Service#addBenchmark': () => [
      { benchmark: [{ uri: 'benchmark://x/y', program: { contents: new TextEncoder().encode('@main {\n}\n') } }] },
    ],
    'CompilerEnv#reset': () => [{ benchmark: FIB }],
    'CompilerEnv#step': () => r.pick([[r.int(3)], [r.int(3), { observationSpaces: ['Autophase'], rewardSpaces: ['IrInstructionCount'] }]]),
    'CompilerEnv#multistep': () => [[0, 1], { observationSpaces: ['IrInstructionCount'], rewardSpaces: ['IrInstructionCount'] }],
    'CompilerEnv#apply': () => [{ benchmark: FIB, commandline: '-dce' }],
    'CompilerEnv#validate': () => [],
    'CompilerEnv#sendParam': () => ['bril.fuel', '1000'],
    'CompilerEnv#commandlineToActions': () => ['-dce'],
    'CompilerEnv#randomBenchmark': () => [r.int(10)],
    'CompilerEnv#addBenchmark': () => ['benchmark://user/x', '@main {\n}\n'],
    'CompilerEnv#benchmark=': () => [FIB],
    'CompilerEnv#observationSpace=': () => [r.pick(['Ir', null])],
    'CompilerEnv#rewardSpace=': () => [r.pick(['IrInstructionCount', null])],
    'CompilerEnv#maxEpisodeSteps=': () => [3],
    'ObservationView#get': () => [r.pick(['Ir', 'IrInstructionCount', 'Autophase'])],
    'ObservationView#spec': () => ['Ir'],
    'ObservationView#addDerivedSpace': () => [
      'Twice',
      'IrInstructionCount',
      hostileFunction(r, fx),
      { space: { type: 'Scalar', name: 's', dtype: 'int64' } },
    ],
    'ObservationView#addSpace': () => [fx.get(api.ObservationSpaceSpec)],
    'ObservationSpaceSpec#makeDerivedSpace': () => ['D', (v) => v, {}],
    'RewardView#get': () => ['IrInstructionCount'],
    'RewardView#addSpace': () => [
      { name: 'R', observationSpaces: ['IrInstructionCount'], update: hostileFunction(r, fx), reset: hostileFunction(r, fx) },
    ],
    'StationaryStochasticPerArmEnvironment#step': () => [[0]],
    'StationaryStochasticPerArmEnvironment#expectedRewards': () => [[0]],
    'StationaryStochasticPerArmEnvironment#validate': () => [1, 0],
    'StationaryStochasticPerArmEnvironment#setState': () => [self.getState()],
    'StationaryStochasticPerArmEnvironment#seed': () => [1],
    StationaryStochasticPerArmEnvironment: () => [{ ...banditOptions(r, fx), rewardFn: hostileFunction(r, fx) }],
    LinUcb: () => [3, 1, 1],
    'LinUcb#act': () => [fx.get(api.StationaryStochasticPerArmEnvironment)],
    'LinUcb#learn': () => [[0.5]],
    CompilerBandit: () => [{ seed: 1, batchSize: 1, programs: ['fib-iter'] }],
    'CompilerBandit#step': () => [[0]],
    'CompilerBandit#validate': () => [1, 0],
    CompilerTimeStepEnvironment: () => ['bril-ic-v0', { benchmark: FIB, maxEpisodeSteps: 2 }],
    'CompilerTimeStepEnvironment#step': () => [0],
    'CompilerTimeStepEnvironment#validate': () => [1, 0],
    'CompilerTimeStepEnvironment#sendParam': () => ['bril.fuel', '100'],
    Rng: () => [1],
    Service: () => ['bril'],
  };
  const make = table[key];
  return make ? make() : null;
}

/** Numbers that make a call take minutes (episodes of `validate`) are kept small. */
const SLOW = new Set(['validate', 'validateEnvironment']);

// ---- the targets ----

/**
 * Calls that work until a budget the caller chooses runs out (an agent's
 * run, training, the leaderboard): with hostile budgets (none, or hours)
 * one call would take the whole run. Their options are read, and fuzzed,
 * by the constructors and by `SearchAgent#step` and `PolicyTrainer#trainBatch`.
 */
const UNBOUNDED = new Set(['leaderboard', 'Leaderboard#runChunk', 'SearchAgent#run', 'SearchAgent#runChunk', 'PolicyTrainer#trainFor']);

function targets() {
  const out = [];
  for (const [name, value] of Object.entries(api)) {
    if (typeof value !== 'function' || name === 'default' || name === 'initSync') continue;
    const isClass = value.prototype && typeof value.prototype.free === 'function';
    if (!isClass) {
      out.push({ key: name, kind: 'function', f: value });
      continue;
    }
    out.push({ key: name, kind: 'constructor', klass: value });
    for (const member of Object.getOwnPropertyNames(value)) {
      if (['length', 'name', 'prototype', '__wrap'].includes(member)) continue;
      if (typeof value[member] === 'function') out.push({ key: `${name}.${member}`, kind: 'static', klass: value, member });
    }
    for (const member of Object.getOwnPropertyNames(value.prototype)) {
      if (['constructor', '__destroy_into_raw', '__wbg_ptr', 'free'].includes(member)) continue;
      const d = Object.getOwnPropertyDescriptor(value.prototype, member);
      if (typeof d.value === 'function') out.push({ key: `${name}#${member}`, kind: 'method', klass: value, member });
      if (d.get) out.push({ key: `${name}#${member}`, kind: 'getter', klass: value, member });
      if (d.set) out.push({ key: `${name}#${member}=`, kind: 'setter', klass: value, member });
    }
    out.push({ key: `${name}#free`, kind: 'free', klass: value });
  }
  // Not members: tampering with a live object's pointer, and long episodes.
  for (const klass of Object.values(api).filter((v) => typeof v === 'function' && typeof v.prototype?.free === 'function')) {
    out.push({ key: `${klass.name}(tamper)`, kind: 'tamper', klass });
  }
  out.push({ key: 'CompilerEnv(long episode)', kind: 'long-episode', klass: api.CompilerEnv });
  return out.filter((t) => !UNBOUNDED.has(t.key));
}

// ---- forged, foreign, aliased and freed objects ----

/** The pointer of a live object of the package, as the glue takes it (to forge aliases of). */
function pointerOf(o) {
  try {
    return guardPointer(o);
  } catch {
    return 8;
  }
}

/**
 * An object that is not a live `klass` made by the package but may look
 * like one: another class's object, a revoked Proxy, `{__wbg_ptr}` with a
 * number or another live object's pointer (an alias), an object built from
 * the prototype with a pointer of its own, a Proxy answering another
 * object's pointer, or a freed object. guard.js must refuse each before
 * any wasm code runs.
 */
export function forged(r, fx, klass) {
  const other = fx.instance(r);
  const same = klass ? fx.get(klass) : other;
  switch (r.int(8)) {
    case 0:
      return other;
    case 1: {
      const { proxy, revoke } = Proxy.revocable(same ?? {}, {});
      revoke();
      return proxy;
    }
    case 2:
      return { __wbg_ptr: r.pick([0, 1, 8, -1, 2 ** 32, pointerOf(same ?? other)]) };
    case 3: {
      const o = Object.create((klass ?? api.Space).prototype);
      try {
        Object.defineProperty(o, '__wbg_ptr', { value: pointerOf(same ?? other) });
      } catch {
        // the prototype's accessor refused it: the object stays unbranded
      }
      return o;
    }
    case 4:
      return new Proxy(same ?? other ?? {}, { get: (t, k) => (k === '__wbg_ptr' ? pointerOf(other) : Reflect.get(t, k)) });
    case 5:
      return Object.setPrototypeOf({ __wbg_ptr: pointerOf(same ?? other) }, (klass ?? api.Space).prototype);
    default:
      return fx.freed(r) ?? other;
  }
}

/**
 * Tries to put another pointer into a live object: writes, redefinitions,
 * deletions and prototype changes of `__wbg_ptr` and `__destroy_into_raw`.
 * Each is refused (a TypeError) or has no effect: the glue still takes the
 * object's own pointer and the object keeps working (checked by the caller's probe).
 */
function tamper(r, fx, o) {
  // Another live object's pointer, taken without making one (which could retire `o`).
  const alias = pointerOf(r.pick([...fx.live.values()].flat().filter((x) => x !== o)) ?? {});
  const before = guardPointer(o);
  const proto = Object.getPrototypeOf(o);
  const attempts = [
    () => {
      o.__wbg_ptr = alias;
    },
    () => Object.defineProperty(o, '__wbg_ptr', { value: alias }),
    () => Object.defineProperty(o, '__wbg_ptr', { get: () => alias }),
    () => delete o.__wbg_ptr,
    () => {
      o.__destroy_into_raw = () => alias;
    },
    () => Object.setPrototypeOf(o, { __wbg_ptr: alias }),
    () => Object.setPrototypeOf(o, null),
  ];
  try {
    r.pick(attempts)();
  } finally {
    // A prototype change may succeed (objects stay extensible): undo it so the fixture keeps its methods.
    if (Object.getPrototypeOf(o) !== proto) Object.setPrototypeOf(o, proto);
    if (guardPointer(o) !== before) throw new Error(`tampering changed the pointer of a live object from ${before} to ${guardPointer(o)}`);
  }
}

/** The cap of one episode (`MAX_EPISODE_STEPS`). */
const EPISODE_CAP = 2 ** 20;

/**
 * A long episode on a live environment: up to a thousand actions (a
 * fixture may be on a large benchmark, where each costs a pass), and now and
 * then all the way to the cap, where a step is a LimitError and `reset()`
 * starts afresh.
 */
function longEpisode(r, fx) {
  const env = fx.get(api.CompilerEnv);
  env.reset();
  const n = env.actionSpace.n;
  // To the cap costs about a million steps (tens of seconds on a busy
  // machine): rare, so a long run goes there a few times and a short one
  // seldom.
  if (!r.chance(1 / 256)) {
    const actions = Array.from({ length: 1 + r.int(1024) }, () => r.int(n));
    env.multistep(actions);
    return;
  }
  // To the cap on a fresh environment: a fixture may have JS callbacks as
  // reward or observation spaces, which a million steps would each call.
  const fresh = api.make('bril-v0', { benchmark: FIB });
  try {
    fresh.reset();
    // One action over and over: after its first steps the program stops
    // changing and each step is a known transition, so the million steps
    // cost the counting, not a million passes.
    const chunk = new Array(1 << 16).fill(r.int(n));
    for (let done = 0; done < EPISODE_CAP; done += chunk.length) fresh.multistep(chunk);
    let capped = false;
    try {
      fresh.step(0);
    } catch (e) {
      if (e?.name !== 'LimitError') throw e;
      capped = true;
    }
    if (!capped) throw new Error(`an episode went past ${EPISODE_CAP} actions`);
    fresh.reset();
    fresh.step(0);
  } finally {
    fresh.free();
  }
}

// ---- checks ----

function describe(value) {
  try {
    if (typeof value === 'bigint')
      return `${value > 10n ** 30n || value < -(10n ** 30n) ? 'a huge ' : ''}${value.toString().slice(0, 40)}n`;
    if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}... (${value.length})` : value);
    if (typeof value === 'symbol' || typeof value === 'function') return String(value).slice(0, 40);
    if (value && typeof value === 'object') return Object.prototype.toString.call(value);
    return String(value);
  } catch {
    return '(undescribable)';
  }
}

/** Why `error` is not an acceptable error, or null. */
function badError(error) {
  if (error instanceof WebAssembly.RuntimeError) return `the wasm code trapped: ${error.message}`;
  if (!(error instanceof Error)) return `threw a non-Error: ${describe(error)}`;
  if (!NAMES.has(error.name)) return `threw ${error.name}: ${error.message.slice(0, 200)}`;
  return null;
}

/** Valid calls on an object of each class, to see it still works after an error. */
const PROBES = {
  Space: (s) => {
    if (!s.contains(s.sample())) throw new Error(`${s} does not contain its own sample`);
  },
  Rng: (g) => g.random(),
  Service: (s) => s.getVersion(),
  CompilerEnv: (e) => e.observation.spaces.length && e.actionSpace.n,
  ObservationView: (v) => v.spaces.length,
  RewardView: (v) => v.spaces.length,
  ObservationSpaceSpec: (s) => s.space.toJSON(),
  StationaryStochasticPerArmEnvironment: (b) => b.globalDim,
  LinUcb: (l) => l.theta.length,
  CompilerBandit: (b) => b.numArms,
  CompilerTimeStepEnvironment: (t) => t.timeStepSpec(),
};

function aliveProbe() {
  api.version();
  const s = api.Space.fromJSON({ type: 'Dict', name: 'p', spaces: [['a', { type: 'Box', name: 'b', low: 0, high: 1, shape: [4] }]] });
  const ok = s.contains(s.sample());
  s.free();
  if (!ok) throw new Error('a fresh space does not contain its own sample');
}

function freshEnvProbe() {
  const e = api.make('bril-ic-v0', { benchmark: FIB });
  try {
    e.reset();
    const step = e.step(0);
    if (typeof step.reward !== 'number') throw new Error('a fresh environment steps without a reward');
  } finally {
    e.free();
  }
}

// ---- the run ----

/**
 * Fuzzes the API from `seed` until `calls` calls were made or `deadline`
 * (a `performance.now()` time) passed. Returns the counts and the failures,
 * each with what is needed to replay it.
 */
export async function fuzz({ seed, calls = Infinity, deadline = Infinity, maxFailures = 20 }) {
  const r = new Rand(seed);
  const fx = new Fixtures(r);
  const all = targets();
  const failures = [];
  const thrown = new Map();
  let made = 0;
  const fail = (call, target, args, problem) => {
    failures.push({ seed, call, target: target.key, args: args.map(describe), problem });
  };
  /** The promises functions returned, each settled to its rejection's problem or null. */
  const settling = [];
  while (made < calls && performance.now() < deadline && failures.length < maxFailures) {
    const call = made++;
    const target = r.pick(all);
    const klass = target.klass;
    let self;
    let args = [];
    innerErrors.length = 0;
    try {
      if (target.kind === 'method' || target.kind === 'getter' || target.kind === 'setter' || target.kind === 'free') {
        const which = r.int(12);
        self =
          which < 7
            ? fx.get(klass)
            : which < 8
              ? fx.freed(r)
              : which < 9
                ? new Proxy(fx.get(klass), {})
                : which < 10
                  ? Object.create(klass.prototype)
                  : forged(r, fx, klass);
        if (self === undefined || self === null) continue;
      }
      if (target.kind === 'tamper') {
        self = fx.get(klass);
        if (self === undefined || self === null) continue;
      }
      const member = target.kind === 'setter' ? `${target.key}` : target.key;
      let valid = null;
      try {
        valid = r.chance(0.5) ? validArgs(member, r, fx, self) : null;
      } catch {
        valid = null; // a valid template needs a working `self`; this one is not
      }
      const arity =
        target.kind === 'constructor'
          ? klass.length
          : target.kind === 'function'
            ? target.f.length
            : target.kind === 'method' || target.kind === 'static'
              ? (target.kind === 'static' ? klass[target.member] : klass.prototype[target.member]).length
              : 1;
      if (valid) {
        args = valid.slice();
        if (r.chance(0.7) && args.length) {
          const i = r.int(args.length);
          args[i] = mutate(r, fx, args[i]);
        }
      } else {
        args = Array.from({ length: r.int(arity + 2) }, () => hostile(r, fx));
      }
      if (args.length && r.chance(0.1)) {
        const i = r.int(args.length);
        let wanted;
        try {
          wanted = args[i] && typeof args[i] === 'object' ? fx.classes.find((c) => args[i] instanceof c) : undefined;
        } catch {
          wanted = undefined; // a revoked Proxy
        }
        args[i] = forged(r, fx, wanted);
      }
      if (SLOW.has(target.member ?? target.key)) {
        args = args.map((a) => (typeof a === 'number' && Math.abs(a) > 3 ? 2 : a));
      }
      switch (target.kind) {
        case 'function': {
          const result = target.f(...args);
          if (result instanceof Promise) {
            const described = args.map(describe); // now: a rejection may come after the arguments changed
            settling.push(
              result.then(
                () => null,
                (error) => {
                  const problem = badError(error);
                  return problem && { seed, call, target: target.key, args: described, problem: `its promise ${problem}` };
                },
              ),
            );
          } else fx.release(result);
          break;
        }
        case 'constructor':
          fx.release(new klass(...args));
          break;
        case 'static':
          fx.release(klass[target.member](...args));
          break;
        case 'method':
          fx.release(klass.prototype[target.member].apply(self, args));
          break;
        case 'getter':
          fx.release(Reflect.get(klass.prototype, target.member, self));
          break;
        case 'setter':
          Reflect.set(klass.prototype, target.member, args[0], self);
          break;
        case 'free':
          fx.free(self);
          break;
        case 'tamper':
          tamper(r, fx, self);
          break;
        case 'long-episode':
          longEpisode(r, fx);
          break;
      }
    } catch (error) {
      const problem = badError(error);
      if (problem) fail(call, target, args, problem);
      const name = error instanceof Error ? error.name : typeof error;
      thrown.set(name, (thrown.get(name) ?? 0) + 1);
      try {
        aliveProbe();
      } catch (e) {
        fail(call, target, args, `the instance is not alive after the error: ${e?.name}: ${e?.message}`);
        break;
      }
      const probe = PROBES[klass?.name];
      const live = self && fx.live.get(klass)?.includes(self);
      if (probe && live) {
        try {
          probe(self);
        } catch (e) {
          fail(call, target, args, `the same ${klass.name} fails a valid call after the error: ${e?.name}: ${e?.message}`);
        }
      }
    }
    for (const inner of innerErrors) {
      const problem = badError(inner);
      if (problem) fail(call, target, args, `a callback saw ${problem}`);
    }
    if (call % 50 === 49) {
      try {
        freshEnvProbe();
      } catch (e) {
        fail(call, target, args, `a fresh environment fails: ${e?.name}: ${e?.message}`);
        break;
      }
    }
  }
  try {
    aliveProbe();
    freshEnvProbe();
  } catch (e) {
    failures.push({
      seed,
      call: made,
      target: '(end)',
      args: [],
      problem: `the instance is not alive at the end: ${e?.name}: ${e?.message}`,
    });
  }
  for (const failure of await Promise.all(settling)) if (failure) failures.push(failure);
  return { seed, calls: made, failures, thrown: Object.fromEntries([...thrown].sort((a, b) => b[1] - a[1])) };
}

function report(result, seconds) {
  console.log(
    `fuzz-api: seed ${result.seed}: ${result.calls} calls in ${seconds.toFixed(0)} s, ${result.failures.length} failures; wasm memory ${(api.wasmMemoryBytes() / 2 ** 20).toFixed(0)} MiB; errors thrown: ${JSON.stringify(result.thrown)}`,
  );
  for (const f of result.failures) {
    console.log(`  FAIL seed ${f.seed} call ${f.call} ${f.target}(${f.args.join(', ')}): ${f.problem}`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const arg = (name) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? Number(process.argv[i + 1]) : undefined;
  };
  const seed = arg('seed') ?? Math.floor(Math.random() * 2 ** 31);
  const minutes = arg('minutes');
  const calls = arg('calls') ?? (minutes === undefined ? 2000 : Infinity);
  const start = performance.now();
  const deadline = minutes === undefined ? Infinity : start + minutes * 60_000;
  const result = await fuzz({ seed, calls, deadline });
  report(result, (performance.now() - start) / 1000);
  process.exit(result.failures.length ? 1 : 0);
}

export { report };
