// The whole public API of compgym, as a TypeScript project would use it:
// compiled with `tsc --strict` against the packed package and then run
// (types.test.mjs). Every @ts-expect-error line is a mistake the
// declarations must reject; nothing here is cast, so what compiles is what
// the declarations promise.
import init, {
  CompilerBandit,
  CompilerTimeStepEnvironment,
  LinUcb,
  Rng,
  Service,
  Space,
  StationaryStochasticPerArmEnvironment,
  StepType,
  brilFeatures,
  brilPasses,
  brilToJson,
  brilToText,
  canonicalDtype,
  compilerEnvStatesFromCsv,
  compilerEnvStatesToCsv,
  errorNames,
  make,
  optimizeBril,
  registeredEnvs,
  runBril,
  spaceFromJSON,
  validateEnvironment,
  verifyBril,
  version,
  type BrilProgram,
  type BrilRunError,
  type CompgymError,
  type CompilerEnvState,
  type DType,
  type ErrorName,
  type Event,
  type EventInput,
  type GetSpacesReply,
  type JsRewardObject,
  type PerArmObservation,
  type ServiceMethod,
  type SpaceDescription,
  type SpaceValue,
  type StepReply,
  type StepResult,
  type TimeStep,
  type ValidationResult,
} from 'compgym';
import { connectService, type RemoteService } from 'compgym/remote.js';
import type { WorkerReply } from 'compgym/worker.js';
import * as gym from 'compgym/gym';

// What the run checks (no Node types here: the project sees only the package's declarations).
function ok(condition: unknown, message?: string): asserts condition {
  if (!condition) throw new Error(message || 'not ok');
}
function equal(actual: unknown, expected: unknown): void {
  ok(Object.is(actual, expected), `${String(actual)} is not ${String(expected)}`);
}

await init();
const name: string = version();

// ---- errors --------------------------------------------------------------------

/** The name of what `f` threw. */
function thrown(f: () => unknown): ErrorName | undefined {
  try {
    f();
  } catch (e) {
    return (e as CompgymError).name;
  }
  return undefined;
}
const kinds: ErrorName[] = errorNames();
equal(thrown(() => canonicalDtype('complex64')), 'TypeError');
const float: DType = canonicalDtype('f32');

// ---- spaces ----------------------------------------------------------------------

const box = Space.box({ low: -1, high: 1, shape: [4], dtype: 'float32' });
const seeds: Array<number | bigint> = box.seed(42);
const x = box.sample();
ok(box.contains(x) && x instanceof Float32Array);
const batch = box.sampleBatch(10);
const [next, drawn]: [Rng, SpaceValue] = box.sampleWith(new Rng(7));
const description: SpaceDescription = box.toJSON();
if (description.type === 'Box') {
  const dims: number[] = description.shape;
  equal(dims.join(), '4');
}
ok(Space.fromJSON(description).equals(box) && spaceFromJSON(JSON.stringify(description)).equals(box));
const gymBox = Space.fromGym(box.toGym());
const flags = Space.commandlineSpace([{ name: 'dce', flag: '-dce', description: 'Dead code elimination' }]);
const values: number[] = flags.fromCommandline('-dce');
const boxShape: number[] = box.shape;
const line: string = flags.commandline([0]);
const dict = Space.dict({ count: Space.discrete(3), text: Space.text({ maxLength: 4 }) }, { sortKeys: false });
const tuple = Space.tuple([Space.discrete(2, { start: 1 }), Space.multiBinary(3), Space.namedDiscrete(['a', 'b'])]);
const flat = tuple.flatten(tuple.sample());
const back: SpaceValue = tuple.unflatten(flat);
const dynamic = Space.dynamicBox({ low: 0, high: 1, shapeLow: [1], shapeHigh: [4], dtype: 'float64' });
const padded = dynamic.pad({ data: Float64Array.of(0.5), shape: [1] });
const cut = dynamic.unpad(padded, [1]);
const graph = Space.graph({ nodeSpace: Space.box({ low: 0, high: 1, shape: [2] }), maxNodes: 3 });
const others = [
  Space.scalar({ min: 0, dtype: 'int64' }),
  Space.sequence({ sizeRange: [0, null], dtype: 'str' }),
  Space.spaceSequence(Space.discrete(2), { sizeRange: [0, 3] }),
  Space.permutation(Space.scalar({ min: 0, max: 3, dtype: 'int64' })),
  Space.union([Space.discrete(2), Space.text({ maxLength: 2 })]),
  Space.reward({ name: 'r', min: 0 }),
  Space.multiDiscrete([2, 3]),
  Space.binary([2]),
  Space.batched(Space.discrete(3), [2]),
  graph,
  dict,
];
const repr: string[] = others.map((s) => `${s.type} ${s.getRepr({ abbreviate: true })} ${s.isBounded('below')}`);
const rng = new Rng(1n);
const die: number | bigint = rng.integers(1, 7);
const saved = Rng.fromState(rng.state);
equal(saved.random(), rng.random());
const picked: string = rng.choice(['a', 'b']);
const order: number[] = rng.permutation(4);
const shuffledCopy: Int32Array = rng.permutation(Int32Array.of(1, 2, 3));
rng.shuffle([1, 2, 3]);

/** Wrong uses: compiled, never run. */
export function mistakes1(): void {
  // @ts-expect-error a Box needs its bounds
  Space.box({ shape: [2] });
  // @ts-expect-error dtypes are named, not numbered
  Space.scalar({ dtype: 8 });
  // @ts-expect-error Discrete's size is a number
  Space.discrete('3');
  // @ts-expect-error isBounded knows three manners
  box.isBounded('sideways');
}

// ---- the environment API ----------------------------------------------------------

ok(registeredEnvs().includes('bril-ic-v0'));
const env = make('bril-ic-v0', { benchmark: 'benchmark://suite-v0/dead-code', observationSpace: 'IrInstructionCount' });
const first: SpaceValue = env.reset();
const step: StepResult = env.step('-dce');
let total = 0;
total += env.step('-lvn').reward; // the plain call gives one reward, a number
const perSpace: number[] = env.step('-dce', { rewardSpaces: ['IrInstructionCountOz'] }).reward;
const { reward, terminated, truncated, info } = step;
const noEffect: boolean = info.actionHadNoEffect;
const failure: CompgymError | undefined = info.error;
const many = env.multistep(['-lvn', 1], { observationSpaces: ['Ir', 'IrInstructionCount'] });
ok(Array.isArray(many.observation) && many.observation.length === 2);
const passes = env.actionSpace;
passes.seed(1);
env.step(passes.sample());
env.observation.addDerivedSpace('Double', 'IrInstructionCount', (n: SpaceValue) => 2 * Number(n));
const quad = env.observation.spec('Double').makeDerivedSpace('Quad', (n) => 2 * Number(n), { deterministic: true });
env.observation.addSpace(quad);
equal(env.observation.get('Quad'), 4 * Number(env.observation.get('IrInstructionCount')));
const shrink: JsRewardObject & { last: number } = {
  name: 'Shrink',
  observationSpaces: ['IrInstructionCount'],
  last: 0,
  reset(benchmark, view) {
    this.last = Number(view.get('IrInstructionCount'));
  },
  update(actions, [count]) {
    const r = this.last - Number(count);
    this.last = Number(count);
    return r;
  },
};
env.reward.addSpace(shrink);
const rewardNames: string[] = env.reward.spaces.map((r) => r.name);
const fork = env.fork();
fork.step('-peephole');
const state: CompilerEnvState = env.state;
const csv: string = compilerEnvStatesToCsv([state, fork.state], { header: false });
const states: CompilerEnvState[] = compilerEnvStatesFromCsv(csv);
const validation: ValidationResult = env.validate(states[0]);
ok(validation.okay, validation.errors.map((e) => `${e.kind}: ${e.details}`).join());
const program: BrilProgram = {
  functions: [
    {
      name: 'main',
      instrs: [
        { op: 'const', dest: 'v', type: 'int', value: 7 },
        { op: 'print', args: ['v'] },
      ],
    },
  ],
};
env.addBenchmark('benchmark://user-v0/seven', program);
env.reset({ benchmark: 'benchmark://user-v0/seven', observationSpace: 'Ir' });
const benchmark: string = env.randomBenchmark(3, 'benchmark://suite-v0');
const sizes: Array<number | null> = env.datasets.map((d) => d.size);
env.maxEpisodeSteps = 5;
env.maxEpisodeSteps = null;
env.observationSpace = null;
fork.free();
env.free();

/** Wrong uses: compiled, never run. */
export function mistakes2(): void {
  // @ts-expect-error options are named: observationSpace, not observation
  make('bril-ic-v0', { observation: 'Ir' });
  // @ts-expect-error maxEpisodeSteps is a number
  make('bril-ic-v0', { maxEpisodeSteps: '5' });
  // @ts-expect-error a reward returns a number
  env.reward.addSpace({ name: 'Bad', update: () => 'more' });
  // @ts-expect-error a Bril function has instructions
  env.addBenchmark('benchmark://user-v0/empty', { functions: [{ name: 'main' }] });
  // @ts-expect-error the step result's reward is a number or numbers
  const rewardText: string = step.reward;
}

// ---- the service protocol ---------------------------------------------------------------

const service = new Service('bril');
const methods: ServiceMethod[] = Service.methods();
const { serviceVersion } = service.call('GetVersion');
const spaces: GetSpacesReply = service.getSpaces({});
const count = spaces.observationSpaceList.findIndex((o) => o.name === 'IrInstructionCount');
const start = service.call('StartSession', {
  benchmark: { uri: 'benchmark://suite-v0/dead-code' },
  actionSpace: 0,
  observationSpace: [count],
});
const before: Event = start.observation[0];
const reply: StepReply = service.call('Step', {
  sessionId: start.sessionId,
  action: [{ int64Value: 0n }],
  observationSpace: [BigInt(count)],
});
// A reply's Event is a request's Event too.
const echoed: EventInput[] = reply.observation;
ok(Number(reply.observation[0].int64Value) <= Number(before.int64Value));
const { sessionId: forked } = service.forkSession({ sessionId: start.sessionId });
const [fuel] = service.sendSessionParameter({ sessionId: forked, parameter: [{ key: 'bril.fuel', value: '1000' }] }).reply;
service.addBenchmark({
  benchmark: [
    { uri: 'benchmark://user-v0/bytes', program: { contents: new TextEncoder().encode('@main { }') } },
    { uri: 'benchmark://user-v0/text', program: { contents: btoa('@main { v: int = const 1; print v; }') } },
  ],
});
const { remainingSessions } = service.endSession({ sessionId: forked });
service.call('EndSession', { sessionId: `${start.sessionId}` });
equal(service.sessionCount, 0);

/** Wrong uses: compiled, never run. */
export function mistakes3(): void {
  // @ts-expect-error GetVersion takes the empty message
  service.call('GetVersion', { verbose: true });
  // @ts-expect-error no such method
  service.call('Run', {});
  // @ts-expect-error Step's field is sessionId
  service.call('Step', { session: 1 });
  // @ts-expect-error an Event sets one value, not two
  service.step({ action: [{ int64Value: 1, doubleValue: 2 }] });
  // @ts-expect-error observation spaces are indices
  service.startSession({ observationSpace: [true] });
  // @ts-expect-error a program is its contents or a URI, not both
  service.addBenchmark({ benchmark: [{ uri: 'x', program: { contents: 'AA==', uri: 'file:///x' } }] });
  // @ts-expect-error a reply's int64 is a number or a decimal string, never a BigInt
  const big: bigint = start.sessionId;
}

/** Wrong uses: compiled, never run. */
export function remoteMistakes(remoteService: RemoteService): void {
  // @ts-expect-error the remote service's methods are the protocol's
  remoteService.call('Nope', {});
  // @ts-expect-error replies are promises
  const direct: StepReply = remoteService.step({ sessionId: 0 });
}

async function remote(): Promise<number> {
  const remoteService: RemoteService = connectService(undefined, { compiler: 'bril' });
  const { compilerVersion } = await remoteService.getVersion();
  const { sessionId } = await remoteService.call('StartSession', { benchmark: 'benchmark://suite-v0/fib-iter' });
  const stepped = await remoteService.step({ sessionId, action: [{ int64Value: 0 }], observationSpace: [0] });
  const ir = stepped.observation[0].stringValue;
  await remoteService.endSession({ sessionId });
  await remoteService.terminate();
  return (ir ?? '').length + compilerVersion.length;
}
ok((await remote()) > 0);

// A worker's error reply names what was thrown: an ErrorName, or for an Env.* method whatever the
// environment or its module threw (a module that does not load is a plain "Error").
const envMakeFailed: WorkerReply = { id: 1, error: { name: 'Error', message: "Cannot find module '/nonexistent/env.js'" } };
ok('error' in envMakeFailed && envMakeFailed.error.name === 'Error');

// ---- bandits and TimeStep environments ------------------------------------------------------

const bandit = new StationaryStochasticPerArmEnvironment({
  globalContextSamplingFn: { kind: 'gaussian', dim: 2 },
  armContextSamplingFn: (r) => [r.random(), r.normal(), 1],
  maxNumActions: 4,
  rewardFn: { kind: 'linear', theta: [1, -1, 0.5, 2, -0.5], noiseStd: 0.1 },
  numActionsFn: { kind: 'uniform', low: 2, high: 4 },
  batchSize: 3,
  seed: 1,
});
const agent = new LinUcb(5, 1.0);
let time = bandit.reset();
for (let t = 0; t < 5; t++) {
  time = bandit.step(agent.act(bandit));
  agent.learn(time.reward);
}
const observation: PerArmObservation = time.observation;
const available: Int32Array | undefined = observation.num_actions;
ok(time.stepType.every((s) => s === StepType.LAST));
const regret = bandit.optimalExpectedRewards().reduce((a, b) => a + b) - bandit.expectedRewards(agent.act(bandit)).reduce((a, b) => a + b);
const token = bandit.getState();
bandit.setState(JSON.parse(JSON.stringify(token)));
const armDim: number = bandit.observationSpec().per_arm.shape[1];

const compilerBandit = new CompilerBandit({ seed: 1, batchSize: 2, programs: ['fib-iter', 'dead-code'] });
compilerBandit.reset();
const banditStep = compilerBandit.step(compilerBandit.optimalActions());
const programs: string[] | undefined = compilerBandit.currentPrograms;
const compilerAgent = new LinUcb(60 + compilerBandit.numArms + compilerBandit.propertyNames.length);
const arms: Int32Array = compilerAgent.act(compilerBandit);
compilerAgent.learn(compilerBandit.step(arms).reward);

const timeStepEnv = new CompilerTimeStepEnvironment('bril-ic-v0', {
  benchmark: 'benchmark://suite-v0/fib-iter',
  observationSpace: 'Autophase',
  rewardSpace: 'IrInstructionCountOz',
  maxEpisodeSteps: 3,
});
let ts: TimeStep = timeStepEnv.reset();
ts = timeStepEnv.step(3);
const discount: number = ts.discount;
const benchmarkOfStep: string | null = timeStepEnv.getInfo().benchmark;
timeStepEnv.seed(7);
validateEnvironment(timeStepEnv, 2);
validateEnvironment(compilerBandit, 1);
const spec = timeStepEnv.timeStepSpec();
const dtype: DType = spec.stepType.dtype;

/** Wrong uses: compiled, never run. */
export function mistakes4(): void {
  // @ts-expect-error a bandit needs its reward
  new StationaryStochasticPerArmEnvironment({ globalContextSamplingFn: { kind: 'gaussian', dim: 2 }, armContextSamplingFn: { kind: 'uniform', dim: 1 }, maxNumActions: 2 });
  // @ts-expect-error a seed is a number or a BigInt
  new CompilerBandit({ seed: 'one' });
  // @ts-expect-error validateEnvironment plays TimeStep environments
  validateEnvironment(env);
  // @ts-expect-error a batched time step's rewards are a Float32Array
  const one: number = banditStep.reward;
  // @ts-expect-error seeds are numbers or BigInts
  timeStepEnv.seed('7');
}

// ---- the compiler, as the CLI uses it -----------------------------------------------------

const source = '@main { a: int = const 4; b: int = const 2; c: int = add a b; d: int = mul c b; print c; }';
verifyBril(source);
const json: BrilProgram = JSON.parse(brilToJson(source));
const text: string = brilToText(JSON.stringify(json));
const optimised: string = optimizeBril(source, ['-O2'], false);
const features: string = brilFeatures(source, false);
const { stdout, dynInst } = runBril(optimised, [], null);
equal(stdout, '6\n');
const pipelines: string[] = brilPasses().pipelines;
const ozGroups: string[][] = brilPasses().pipelinePlans['-Oz'].groups;
const ozRule: boolean = brilPasses().pipelinePlans['-Oz'].keepGroupIfNoLarger;
try {
  runBril('@main { a: int = const 1; z: int = const 0; q: int = div a z; }');
} catch (e) {
  const failed = e as BrilRunError;
  equal(failed.name, 'RuntimeError');
  equal(failed.dynInst, 3);
}
/** Wrong uses: compiled, never run. */
export function mistakes5(): void {
  // @ts-expect-error a program's arguments are strings
  runBril(source, [1, 2]);
  // @ts-expect-error optimizeBril takes the pass flags
  optimizeBril(source, '-O2', false);
}

// ---- Gymnasium's face -------------------------------------------------------------------------

const gymEnv = gym.make('bril-autophase-ic-v0', { dataset: 'benchmark://suite-v0', maxEpisodeSteps: 3 });
const [autophase, resetInfo] = gymEnv.reset({ seed: 42 });
const [, gymReward, gymTerminated, gymTruncated] = gymEnv.step(gymEnv.actionSpace.sample());
const episode: string = gymEnv.commandline();
gymEnv.close();
/** Wrong uses: compiled, never run. */
export function mistakes6(): void {
  // @ts-expect-error Gymnasium's step returns a tuple, not a StepResult
  const notTuple: StepResult = gymEnv.step(0);
}

