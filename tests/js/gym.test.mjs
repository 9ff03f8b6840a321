// compgym/gym's Gymnasium face: make, the seeded trace every side checks
// (natively in src/env/gym/tests.rs, here in Node and in Chromium), compiler
// environments, TimeStep environments, plain-JS environments, typed errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { nodeModules, withGymPage } from './gym-page.mjs';

const { gym, compgym } = await nodeModules();
const TRACE = JSON.parse(readFileSync(new URL('../data/gym_seeded_trace.json', import.meta.url), 'utf8'));

/** The trace's episode (see tests/data/gym_seeded_trace.json); runs in Node and in a page. */
function trace({ gym }) {
  const env = gym.make('bril-autophase-ic-v0', { dataset: 'benchmark://suite-v0' });
  const [observation, info] = env.reset({ seed: 42 });
  const actions = Array.from({ length: 6 }, () => env.actionSpace.sample());
  const steps = actions.map((a) => {
    const [, reward, terminated, truncated] = env.step(a);
    return [reward, terminated, truncated];
  });
  const unseeded = [0, 1, 2].map(() => env.reset()[1].benchmark);
  const [, info7] = env.reset({ seed: 7 });
  const actions7 = Array.from({ length: 4 }, () => env.actionSpace.sample());
  env.close();
  return {
    id: 'bril-autophase-ic-v0',
    dataset: 'benchmark://suite-v0',
    seed: 42,
    benchmark: info.benchmark,
    observation: Array.from(observation, Number),
    actions,
    steps,
    unseeded_benchmarks: unseeded,
    seed7: { actions: actions7, benchmark: info7.benchmark },
  };
}

const errorName = (f) => {
  try {
    f();
  } catch (e) {
    assert.ok(e instanceof Error, `${e} is an Error`);
    return e.name;
  }
  return null;
};

test('a seed gives the trace the native build gives, in Node', () => {
  assert.deepEqual(trace({ gym }), TRACE);
});

test('a seed gives the trace the native build gives, in Chromium', async () => {
  await withGymPage(async (run) => {
    assert.deepEqual(await run(trace), TRACE);
  });
});

test('make knows every registered compiler environment and the bandits', () => {
  const ids = gym.registeredIds();
  for (const id of compgym.registeredEnvs()) assert.ok(ids.includes(id), id);
  assert.ok(ids.includes('compgym/CompilerBandit-v0') && ids.includes('compgym/StationaryBandit-v0'));
  assert.equal(gym.spec('bril-ic-v0').id, 'bril-ic-v0');
  assert.throws(() => gym.make('bril-nope-v0'), { name: 'LookupError', message: /bril-ic-v0/ });
  assert.throws(() => gym.make('bril-ic-v0', { benchmrk: 'x' }), { name: 'TypeError', message: /benchmrk/ });
  assert.throws(() => gym.make('bril-ic-v0', 3), { name: 'TypeError' });
  assert.throws(() => gym.make('bril-ic-v0', { dataset: 'nope-v0' }), { name: 'LookupError' });
  assert.throws(() => gym.make('bril-ic-v0', { renderMode: 'human' }), { name: 'ValueError' });
  assert.throws(() => gym.make('bril-ic-v0', { maxEpisodeSteps: 0 }), { name: 'ValueError' });
  const env = gym.make('bril-ic-v0', { maxEpisodeSteps: 2 });
  assert.ok(env instanceof gym.TimeLimit);
  assert.equal(env.spec.maxEpisodeSteps, 2);
  env.reset({ seed: 0 });
  assert.equal(env.step(0)[3], false);
  assert.equal(env.step(0)[3], true, 'truncated at the limit');
});

test('a compiler environment has the whole Gymnasium API', () => {
  const env = gym.make('bril-ic-v0', { renderMode: 'ansi', benchmark: 'benchmark://suite-v0/dead-code' });
  assert.ok(env instanceof gym.OrderEnforcing && env.env instanceof gym.PassiveEnvChecker, 'make wraps it as Gymnasium\'s make does');
  assert.ok(env.unwrapped instanceof gym.Env && env.unwrapped instanceof gym.CompilerGymEnv);
  assert.equal(env.actionSpace.type, 'Commandline');
  assert.equal(env.actionSpace, env.actionSpace, 'one action space object between resets');
  const [observation, info] = env.reset({ seed: 5 });
  assert.equal(typeof observation, 'string', 'no observation space: the IR text');
  assert.ok(env.observationSpace.contains(observation));
  const { actionMask, ...rest } = info;
  assert.deepEqual(rest, { benchmark: 'benchmark://suite-v0/dead-code' });
  assert.deepEqual(actionMask, new Uint8Array(env.actionSpace.n).fill(1), 'nothing is known to do nothing yet');
  assert.equal(env.npRandomSeed, 5);
  assert.ok(env.npRandom instanceof compgym.Rng);
  const [next, reward, terminated, truncated, stepInfo] = env.step('-dce');
  assert.ok(env.observationSpace.contains(next));
  assert.ok(reward > 0, `-dce shrinks dead-code: ${reward}`);
  assert.equal(terminated, false);
  assert.equal(truncated, false);
  const { actionMask: stepMask, ...stepRest } = stepInfo;
  assert.deepEqual(stepRest, { actionHadNoEffect: false, newActionSpace: false });
  assert.ok(stepMask instanceof Uint8Array && stepMask.length === env.actionSpace.n);
  assert.deepEqual(env.rewardRange.length, 2);
  assert.deepEqual(env.metadata, { renderModes: ['ansi'], renderFps: null });
  assert.equal(env.renderMode, 'ansi');
  assert.equal(env.render(), next);
  assert.equal(env.spec.id, 'bril-ic-v0');
  assert.deepEqual(env.actions, [0]);
  assert.equal(env.commandline(), '-dce');
  assert.equal(env.benchmark, 'benchmark://suite-v0/dead-code');
  assert.equal(typeof env.compilerEnv.observation.get('IrInstructionCount'), 'number');
  assert.equal(env.validate().okay, true);
  env.close();
  env.close();
  assert.throws(() => gym.make('bril-ic-v0').render(), { name: 'ResetNeeded' }, 'OrderEnforcing: render before reset');
  const plain = gym.make('bril-ic-v0');
  plain.reset();
  assert.equal(plain.render(), null, 'no render mode: no frame');
});

test('the environment\'s generator is shared with JS and drives later resets', () => {
  const a = gym.make('bril-ic-v0', { dataset: 'benchmark://suite-v0' });
  const b = gym.make('bril-ic-v0', { dataset: 'benchmark://suite-v0' });
  a.reset({ seed: 1 });
  b.reset({ seed: 1 });
  assert.equal(a.npRandom.state, b.npRandom.state);
  a.npRandom.random();
  assert.notEqual(a.npRandom.state, b.npRandom.state, 'a draw from JS advanced the environment\'s generator');
  const draws = (env) => Array.from({ length: 6 }, () => env.reset()[1].benchmark).join();
  assert.notEqual(draws(a), draws(b));
  assert.equal(a.npRandomSeed, 1, 'drawing does not forget the seed');
  const fresh = gym.make('bril-ic-v0', { dataset: 'benchmark://suite-v0' });
  fresh.reset();
  assert.equal(typeof fresh.npRandomSeed, 'number', 'an unseeded first reset seeds from entropy');
});

test('fork copies the episode and both generators', () => {
  const env = gym.make('bril-autophase-ic-v0', { dataset: 'benchmark://suite-v0' });
  env.reset({ seed: 9 });
  env.step(env.actionSpace.sample());
  const fork = env.fork();
  assert.deepEqual(fork.actions, env.actions);
  assert.equal(fork.spec.id, env.spec.id);
  const samples = (e) => Array.from({ length: 5 }, () => e.actionSpace.sample());
  assert.deepEqual(samples(fork), samples(env));
  assert.deepEqual(fork.step(3)[0], env.step(3)[0]);
  assert.equal(fork.reset()[1].benchmark, env.reset()[1].benchmark);
  env.close();
  fork.step(1);
  fork.close();
});

test('bad arguments are typed errors and leave the environment usable', () => {
  const env = gym.make('bril-ic-v0', { benchmark: 'benchmark://suite-v0/fib-iter' });
  assert.equal(errorName(() => env.step(0)), 'ResetNeeded', 'OrderEnforcing: step before reset');
  assert.equal(errorName(() => env.reset(42)), 'TypeError');
  assert.equal(errorName(() => env.reset({ seed: -1 })), 'ValueError');
  assert.equal(errorName(() => env.reset({ seed: 1.5 })), 'ValueError');
  assert.equal(errorName(() => env.reset({ seed: '1' })), 'TypeError');
  assert.equal(errorName(() => env.reset({ sed: 1 })), 'TypeError');
  assert.equal(errorName(() => env.reset({ options: { benchmark: 'benchmark://suite-v0/nope' } })), 'BenchmarkInitError');
  assert.equal(errorName(() => env.reset({ options: { nope: 1 } })), 'TypeError');
  env.reset({ seed: 2n });
  assert.equal(env.npRandomSeed, 2);
  assert.equal(errorName(() => env.step(999)), 'ValueError');
  assert.equal(errorName(() => env.step('-nope')), 'LookupError');
  assert.equal(errorName(() => env.step({})), 'TypeError');
  assert.equal(errorName(() => (env.unwrapped.actionSpace = null)), 'TypeError');
  assert.deepEqual(env.actions, [], 'nothing was applied');
  assert.equal(env.step(0).length, 5, 'still works');
});

test('TimeStep environments through TimeStepEnv: the bandits and CompilerTimeStepEnvironment', () => {
  for (const id of ['compgym/CompilerBandit-v0', 'compgym/StationaryBandit-v0']) {
    const env = gym.make(id);
    assert.ok(env.unwrapped instanceof gym.TimeStepEnv);
    const [observation, info] = env.reset({ seed: 3 });
    assert.ok(env.observationSpace.contains(observation), id);
    assert.deepEqual(env.reset({ seed: 3 })[0], observation, `${id}: seeded resets replay`);
    env.actionSpace.seed(0);
    const [next, reward, terminated, truncated] = env.step(env.actionSpace.sample());
    assert.ok(env.observationSpace.contains(next));
    assert.equal(typeof reward, 'number');
    assert.equal(terminated, true, 'every bandit step ends its episode (discount 0)');
    assert.equal(truncated, false);
    assert.equal(typeof info, 'object');
  }
  const compiler = new gym.TimeStepEnv(
    new compgym.CompilerTimeStepEnvironment('bril-autophase-ic-v0', { maxEpisodeSteps: 2, dataset: 'suite-v0' }),
  );
  const [observation, info] = compiler.reset({ seed: 4 });
  assert.ok(compiler.observationSpace.contains(observation));
  assert.match(info.benchmark, /^benchmark:\/\/suite-v0\//);
  assert.deepEqual(compiler.step(0).slice(2, 4), [false, false]);
  assert.deepEqual(compiler.step(0).slice(2, 4), [false, true], 'the step limit truncates (discount 1)');
  assert.throws(() => gym.make('compgym/CompilerBandit-v0', { batchSize: 4 }), { name: 'ValueError', message: /SyncVectorEnv/ });
  assert.throws(() => new gym.TimeStepEnv({}), { name: 'TypeError' });
});

/** A plain-JS environment: walk from 0 to a target drawn from npRandom. */
class Walk extends gym.Env {
  constructor({ size = 5 } = {}) {
    super();
    this.size = size;
    this.actionSpace = compgym.Space.discrete(2);
    this.observationSpace = compgym.Space.box({ low: 0, high: size, shape: [2], dtype: 'int32' });
  }
  reset(args) {
    super.reset(args);
    this.position = 0;
    this.target = Number(this.npRandom.integers(1, this.size + 1));
    return [Int32Array.of(this.position, this.target), {}];
  }
  step(action) {
    this.position = Math.max(0, this.position + (action === 1 ? 1 : -1));
    const terminated = this.position === this.target;
    return [Int32Array.of(this.position, this.target), terminated ? 1 : -0.1, terminated, false, {}];
  }
}

test('an environment written in plain JS, registered and made like any other', () => {
  gym.register('test/Walk-v0', { entryPoint: (options) => new Walk(options), maxEpisodeSteps: 20 });
  assert.throws(() => gym.register('test/Walk-v0', { entryPoint: () => new Walk() }), { name: 'ValueError' });
  assert.throws(() => gym.register('bril-ic-v0', { entryPoint: () => new Walk() }), { name: 'ValueError' });
  assert.throws(() => gym.register('test/Bad-v0', { entryPoint: 3 }), { name: 'TypeError' });
  assert.throws(() => gym.make('test/Walk-v0', { size: 'big' }).reset(), Error);
  const env = gym.make('test/Walk-v0', { size: 8 });
  assert.ok(env instanceof gym.TimeLimit && env.unwrapped instanceof Walk);
  assert.equal(env.spec.kwargs.size, 8);
  const [a] = env.reset({ seed: 11 });
  const samples = Array.from({ length: 8 }, () => env.actionSpace.sample());
  const [b] = env.reset({ seed: 11 });
  assert.deepEqual(a, b);
  assert.deepEqual(Array.from({ length: 8 }, () => env.actionSpace.sample()), samples, 'reset({seed}) seeds the action space too');
  let steps = 0;
  for (let done = false; !done; steps++) {
    const [, , terminated, truncated] = env.step(1);
    done = terminated || truncated;
  }
  assert.ok(steps <= 8);
});

test('every entry point rejects bad arguments with a typed error', () => {
  const env = () => gym.make('bril-ic-v0');
  const cases = [
    [() => gym.make(5), 'TypeError'],
    [() => gym.spec(null), 'TypeError'],
    [() => gym.register('', { entryPoint: () => env() }), 'TypeError'],
    [() => gym.register('test/X-v0', { entryPoint: () => env(), maxEpisodeSteps: -1 }), 'ValueError'],
    [() => gym.register('test/X-v0', { entryPoint: () => env(), kwargz: {} }), 'TypeError'],
    [() => gym.register('test/X-v0', { entryPoint: () => env(), kwargs: 3 }), 'TypeError'],
    [() => gym.make({ id: 'test/Y-v0', entryPoint: () => 3 }), 'TypeError'],
    [() => new gym.CompilerGymEnv(5), 'TypeError'],
    [() => new gym.CompilerGymEnv('bril-nope-v0'), 'LookupError'],
    [() => new gym.TimeStepEnv(null), 'TypeError'],
    [() => gym.specToSpace(3), 'TypeError'],
    [() => new gym.Wrapper(null), 'TypeError'],
    [() => new gym.TimeLimit(env(), '5'), 'ValueError'],
    [() => new gym.RecordEpisodeStatistics(env(), { statsKey: 3 }), 'ValueError'],
    [() => new gym.FlattenObservation(env()), 'TypeError'], // text has no flat form
    [() => new gym.TransformReward(env(), (r) => r).reset({ seed: 1.5 }), 'ValueError'],
    [() => new gym.TransformObservation(env(), 3), 'TypeError'],
    [() => new gym.CommandlineWithTerminalAction(gym.make('compgym/CompilerBandit-v0')), 'TypeError'],
    [() => new gym.ConstrainedCommandline(env(), 'dce'), 'TypeError'],
    [() => new gym.Counter({ step() {} }), 'TypeError'],
    [() => new gym.ForkOnStep(new gym.TimeStepEnv(new compgym.CompilerBandit({}))).step(0), 'TypeError'],
    [() => new gym.IterateOverBenchmarks(env(), 'benchmark://suite-v0/fib-iter'), 'TypeError'],
    [() => new gym.RandomOrderBenchmarks(env(), [], {}), 'ValueError'],
    [() => new gym.ValidateBenchmarkAfterEveryStep(env(), { rewardPenalty: NaN }), 'ValueError'],
    [() => gym.checkEnv(undefined), 'TypeError'],
    [() => new gym.SyncVectorEnv('bril-ic-v0'), 'TypeError'],
    [() => new gym.AsyncVectorEnv([{ module: 3 }]), 'TypeError'],
    [() => gym.makeVec('bril-ic-v0', { vectorizationMode: 'threads' }), 'ValueError'],
  ];
  for (const [call, name] of cases) assert.equal(errorName(call), name, call.toString());
  const still = env();
  still.reset();
  assert.equal(still.step(0).length, 5, 'the package keeps working');
});

test('an entry point may return a plain object with Gymnasium\'s methods', () => {
  const plain = () => {
    let n = 0;
    return {
      actionSpace: compgym.Space.discrete(2),
      observationSpace: compgym.Space.discrete(10),
      reset: () => [(n = 0), {}],
      step: () => [++n, 1, n >= 9, false, {}],
      close() {},
    };
  };
  gym.register('test/Plain-v0', { entryPoint: plain, maxEpisodeSteps: 3 });
  const env = gym.make('test/Plain-v0');
  assert.equal(env.unwrapped.spec.id, 'test/Plain-v0');
  env.reset();
  assert.deepEqual([env.step(0)[0], env.step(0)[0], env.step(0).slice(3, 4)], [1, 2, [true]]);
  const problems = gym.checkEnv(env.unwrapped);
  assert.deepEqual(
    [...new Set(problems.filter((p) => p.severity === 'error').map((p) => p.check))],
    ['reward-range', 'metadata'],
    'a plain object lacks what Env provides: the checker says so',
  );
});
