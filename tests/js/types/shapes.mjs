// What the package really returns, written as TypeScript: every entry is a
// declared type (mostly the return type of the declaration itself, so the
// check follows the .d.ts) and a value the API returned for it. Compiled
// with `tsc --strict`, a value with a field the type lacks, without a field
// the type requires, or of another kind (a number for a BigInt, an array
// for a typed array...) is an error: the declarations say what is true.
//
// Usage: `node shapes.mjs <package directory>` prints the TypeScript.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const TYPED_ARRAYS = [
  Int8Array,
  Uint8Array,
  Uint8ClampedArray,
  Int16Array,
  Uint16Array,
  Int32Array,
  Uint32Array,
  Float32Array,
  Float64Array,
  BigInt64Array,
  BigUint64Array,
];

function number(x) {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  return Object.is(x, -0) ? '-0' : String(x);
}

/** A TypeScript expression whose type is exactly the kind of `value`; `classes` names the package's classes. */
export function literal(value, classes) {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number') return number(value);
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'string') return JSON.stringify(value);
  const typed = TYPED_ARRAYS.find((T) => value instanceof T);
  if (typed) {
    const items = Array.from(value, (x) => (typeof x === 'bigint' ? `${x}n` : number(x)));
    return `new ${typed.name}([${items.join(', ')}])`;
  }
  if (Array.isArray(value)) return `[${value.map((x) => literal(x, classes)).join(', ')}]`;
  if (value instanceof Error) {
    const fields = Object.entries(value).filter(([k]) => k !== 'name' && k !== 'message');
    // Object.assign widens string literals: keep them, as a literal union type needs.
    const field = (v) => (typeof v === 'string' ? `${literal(v, classes)} as const` : literal(v, classes));
    const rest = fields.map(([k, v]) => `, ${JSON.stringify(k)}: ${field(v)}`).join('');
    return `Object.assign(new Error(${JSON.stringify(value.message)}), { name: ${JSON.stringify(value.name)} as const${rest} })`;
  }
  const own = Object.entries(classes).find(([, C]) => value instanceof C);
  if (own) return `({} as unknown as C.${own[0]})`;
  if (Object.getPrototypeOf(value) !== Object.prototype) {
    throw new TypeError(`no literal for a ${value.constructor?.name}`);
  }
  const fields = Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${literal(v, classes)}`);
  return `{ ${fields.join(', ')} }`;
}

/** `[type, value]` pairs: what each entry point returned, and the type it declares. */
export function shapes(c) {
  const out = [];
  const add = (type, value) => out.push([type, value]);

  // Spaces: every kind's description, Gymnasium description, sample, empty value and seeds.
  const d = c.Space.discrete(3);
  const spaces = [
    c.Space.box({ low: 0, high: [1, 2], dtype: 'float32' }),
    c.Space.box({ low: -Infinity, high: 5, shape: [2, 2], dtype: 'int64' }),
    c.Space.discrete(3, { start: 1, name: 'd' }),
    c.Space.namedDiscrete(['a', 'b']),
    c.Space.commandlineSpace([{ name: 'dce', flag: '-dce', description: 'x' }]),
    c.Space.scalar({ min: 0, dtype: 'int64' }),
    c.Space.scalar({ min: -1, max: 1 }),
    c.Space.sequence({ sizeRange: [0, null], dtype: 'str' }),
    c.Space.sequence({ sizeRange: [0, null], opaqueDataFormat: 'json://' }),
    c.Space.sequence({ sizeRange: [1, 4], dtype: 'int64', scalarRange: c.Space.scalar({ min: 0, max: 9, dtype: 'int64' }) }),
    c.Space.spaceSequence(d, { sizeRange: [0, 3] }),
    c.Space.permutation(c.Space.scalar({ min: 0, max: 3, dtype: 'int64' })),
    c.Space.dict({ b: d, a: c.Space.text({ maxLength: 2 }) }),
    c.Space.tuple([d, c.Space.multiBinary(2)]),
    c.Space.union([d, c.Space.text({ maxLength: 3 })]),
    c.Space.reward({ name: 'r', observationSpaces: ['x'], min: 0 }),
    c.Space.multiDiscrete([2, 3]),
    c.Space.multiBinary(3),
    c.Space.binary([2]),
    c.Space.dynamicBox({ low: 0, high: 1, shapeLow: [1], shapeHigh: [3], dtype: 'float64' }),
    c.Space.graph({ nodeSpace: c.Space.box({ low: 0, high: 1, shape: [2] }), edgeSpace: c.Space.box({ low: 0, high: 1, shape: [1] }), maxNodes: 4 }),
    c.Space.graph({ nodeSpace: c.Space.box({ low: 0, high: 1, shape: [2] }), maxNodes: 3 }),
    c.Space.text({ maxLength: 3 }),
    c.Space.batched(d, [2]),
  ];
  for (const space of spaces) {
    add('ReturnType<C.Space["toJSON"]>', space.toJSON());
    add('C.Space["type"]', space.type);
    try {
      add('ReturnType<C.Space["toGym"]>', space.toGym());
    } catch (e) {
      if (e.name !== 'TypeError') throw e; // no Gymnasium equivalent
    }
    add('ReturnType<C.Space["seed"]>', space.seed(7));
    add('ReturnType<C.Space["sample"]>', space.sample());
    add('ReturnType<C.Space["sampleWith"]>', space.sampleWith(new c.Rng(1)));
    add('ReturnType<C.Space["createEmpty"]>', space.createEmpty());
    // A Binary space's sample is not in it as JS gives it (a Uint8Array): a known defect.
    if (space.type === 'Binary') continue;
    try {
      add('ReturnType<C.Space["flatten"]>', space.flatten(space.sample()));
      add('ReturnType<C.Space["sampleBatch"]>', space.sampleBatch(2));
    } catch (e) {
      if (e.name !== 'TypeError') throw e; // not flat, or not batchable
    }
  }
  const dynamic = spaces.find((s) => s.type === 'DynamicBox');
  add('ReturnType<C.Space["pad"]>', dynamic.pad(dynamic.sample()));
  add('ReturnType<C.Space["clip"]>', dynamic.clip(dynamic.sample()));
  add('ReturnType<C.Space["clip"]>', spaces[0].clip(Float32Array.of(3, -1)));
  const rng = new c.Rng(3);
  add('ReturnType<C.Rng["integers"]>', rng.integers(0, 10));
  add('ReturnType<C.Rng["integers"]>', rng.integers(0n, 2n ** 62n));

  // The environment API.
  const env = c.make('bril-ic-v0', { benchmark: 'benchmark://suite-v0/dead-code', observationSpace: 'Autophase' });
  add('ReturnType<C.CompilerEnv["reset"]>', env.reset());
  add('ReturnType<C.CompilerEnv["step"]>', env.step('-dce'));
  add('ReturnType<C.CompilerEnv["multistep"]>', env.multistep(['-lvn', 0], { observationSpaces: ['IrInstructionCount', 'Ir'], rewardSpaces: ['IrInstructionCount'] }));
  const failing = c.make('bril-v0', { rewardSpace: 'DynamicInstructionCount' });
  failing.addBenchmark('benchmark://user-v0/div', '@main { a: int = const 1; z: int = const 0; q: int = div a z; print q; }');
  failing.reset({ benchmark: 'benchmark://user-v0/div' });
  add('ReturnType<C.CompilerEnv["step"]>', failing.step('-dce')); // the program fails: info.error
  failing.free();
  env.reset();
  add('C.CompilerEnv["state"]', env.state);
  add('ReturnType<C.CompilerEnv["validate"]>', env.validate());
  add('C.CompilerEnv["datasets"]', env.datasets);
  add('C.CompilerEnv["reward"]["spaces"]', env.reward.spaces);
  add('C.CompilerEnv["actions"]', env.actions);
  for (const spec of env.observation.spaces) {
    add('ReturnType<C.ObservationView["get"]>', env.observation.get(spec.id));
    add('C.ObservationSpaceSpec["defaultValue"]', spec.defaultValue);
  }
  add('ReturnType<typeof C.compilerEnvStatesFromCsv>', c.compilerEnvStatesFromCsv(c.compilerEnvStatesToCsv([env.state])));
  env.free();

  // TimeStep environments and bandits.
  const bandit = new c.StationaryStochasticPerArmEnvironment({
    globalContextSamplingFn: { kind: 'gaussian', dim: 2 },
    armContextSamplingFn: (r) => [r.random(), 1],
    maxNumActions: 3,
    rewardFn: { kind: 'linear', theta: [1, 1, 1, 1] },
    numActionsFn: { kind: 'uniform', low: 2, high: 3 },
    batchSize: 2,
    seed: 1,
  });
  const compilerBandit = new c.CompilerBandit({ seed: 1, batchSize: 2, programs: ['fib-iter', 'dead-code'] });
  const timeStep = new c.CompilerTimeStepEnvironment('bril-ic-v0', { observationSpace: 'Autophase', maxEpisodeSteps: 3 });
  const noObservation = new c.CompilerTimeStepEnvironment('bril-ic-v0');
  for (const [name, e, action] of [
    ['StationaryStochasticPerArmEnvironment', bandit, [0, 1]],
    ['CompilerBandit', compilerBandit, Int32Array.of(2, 3)],
    ['CompilerTimeStepEnvironment', timeStep, 1],
    ['CompilerTimeStepEnvironment', noObservation, 2],
  ]) {
    add(`ReturnType<C.${name}["currentTimeStep"]>`, e.currentTimeStep());
    add(`ReturnType<C.${name}["reset"]>`, e.reset());
    add(`ReturnType<C.${name}["step"]>`, e.step(action));
    add(`ReturnType<C.${name}["currentTimeStep"]>`, e.currentTimeStep());
    add(`ReturnType<C.${name}["timeStepSpec"]>`, e.timeStepSpec());
    add(`ReturnType<C.${name}["actionSpec"]>`, e.actionSpec());
    add(`ReturnType<C.${name}["observationSpec"]>`, e.observationSpec());
    add(`ReturnType<C.${name}["rewardSpec"]>`, e.rewardSpec());
    add(`ReturnType<C.${name}["discountSpec"]>`, e.discountSpec());
    add(`ReturnType<C.${name}["getState"]>`, e.getState());
    add(`C.${name}["batchSize"]`, e.batchSize);
  }
  add('ReturnType<C.CompilerTimeStepEnvironment["getInfo"]>', timeStep.getInfo());
  add('ReturnType<C.CompilerBandit["expectedRewards"]>', compilerBandit.expectedRewards([0, 1]));
  add('C.CompilerBandit["currentPrograms"]', compilerBandit.currentPrograms);
  const agent = new c.LinUcb(4);
  add('ReturnType<C.LinUcb["act"]>', agent.act(bandit));

  // The service protocol: every method's reply.
  const service = new c.Service('bril');
  add('C.ServiceReply<"GetVersion">', service.call('GetVersion'));
  add('C.ServiceReply<"GetSpaces">', service.call('GetSpaces', {}));
  add('ReturnType<C.Service["getSpaces"]>', new c.Service('toy').getSpaces());
  const names = service.getSpaces().observationSpaceList.map((o) => o.name);
  const all = names.map((_, i) => i);
  const start = service.call('StartSession', { benchmark: 'benchmark://suite-v0/fib-iter', observationSpace: all });
  add('C.ServiceReply<"StartSession">', start);
  const { sessionId } = start;
  add('C.ServiceReply<"Step">', service.call('Step', { sessionId, action: [{ int64Value: 0 }], observationSpace: all }));
  add('ReturnType<C.Service["forkSession"]>', service.forkSession({ sessionId }));
  add('ReturnType<C.Service["sendSessionParameter"]>', service.sendSessionParameter({ sessionId, parameter: [{ key: 'bril.fuel', value: '100' }] }));
  add('ReturnType<C.Service["addBenchmark"]>', service.addBenchmark({ benchmark: [{ uri: 'benchmark://user-v0/x', program: { contents: 'QG1haW4geyB9' } }] }));
  add('ReturnType<C.Service["endSession"]>', service.endSession({ sessionId }));
  add('ReturnType<typeof C.Service.methods>', c.Service.methods());

  // The CLI-facing functions and the rest.
  add('ReturnType<typeof C.runBril>', c.runBril('@main { v: int = const 1; print v; }', null, ['-O2']));
  try {
    c.runBril('@main { v: int = const 1; w: int = div v v; z: int = const 0; u: int = div v z; }');
  } catch (e) {
    add('C.BrilRunError', e);
  }
  add('ReturnType<typeof C.brilPasses>', c.brilPasses());
  add('C.BrilProgram', JSON.parse(c.brilToJson('@main(n: int) { one: int = const 1; .loop: p: ptr<int> = alloc one; free p; br true .loop .end; .end: print n; }')));
  add('ReturnType<typeof C.errorNames>', c.errorNames());
  add('ReturnType<typeof C.canonicalDtype>', c.canonicalDtype('f32'));
  return out;
}

/** The TypeScript of every shape: one checked constant each. */
export function typescript(c, classes) {
  const lines = [
    '// Generated by shapes.mjs from values the package returned.',
    "import type * as C from 'compgym';",
  ];
  shapes(c).forEach(([type, value], i) => lines.push(`export const shape${i}: ${type} = ${literal(value, classes)};`));
  return lines.join('\n') + '\n';
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const c = await import(pathToFileURL(resolve(process.argv[2], 'node.js')).href);
  const classes = Object.fromEntries(Object.entries(c).filter(([, v]) => typeof v === 'function' && /^[A-Z]/.test(v.name)));
  process.stdout.write(typescript(c, classes));
}
