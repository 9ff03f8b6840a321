// The ML-ready face: Gymnasium 1.x's masked and weighted sampling, the
// action mask of infos (single and vector environments), the mlReady option
// and the DtypeObservation, Log1pObservation, NormalizeObservation and
// NormalizeReward wrappers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nodeModules } from './gym-page.mjs';

const { gym, compgym } = await nodeModules();
const { Space } = compgym;

const ID = 'bril-autophase-ic-v0';
const SUITE = { dataset: 'benchmark://suite-v0' };
const throwsNamed = (f, name, pattern) => assert.throws(f, (e) => e.name === name && (!pattern || pattern.test(e.message)), `expected a ${name}`);

test('Discrete-like spaces sample within a mask, by probabilities, and start when nothing is allowed', () => {
  const d = Space.discrete(5, { start: 10 });
  d.seed(1);
  const drawn = new Set(Array.from({ length: 100 }, () => d.sample(new Uint8Array([0, 1, 0, 1, 0]))));
  assert.deepEqual([...drawn].sort(), [11, 13]);
  assert.equal(d.sample([0, 0, 0, 0, 0]), 10, "Gymnasium returns start when the mask allows nothing");
  assert.equal(d.sample({ mask: Int8Array.of(0, 0, 1, 0, 0) }), 12);
  assert.equal(d.sample({ probability: [0, 0, 0, 0, 1] }), 14);
  assert.equal(d.sample({ probability: Float64Array.of(0, 0.5, 0, 0.5, 0) }) % 2, 1);
  const a = Space.discrete(5);
  const b = Space.discrete(5);
  a.seed(7);
  b.seed(7);
  const mask = [1, 1, 0, 1, 1];
  assert.deepEqual(
    Array.from({ length: 20 }, () => a.sample(mask)),
    Array.from({ length: 20 }, () => b.sample(mask)),
    'seeded masked sampling replays',
  );
  const named = Space.namedDiscrete(['a', 'b', 'c']);
  assert.equal(named.sample([false, false, true]), 2, 'booleans are 0/1');
});

test('MultiDiscrete takes a mask per element or one of all; MultiBinary 0, 1 or 2', () => {
  const m = Space.multiDiscrete([2, 3], { start: [0, 5], dtype: 'int32' });
  m.seed(3);
  assert.deepEqual(m.sample([[0, 1], [0, 0, 0]]), Int32Array.of(1, 5));
  assert.deepEqual(m.sample(Uint8Array.of(0, 1, 0, 0, 1)), Int32Array.of(1, 7));
  assert.deepEqual(m.sample({ probability: [[1, 0], [0, 1, 0]] }), Int32Array.of(0, 6));
  const bits = Space.multiBinary(4);
  bits.seed(2);
  assert.deepEqual(bits.sample([0, 1, 1, 0]), Int8Array.of(0, 1, 1, 0));
  const firsts = new Set(Array.from({ length: 40 }, () => bits.sample([2, 0, 0, 0])[0]));
  assert.deepEqual([...firsts].sort(), [0, 1], 'mask value 2 draws the bit');
  assert.deepEqual(bits.sample({ probability: [1, 0, 1, 0] }), Int8Array.of(1, 0, 1, 0));
  const [rng, value] = m.sampleWith(new compgym.Rng(1), [[1, 0], [0, 0, 1]]);
  assert.ok(rng instanceof compgym.Rng);
  assert.deepEqual(value, Int32Array.of(0, 7));
});

test('a wrong mask or probability is a typed error and leaves the space as it was', () => {
  const d = Space.discrete(3);
  d.seed(5);
  const reference = Space.discrete(3);
  reference.seed(5);
  throwsNamed(() => d.sample([1, 0]), 'ValueError', /mask has 2 values, the space needs 3/);
  throwsNamed(() => d.sample([1, 0, 2]), 'ValueError', /0 or 1/);
  throwsNamed(() => d.sample([1, 0, -1]), 'ValueError');
  throwsNamed(() => d.sample({ probability: [0.5, 0.6, -0.1] }), 'ValueError', /\[0, 1\]/);
  throwsNamed(() => d.sample({ probability: [0.5, 0.4, 0] }), 'ValueError', /sum to 1/);
  throwsNamed(() => d.sample({ mask: [1, 1, 1], probability: [1, 0, 0] }), 'ValueError', /only one/);
  throwsNamed(() => d.sample(new Float32Array(3)), 'TypeError', /Uint8Array/);
  throwsNamed(() => d.sample({ probability: new Int32Array(3) }), 'TypeError', /Float64Array/);
  throwsNamed(() => d.sample('mask'), 'TypeError');
  throwsNamed(() => d.sample({ weights: [1, 0, 0] }), 'TypeError', /unknown option "weights"/);
  throwsNamed(() => Space.box({ low: 0, high: 1, shape: [2] }).sample([1, 1]), 'TypeError', /mask or probability/);
  assert.equal(d.sample(), reference.sample(), 'no error drew from the generator');
});

test('reset and step infos carry the action mask, and sampling with it skips known no-ops', () => {
  const env = gym.make(ID, { ...SUITE, maxEpisodeSteps: 20 });
  const [, info] = env.reset({ seed: 3, options: { benchmark: 'benchmark://suite-v0/fib-iter' } });
  assert.ok(info.actionMask instanceof Uint8Array && info.actionMask.length === env.actionSpace.n);
  let step = env.step('-dce');
  if (!step[4].actionHadNoEffect) step = env.step('-dce');
  const dce = env.actionSpace.get('-dce');
  assert.equal(step[4].actionHadNoEffect, true);
  assert.equal(step[4].actionMask[dce], 0, '-dce is known to do nothing here');
  for (let i = 0; i < 50; i++) assert.notEqual(env.actionSpace.sample(step[4].actionMask), dce);
  const compilerStep = env.compilerEnv.step(dce);
  assert.equal(compilerStep.info.actionMask[dce], 0, "CompilerEnv.step's info has the mask too");
  env.close();
});

test('vector infos batch the masks into one Uint8Array and the batched space samples with it', () => {
  const envs = gym.makeVec(ID, { numEnvs: 3, options: { ...SUITE, maxEpisodeSteps: 4 } });
  const [, infos] = envs.reset({ seed: 1 });
  assert.ok(infos.actionMask instanceof Uint8Array && infos.actionMask.length === 3 * 32);
  assert.deepEqual(Array.from(infos._actionMask), [1, 1, 1]);
  const actions = envs.actionSpace.sample(infos.actionMask);
  assert.ok(actions instanceof BigInt64Array && actions.length === 3);
  const [, , , , next] = envs.step(actions);
  for (let i = 0; i < 3; i++) {
    const row = next.actionMask.subarray(i * 32, (i + 1) * 32);
    if (next.actionHadNoEffect[i]) assert.equal(row[Number(actions[i])], 0, `environment ${i}'s no-op is masked`);
  }
  envs.close();
});

test('make(id, {mlReady: true}) observes Float32Arrays of ln(1 + counts) and rewards numbers', () => {
  const raw = gym.make(ID, SUITE);
  const ready = gym.make(ID, { ...SUITE, mlReady: true });
  const [counts] = raw.reset({ seed: 4 });
  const [observation, info] = ready.reset({ seed: 4 });
  assert.ok(observation instanceof Float32Array && observation.length === counts.length);
  counts.forEach((c, i) => assert.equal(observation[i], Math.fround(Math.log1p(Number(c)))));
  assert.ok(ready.observationSpace.contains(observation));
  assert.equal(ready.observationSpace.toJSON().dtype, 'float32');
  const [, reward] = ready.step(ready.actionSpace.sample(info.actionMask));
  assert.equal(typeof reward, 'number');
  const norm = gym.make('bril-ic-v0', { observationSpace: 'InstCountNorm', mlReady: true });
  assert.ok(norm.reset({ seed: 0 })[0] instanceof Float32Array, 'float observations are cast, not log-scaled');
  throwsNamed(() => gym.make('bril-ic-v0', { mlReady: 'yes' }), 'TypeError', /mlReady must be a boolean/);
  throwsNamed(() => gym.make('bril-v0', { mlReady: true }), 'TypeError', /observation space/);
  assert.ok(ready.step(0), 'the environment still works');
});

test('makeVec(id, {mlReady: true}) batches Float32Arrays and samples Int32Array actions', () => {
  const envs = gym.makeVec(ID, { numEnvs: 2, mlReady: true, options: { ...SUITE, maxEpisodeSteps: 3 } });
  const [observations, infos] = envs.reset({ seed: 2 });
  assert.ok(observations instanceof Float32Array && observations.length === 2 * 60);
  envs.actionSpace.seed(2);
  const actions = envs.actionSpace.sample(infos.actionMask);
  assert.ok(actions instanceof Int32Array && actions.length === 2);
  const [next, rewards] = envs.step(actions);
  assert.ok(next instanceof Float32Array && rewards instanceof Float32Array);
  envs.step([0, 1]);
  envs.step(Int32Array.of(2, 3));
  throwsNamed(() => new gym.SyncVectorEnv([() => gym.make(ID)], { rewardDtype: 'int8' }), 'ValueError', /float64, float32/);
  throwsNamed(() => new gym.SyncVectorEnv([() => gym.make(ID)], { rewardType: 'float32' }), 'TypeError', /unknown option/);
  throwsNamed(() => gym.makeVec(ID, { mlReady: 1 }), 'TypeError');
  envs.close();
});

test('DtypeObservation converts, and names the dtypes it knows when given another', () => {
  const env = new gym.DtypeObservation(gym.make(ID, SUITE), 'float64');
  const [observation] = env.reset({ seed: 0 });
  assert.ok(observation instanceof Float64Array && env.observationSpace.contains(observation));
  const ints = new gym.DtypeObservation(gym.make(ID, SUITE), 'int32');
  assert.ok(ints.reset({ seed: 0 })[0] instanceof Int32Array);
  const big = new gym.DtypeObservation(gym.make(ID, SUITE), 'int64');
  const [exact] = big.reset({ seed: 0 });
  assert.ok(exact instanceof BigInt64Array && big.observationSpace.contains(exact));
  const bytes = new gym.DtypeObservation(gym.make(ID, SUITE), 'int8');
  assert.ok(bytes.observationSpace.contains(bytes.reset({ seed: 0 })[0]), 'values and bounds saturate alike');
  throwsNamed(() => new gym.DtypeObservation(gym.make(ID), 'float16'), 'ValueError', /float32, float64, int8/);
  throwsNamed(() => new gym.DtypeObservation(gym.make(ID), 32), 'TypeError');
  throwsNamed(() => new gym.Log1pObservation(gym.make(ID), { dtype: 'int8' }), 'ValueError', /float32, float64/);
  throwsNamed(() => new gym.Log1pObservation(gym.make(ID), { scale: 2 }), 'TypeError', /unknown option/);
});

test('NormalizeObservation and NormalizeReward keep Gymnasium running statistics', () => {
  const env = new gym.NormalizeReward(new gym.NormalizeObservation(gym.make(ID, SUITE)), { gamma: 0.5 });
  const raw = gym.make(ID, SUITE);
  const [counts] = raw.reset({ seed: 8 });
  const [first] = env.reset({ seed: 8 });
  // One sample merged into the prior (mean 0, var 1, count 1e-4), as Gymnasium's RunningMeanStd.
  const x = Number(counts[0]);
  const total = 1 + 1e-4;
  const mean = x / total;
  const variance = (1e-4 + (x * x * 1e-4) / total) / total;
  assert.equal(first[0], Math.fround((x - mean) / Math.sqrt(variance + 1e-8)));
  const inner = env.env;
  let discounted = 0;
  const returns = [];
  for (let t = 0; t < 4; t++) {
    const [, reward, terminated] = env.step(t);
    const [, rawReward] = raw.step(t);
    discounted = discounted * 0.5 * (terminated ? 0 : 1) + rawReward;
    returns.push(discounted);
    assert.ok(Number.isFinite(reward));
  }
  const rms = new gym.RunningMeanStd(1);
  returns.forEach((r) => rms.update([r]));
  assert.deepEqual(Array.from(env.returnRms.var), Array.from(rms.var));
  const fork = env.fork();
  assert.notEqual(fork.returnRms, env.returnRms, 'a fork has its own statistics');
  inner.updateRunningMean = false;
  const count = inner.obsRms.count;
  env.step(0);
  assert.equal(inner.obsRms.count, count, 'frozen statistics');
  throwsNamed(() => new gym.NormalizeReward(raw, { gamma: 2 }), 'ValueError', /gamma/);
  throwsNamed(() => new gym.NormalizeObservation(raw, { epsilon: 0 }), 'ValueError', /epsilon/);
  throwsNamed(() => new gym.NormalizeObservation(gym.make('bril-v0')), 'TypeError');
});

test('the Commandline wrappers keep the action mask over their own action space', () => {
  const inner = gym.make('bril-ic-v0', { benchmark: 'benchmark://suite-v0/fib-iter' });
  const constrained = new gym.ConstrainedCommandline(inner, ['-dce', '-lvn']);
  const [, info] = constrained.reset({ seed: 0 });
  assert.deepEqual(info.actionMask, Uint8Array.of(1, 1));
  let step = constrained.step(0);
  if (!step[4].actionHadNoEffect) step = constrained.step(0);
  assert.equal(step[4].actionMask[0], 0, '-dce did nothing');
  assert.equal(constrained.actionSpace.sample(step[4].actionMask), 1);
  const terminal = new gym.CommandlineWithTerminalAction(gym.make('bril-ic-v0'));
  const [, first] = terminal.reset({ seed: 0 });
  assert.equal(first.actionMask.length, terminal.actionSpace.n);
  assert.equal(first.actionMask[terminal.terminalAction], 1, 'the terminal action is always allowed');
});

test('an async mlReady vector environment batches the same arrays from its workers', async () => {
  const options = { ...SUITE, maxEpisodeSteps: 3 };
  const remote = gym.makeVec(ID, { numEnvs: 2, vectorizationMode: 'async', mlReady: true, options });
  const local = gym.makeVec(ID, { numEnvs: 2, mlReady: true, options });
  try {
    const [observations, infos] = await remote.reset({ seed: 6 });
    const [expected, expectedInfos] = local.reset({ seed: 6 });
    assert.deepEqual(observations, expected);
    assert.deepEqual(infos.actionMask, expectedInfos.actionMask);
    const actions = Int32Array.of(0, 1);
    const [, rewards, , , stepInfos] = await remote.step(actions);
    const [, expectedRewards] = local.step(actions);
    assert.ok(rewards instanceof Float32Array);
    assert.deepEqual(rewards, expectedRewards);
    assert.ok(stepInfos.actionMask instanceof Uint8Array && stepInfos.actionMask.length === 64);
    assert.ok(remote.actionSpace.sample(stepInfos.actionMask) instanceof Int32Array);
  } finally {
    await remote.close();
    local.close();
  }
});
