// compgym/gym's wrappers: each one's contract (after Gymnasium 1.x and
// CompilerGym), what it forwards, how it forks, and its typed errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nodeModules, withGymPage } from './gym-page.mjs';

const { gym, compgym } = await nodeModules();
const { Space } = compgym;

const FIB = 'benchmark://suite-v0/fib-iter';
const DEAD = 'benchmark://suite-v0/dead-code';
const ic = (options = {}) => gym.make('bril-ic-v0', { benchmark: DEAD, ...options });

test('TimeLimit truncates at the limit, restarts on reset, forks its count', () => {
  const env = new gym.TimeLimit(ic(), 3);
  assert.equal(env.unwrapped instanceof gym.CompilerGymEnv, true);
  env.reset();
  assert.deepEqual([env.step(0)[3], env.step(1)[3]], [false, false]);
  assert.throws(() => env.step(999), { name: 'ValueError' });
  assert.equal(env.elapsedSteps, 2, 'a failed step does not count');
  const fork = env.fork();
  assert.ok(fork instanceof gym.TimeLimit && fork.env !== env.env);
  assert.equal(fork.step(2)[3], true, 'the fork continues the count');
  assert.equal(env.step(2)[3], true);
  env.reset();
  assert.equal(env.step(0)[3], false);
  assert.equal(env.spec.maxEpisodeSteps, 3);
  assert.throws(() => new gym.TimeLimit(ic(), 0), { name: 'ValueError' });
  assert.throws(() => new gym.TimeLimit({}, 3), { name: 'TypeError' });
});

test('RecordEpisodeStatistics adds {r, l, t} to the last info and keeps queues', () => {
  const env = new gym.RecordEpisodeStatistics(new gym.TimeLimit(ic({ rewardSpace: 'IrInstructionCount' }), 3), { bufferLength: 2 });
  for (let episode = 0; episode < 3; episode++) {
    env.reset();
    let total = 0;
    let info;
    for (let t = 0; t < 3; t++) {
      const [, reward, , , i] = env.step(t);
      total += reward;
      info = i;
      if (t < 2) assert.equal(info.episode, undefined);
    }
    assert.equal(info.episode.r, total);
    assert.equal(info.episode.l, 3);
    assert.ok(info.episode.t >= 0);
  }
  assert.equal(env.episodeCount, 3);
  assert.equal(env.returnQueue.length, 2, 'bufferLength episodes kept');
  const fork = env.fork();
  fork.reset();
  fork.step(0);
  fork.step(0);
  fork.step(0);
  assert.equal(fork.returnQueue.length, 2);
  assert.notEqual(fork.returnQueue, env.returnQueue, 'the fork has its own queues');
  assert.throws(() => new gym.RecordEpisodeStatistics(ic(), { bufferLength: -1 }), { name: 'ValueError' });
  const clash = new gym.RecordEpisodeStatistics(new gym.TimeLimit(ic(), 1), { statsKey: 'actionHadNoEffect' });
  clash.reset();
  assert.throws(() => clash.step(0), { name: 'ValueError', message: /statsKey/ });
});

test('FlattenObservation flattens with the space\'s flatten and flattenSpace', () => {
  const inner = ic({ observationSpace: 'AutophaseDict' });
  const env = new gym.FlattenObservation(inner);
  assert.equal(env.observationSpace.type, 'Box');
  const [observation] = env.reset();
  assert.ok(ArrayBuffer.isView(observation));
  assert.ok(env.observationSpace.contains(observation));
  const [next] = env.step(0);
  assert.deepEqual(next, inner.observationSpace.flatten(inner.compilerEnv.observation.get('AutophaseDict')));
  assert.equal(env.observationSpace.flatdim, inner.observationSpace.flatdim);
});

test('TransformObservation, TransformReward and TransformAction apply JS functions', () => {
  const logSpace = Space.box({ low: 0, high: Infinity, shape: [60], dtype: 'float64' });
  let env = new gym.TransformObservation(
    ic({ observationSpace: 'Autophase' }),
    (x) => Float64Array.from(x, (v) => Math.log1p(Number(v))),
    logSpace,
  );
  env = new gym.TransformReward(env, (r) => 2 * r);
  env = new gym.TransformAction(env, (a) => a + 1, Space.discrete(17));
  assert.equal(env.actionSpace.n, 17);
  assert.ok(env.observationSpace.equals(logSpace));
  const [observation] = env.reset();
  assert.ok(observation instanceof Float64Array && logSpace.contains(observation));
  const reference = ic({ observationSpace: 'Autophase' });
  reference.reset();
  const [, expected] = reference.step(1);
  const [, reward] = env.step(0);
  assert.equal(reward, 2 * expected);
  assert.deepEqual(env.actions, [1], 'action 0 became pass 1');
  assert.throws(() => new gym.TransformReward(ic(), 'double'), { name: 'TypeError' });
  assert.throws(() => new gym.TransformObservation(ic(), (x) => x, {}), { name: 'TypeError' });
  assert.throws(() => new gym.TransformAction(ic(), null), { name: 'TypeError' });
});

test('Observation, Reward and Action wrapper bases: subclasses define one method', () => {
  class Count extends gym.ObservationWrapper {
    observation(ir) {
      return ir.split('\n').length;
    }
  }
  class Clip extends gym.RewardWrapper {
    reward(r) {
      return Math.max(-1, Math.min(1, r));
    }
  }
  class ByName extends gym.ActionWrapper {
    action(name) {
      return this.env.actionSpace.names.indexOf(name);
    }
  }
  const env = new ByName(new Clip(new Count(ic({ rewardSpace: 'IrInstructionCount' }))));
  const [lines] = env.reset();
  assert.equal(typeof lines, 'number');
  const [after, reward] = env.step('-dce');
  assert.ok(after < lines && reward === 1);
  class Lazy extends gym.ObservationWrapper {}
  assert.throws(() => new Lazy(ic()).reset(), { name: 'TypeError', message: /^NotImplemented/ });
  class NoReverse extends gym.ActionWrapper {}
  assert.throws(() => new NoReverse(ic()).reverseAction(0), { name: 'TypeError', message: /^NotImplemented/ });
});

test('CommandlineWithTerminalAction ends the episode on its terminal action', () => {
  const inner = ic({ observationSpace: 'IrInstructionCount' });
  const env = new gym.CommandlineWithTerminalAction(inner);
  const n = inner.actionSpace.flags.length;
  assert.equal(env.actionSpace.flags.length, n + 1);
  assert.equal(env.actionSpace.flags[n], '-end-of-episode');
  assert.equal(env.terminalAction, n);
  const [count] = env.reset();
  assert.throws(() => new gym.CommandlineWithTerminalAction(ic()).step(n), { name: 'SessionNotFound' });
  const [afterDce] = env.step(0);
  assert.ok(afterDce < count);
  const [observation, reward, terminated, truncated, info] = env.step(n);
  assert.deepEqual([observation, reward, terminated, truncated, info], [afterDce, 0, true, false, { terminalAction: true }]);
  assert.deepEqual(env.actions, [0], 'the terminal action ran nothing');
  assert.equal(env.fork().step(n)[2], true, 'the fork knows the terminal action');
  assert.equal(env.fork().step('-end-of-episode')[2], true, 'by flag too');
  assert.throws(
    () => new gym.CommandlineWithTerminalAction(new gym.TransformAction(ic(), (a) => a, Space.discrete(3))),
    { name: 'TypeError', message: /Commandline/ },
  );
});

test('ConstrainedCommandline keeps some flags and reads actions back', () => {
  const env = new gym.ConstrainedCommandline(ic(), ['-lvn', '-dce'], { name: 'local' });
  assert.deepEqual(env.actionSpace.flags, ['-lvn', '-dce']);
  assert.equal(env.actionSpace.name, 'ConstrainedCommandline<local, 2>');
  env.reset();
  env.step(1);
  env.step('-lvn');
  assert.deepEqual(env.unwrapped.actions, [0, 1], '-dce is 0 and -lvn 1 in the full space');
  assert.deepEqual(env.actions, [1, 0]);
  assert.equal(env.commandline(), '-dce -lvn');
  assert.throws(() => env.step(2), { name: 'ValueError' });
  assert.throws(() => env.step('-inline'), { name: 'LookupError' });
  assert.deepEqual(env.actions, [1, 0], 'bad actions applied nothing');
  const fork = env.fork();
  assert.ok(fork.actionSpace !== env.actionSpace && fork.actionSpace.equals(env.actionSpace), 'the fork has its own action space');
  fork.step(1);
  assert.deepEqual(fork.actions, [1, 0, 1]);
  assert.deepEqual(env.actions, [1, 0]);
  assert.throws(() => new gym.ConstrainedCommandline(ic(), []), { name: 'TypeError' });
  assert.throws(() => new gym.ConstrainedCommandline(ic(), ['-nope']), { name: 'LookupError' });
  assert.throws(() => new gym.ConstrainedCommandline(ic(), ['-dce', '-dce']), { name: 'ValueError' });
});

test('Counter counts close, reset, step and fork', () => {
  const env = new gym.Counter(ic());
  env.reset();
  env.step(0);
  env.step(1);
  const fork = env.fork();
  env.close();
  assert.deepEqual(env.counters, { close: 1, reset: 1, step: 2, fork: 1 });
  assert.ok(fork instanceof gym.OrderEnforcing && fork.unwrapped instanceof gym.CompilerGymEnv, 'as in CompilerGym, the fork is the wrapped environment\'s');
  assert.deepEqual(fork.actions, [0, 1]);
});

test('ForkOnStep undoes steps, and its fork can undo too', () => {
  const env = new gym.ForkOnStep(ic({ observationSpace: 'IrInstructionCount' }));
  env.reset();
  env.step(0);
  env.step(1);
  assert.equal(env.stack.length, 2);
  const fork = env.fork();
  assert.deepEqual(env.undo().actions, [0]);
  assert.deepEqual(env.actions, [0]);
  env.undo();
  assert.deepEqual(env.actions, []);
  assert.equal(env.undo(), null, 'nothing left to undo');
  assert.deepEqual(fork.actions, [0, 1]);
  fork.undo();
  assert.deepEqual(fork.actions, [0], 'the fork undoes on its own stack');
  assert.throws(() => env.step(999), { name: 'ValueError' });
  assert.equal(env.stack.length, 0, 'a failed step keeps no fork');
  env.step(0);
  env.reset();
  assert.equal(env.stack.length, 0, 'reset drops the forks');
  env.close();
  fork.close();
});

test('IterateOverBenchmarks and CycleOverBenchmarks choose the benchmark of each reset', () => {
  const list = [FIB, DEAD];
  const env = new gym.IterateOverBenchmarks(ic(), list);
  assert.equal(env.reset()[1].benchmark, FIB);
  const fork = env.fork();
  assert.equal(env.reset()[1].benchmark, DEAD);
  assert.throws(() => env.reset(), { name: 'LookupError', message: /exhausted/ });
  assert.equal(fork.reset()[1].benchmark, DEAD, 'a fork advances its own copy');
  assert.throws(() => fork.reset({ options: { benchmark: FIB } }), { name: 'TypeError' });
  const shared = new gym.IterateOverBenchmarks(ic(), list, { forkSharesIterator: true });
  const twin = shared.fork();
  shared.reset();
  assert.equal(twin.reset()[1].benchmark, DEAD, 'a fork sharing the iterator sees it advanced');
  const cycle = new gym.CycleOverBenchmarks(ic(), list);
  assert.deepEqual([0, 1, 2, 3, 4].map(() => cycle.reset()[1].benchmark), [FIB, DEAD, FIB, DEAD, FIB]);
  assert.throws(() => new gym.IterateOverBenchmarks(ic(), 42), { name: 'TypeError' });
  function* endless() {
    for (let i = 0; ; i++) yield i % 2 ? FIB : DEAD;
  }
  const stream = new gym.IterateOverBenchmarks(ic(), endless());
  assert.equal(stream.reset()[1].benchmark, DEAD);
});

test('RandomOrderBenchmarks draws with its own seeded generator', () => {
  const list = ['fib-iter', 'dead-code', 'power-mod', 'palindromes', 'gcd-lcm'].map((p) => `benchmark://suite-v0/${p}`);
  const draws = (env, n) => Array.from({ length: n }, () => env.reset()[1].benchmark);
  const a = new gym.RandomOrderBenchmarks(ic(), list, { seed: 3 });
  const b = new gym.RandomOrderBenchmarks(ic(), list, { seed: 3 });
  const seq = draws(a, 10);
  assert.deepEqual(draws(b, 10), seq);
  assert.ok(new Set(seq).size > 1);
  const fork = a.fork();
  assert.deepEqual(draws(fork, 5), draws(a, 5), 'the fork draws from a copy of the generator');
  const first = a.reset({ seed: 99 })[1].benchmark;
  assert.equal(b.reset({ seed: 99 })[1].benchmark, first, 'reset({seed}) reseeds the draws');
  assert.throws(() => new gym.RandomOrderBenchmarks(ic(), []), { name: 'ValueError' });
  assert.throws(() => new gym.RandomOrderBenchmarks(ic(), list, { seed: -2 }), { name: 'ValueError' });
});

test('ValidateBenchmarkAfterEveryStep validates and penalises a broken program', () => {
  const env = new gym.ValidateBenchmarkAfterEveryStep(ic({ rewardSpace: 'IrInstructionCount' }), { rewardPenalty: -5 });
  env.reset();
  const [, reward, terminated] = env.step(0);
  assert.ok(reward > 0 && !terminated, 'a correct pass validates');
  // An environment whose validation fails: a plain-JS one with CompilerGym's validate().
  class Breaks extends gym.Env {
    constructor() {
      super();
      this.actionSpace = Space.discrete(2);
      this.observationSpace = Space.discrete(2);
    }
    reset(args) {
      super.reset(args);
      this.broken = false;
      return [0, {}];
    }
    step(action) {
      this.broken ||= action === 1;
      return [action, 1, false, false, {}];
    }
    validate() {
      return this.broken ? { okay: false, errors: [{ kind: 'Semantics', details: 'output differs' }] } : { okay: true, errors: [] };
    }
  }
  const checked = new gym.ValidateBenchmarkAfterEveryStep(new Breaks(), { rewardPenalty: -5 });
  checked.reset();
  assert.deepEqual(checked.step(0), [0, 1, false, false, {}]);
  assert.deepEqual(checked.step(1), [1, -5, true, false, { errorDetails: { kind: 'Semantics', details: 'output differs' } }]);
  assert.throws(() => new gym.ValidateBenchmarkAfterEveryStep(ic(), { rewardPenalty: 'x' }), { name: 'ValueError' });
});

test('a stack forwards what it does not change, down to the compiler environment', () => {
  let env = gym.make('bril-ic-v0', { benchmark: FIB, maxEpisodeSteps: 8 });
  env = new gym.RecordEpisodeStatistics(new gym.ForkOnStep(new gym.Counter(env)));
  env.reset({ seed: 1 });
  env.step(0);
  assert.equal(env.benchmark, FIB);
  assert.deepEqual(env.actions, [0]);
  assert.equal(env.commandline(), '-dce');
  assert.equal(env.episodeReward, env.unwrapped.episodeReward);
  assert.equal(env.spec.id, 'bril-ic-v0');
  assert.equal(env.npRandomSeed, 1);
  assert.equal(env.getWrapperAttr('counters').step, 1);
  assert.equal(env.getWrapperAttr('stack').length, 1);
  assert.throws(() => env.getWrapperAttr('nope'), { name: 'LookupError' });
  assert.ok(env.compilerEnv.observation.get('IrInstructionCount') > 0);
  assert.equal(String(env), 'RecordEpisodeStatistics<ForkOnStep<Counter<TimeLimit<OrderEnforcing<PassiveEnvChecker<CompilerGymEnv<bril-ic-v0>>>>>>>');
  const fork = env.fork();
  assert.ok(fork instanceof gym.RecordEpisodeStatistics && fork.env instanceof gym.ForkOnStep);
  assert.deepEqual(fork.actions, [0]);
  assert.throws(() => new gym.TimeStepEnv(new compgym.CompilerBandit({})).fork(), { name: 'TypeError', message: /^NotImplemented/ });
});

test('wrappers run in Chromium too', async () => {
  await withGymPage(async (run) => {
    const out = await run(({ gym }) => {
      let env = gym.make('bril-ic-v0', { benchmark: 'benchmark://suite-v0/dead-code', observationSpace: 'IrInstructionCount' });
      env = new gym.ConstrainedCommandline(env, ['-dce', '-lvn']);
      env = new gym.CommandlineWithTerminalAction(env);
      env = new gym.RecordEpisodeStatistics(new gym.TimeLimit(env, 5));
      const [first] = env.reset({ seed: 1 });
      const [after] = env.step(0);
      const [, , terminated, , info] = env.step(2);
      return { first, after, terminated, episode: info.episode.l, actions: env.actions };
    });
    assert.ok(out.after < out.first);
    assert.deepEqual([out.terminated, out.episode, out.actions], [true, 2, [0]]);
  });
});
