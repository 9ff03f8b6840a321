// Gymnasium 1.x's vector wrappers in compgym/gym (issue 25): VectorEnv and
// the wrapper bases, the Vectorize* wrappers, RecordEpisodeStatistics,
// NormalizeObservation and NormalizeReward, over SyncVectorEnv,
// AsyncVectorEnv (worker threads) and a vector environment written in JS.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nodeModules } from './gym-page.mjs';

const { gym, compgym } = await nodeModules();
const { Space } = compgym;

const FEATURES = 60;
const SUITE = { dataset: 'benchmark://suite-v0', maxEpisodeSteps: 2 };
const autophase = () => gym.make('bril-autophase-ic-v0', SUITE);
const syncEnvs = (n = 2, options = {}) => new gym.SyncVectorEnv(Array.from({ length: n }, () => autophase), options);

/**
 * A vector environment written in JS: counter i adds action × (i + 1) to
 * itself, observes [count] and is rewarded the count; it ends at `limit`
 * steps (truncated), with next-step autoreset.
 */
class Counters extends gym.VectorEnv {
  constructor(n, limit = 3) {
    super();
    this.numEnvs = n;
    this.limit = limit;
    this.singleObservationSpace = Space.box({ low: -1000, high: 1000, shape: [1], dtype: 'float64' });
    this.singleActionSpace = Space.box({ low: -1, high: 1, shape: [1], dtype: 'float64' });
    this.observationSpace = Space.batched(this.singleObservationSpace, [n]);
    this.actionSpace = Space.batched(this.singleActionSpace, [n]);
    this.metadata = { autoresetMode: 'NextStep' };
    this.closes = 0;
  }
  reset(args) {
    super.reset(args);
    this.counts = new Float64Array(this.numEnvs);
    this.steps = new Int32Array(this.numEnvs);
    this.done = new Uint8Array(this.numEnvs);
    return [Float64Array.from(this.counts), {}];
  }
  step(actions) {
    const rewards = new Float64Array(this.numEnvs);
    const truncations = new Uint8Array(this.numEnvs);
    for (let i = 0; i < this.numEnvs; i++) {
      if (this.done[i]) {
        [this.counts[i], this.steps[i], this.done[i]] = [0, 0, 0];
        continue;
      }
      this.counts[i] += actions[i] * (i + 1);
      this.steps[i] += 1;
      rewards[i] = this.counts[i];
      truncations[i] = this.done[i] = this.steps[i] >= this.limit ? 1 : 0;
    }
    return [Float64Array.from(this.counts), rewards, new Uint8Array(this.numEnvs), truncations, {}];
  }
  closeExtras() {
    this.closes += 1;
  }
}

test('SyncVectorEnv, AsyncVectorEnv and JS vector environments are VectorEnvs', async () => {
  const envs = syncEnvs();
  assert.ok(envs instanceof gym.VectorEnv);
  assert.equal(envs.unwrapped, envs);
  const remote = new gym.AsyncVectorEnv(['bril-ic-v0'], { workers: 1 });
  assert.ok(remote instanceof gym.VectorEnv);
  await remote.close();

  const counters = new Counters(2);
  counters.reset({ seed: 5 });
  assert.equal(counters.npRandomSeed, 5, 'reset({seed}) seeds the vector environment\'s npRandom');
  counters.close();
  counters.close();
  assert.equal(counters.closes, 1, 'closeExtras runs once');
  assert.equal(counters.closed, true);
  assert.throws(() => new gym.VectorEnv().step([]), { name: 'TypeError', message: /NotImplemented/ });
});

test('the wrapper bases forward what they do not change and transform what they do', () => {
  class Doubled extends gym.VectorObservationWrapper {
    observations(observations) {
      return observations.map((x) => 2 * x);
    }
  }
  class Negated extends gym.VectorRewardWrapper {
    rewards(rewards) {
      return rewards.map((r) => -r);
    }
  }
  class Halved extends gym.VectorActionWrapper {
    actions(actions) {
      return actions.map((a) => a / 2);
    }
  }
  const inner = new Counters(2);
  const env = new Halved(new Negated(new Doubled(inner)));
  assert.equal(String(env), 'Halved<Negated<Doubled<Counters(numEnvs=2)>>>');
  assert.equal(env.numEnvs, 2);
  assert.equal(env.unwrapped, inner);
  assert.equal(env.singleObservationSpace, inner.singleObservationSpace);
  assert.equal(env.metadata.autoresetMode, 'NextStep');
  env.reset();
  const [observations, rewards] = env.step(Float64Array.of(1, 1));
  assert.deepEqual([observations, rewards], [Float64Array.of(1, 2), Float64Array.of(-0.5, -1)]);
  env.close();
  assert.equal(env.closed, true);
  const bare = new gym.VectorObservationWrapper(new Counters(1));
  assert.throws(() => bare.reset(), { name: 'TypeError', message: /must define observations/ });
  assert.throws(() => new Doubled(autophase()), { name: 'TypeError', message: /vector environment/ });
  const sameStep = new Counters(1);
  sameStep.metadata = { autoresetMode: 'SameStep' };
  assert.throws(() => new Doubled(sameStep), { name: 'ValueError', message: /NextStep or Disabled/ });
});

test('vector TransformObservation, TransformReward and TransformAction apply a function to the batch', () => {
  const single = Space.box({ low: -2000, high: 2000, shape: [1], dtype: 'float64' });
  const observed = new gym.vector.TransformObservation(new Counters(2), (o) => o.map((x) => 2 * x), null, single);
  assert.equal(observed.singleObservationSpace, single);
  assert.equal(String(observed.observationSpace), String(Space.batched(single, [2])));
  const rewarded = new gym.vector.TransformReward(observed, (r) => r.map((x) => x - 1));
  const acted = new gym.vector.TransformAction(rewarded, (a) => a.map((x) => -x));
  acted.reset();
  const [observations, rewards] = acted.step(Float64Array.of(1, 1));
  assert.deepEqual([observations, rewards], [Float64Array.of(-2, -4), Float64Array.of(-2, -3)]);
  assert.throws(() => new gym.vector.TransformReward(new Counters(1), 'f'), { name: 'TypeError' });
  assert.throws(() => new gym.vector.TransformObservation(new Counters(1), (o) => o, {}), { name: 'TypeError' });
});

test('DictInfoToList gives one info per environment, with the keys it set', () => {
  const envs = new gym.vector.DictInfoToList(syncEnvs(2));
  const [, infos] = envs.reset({ seed: 1 });
  assert.ok(Array.isArray(infos) && infos.length === 2);
  const single = autophase();
  const [, info] = single.reset({ seed: 2 });
  assert.deepEqual(infos[1], info, 'environment 1\'s info as it gave it');
  const [, , , , stepInfos] = envs.step([0, 1]);
  assert.deepEqual(Object.keys(stepInfos[0]).sort(), ['actionHadNoEffect', 'actionMask', 'newActionSpace']);
  assert.ok(stepInfos[0].actionMask instanceof Uint8Array && stepInfos[0].actionMask.length === envs.singleActionSpace.n);
});

const row = (batch, i, size = FEATURES) => batch.subarray(i * size, (i + 1) * size);

test('VectorizeTransformObservation applies a single-env wrapper to each observation', () => {
  const envs = new gym.vector.VectorizeTransformObservation(syncEnvs(3), gym.Log1pObservation, { dtype: 'float64' });
  assert.equal(String(envs.singleObservationSpace), String(new gym.Log1pObservation(autophase(), { dtype: 'float64' }).observationSpace));
  const [observations] = envs.reset({ seed: 4 });
  assert.ok(observations instanceof Float64Array && observations.length === 3 * FEATURES);
  assert.ok(envs.observationSpace.contains(observations));
  for (let i = 0; i < 3; i++) {
    const single = new gym.Log1pObservation(autophase(), { dtype: 'float64' });
    assert.deepEqual(row(observations, i), single.reset({ seed: 4 + i })[0]);
  }
  const [next] = envs.step([0, 1, 2]);
  assert.ok(envs.observationSpace.contains(next));

  const flat = new gym.vector.FlattenObservation(new gym.vector.DtypeObservation(syncEnvs(2), 'float32'));
  assert.ok(flat.reset({ seed: 1 })[0] instanceof Float32Array);
  assert.throws(() => new gym.vector.VectorizeTransformObservation(syncEnvs(1), 'Log1pObservation'), { name: 'TypeError' });

  const bandits = new gym.vector.FilterObservation(new gym.SyncVectorEnv(['compgym/StationaryBandit-v0', 'compgym/StationaryBandit-v0']), ['global']);
  const [contexts] = bandits.reset({ seed: 1 });
  assert.deepEqual(Object.keys(contexts), ['global']);
  assert.ok(contexts.global instanceof Float64Array && contexts.global.length === 2 * 2);
  assert.ok(bandits.observationSpace.contains(contexts));
});

test('VectorizeTransformReward and vector ClipReward transform each reward', () => {
  const envs = new gym.vector.ClipReward(new Counters(3), { minReward: 0, maxReward: 1.5 });
  envs.reset();
  assert.deepEqual(envs.step(Float64Array.of(1, 1, 1))[1], Float64Array.of(1, 1.5, 1.5));
  assert.deepEqual(envs.step(Float64Array.of(-1, -1, -1))[1], Float64Array.of(0, 0, 0));
  const scaled = new gym.vector.VectorizeTransformReward(new Counters(2), gym.TransformReward, (r) => 10 * r);
  scaled.reset();
  assert.deepEqual(scaled.step(Float64Array.of(1, 1))[1], Float64Array.of(10, 20));
  assert.throws(() => new gym.vector.ClipReward(new Counters(2), {}), { name: 'ValueError' });
});

test('VectorizeTransformAction and vector ClipAction, RescaleAction transform each action', () => {
  const clipped = new gym.vector.ClipAction(new Counters(2));
  assert.equal(String(clipped.singleActionSpace), 'Box(Box, low=-inf, high=inf, shape=(1,), dtype=float64)');
  clipped.reset();
  assert.deepEqual(clipped.step(Float64Array.of(5, -0.5))[0], Float64Array.of(1, -1));
  const rescaled = new gym.vector.RescaleAction(new Counters(2), 0, 4);
  rescaled.reset();
  assert.deepEqual(rescaled.step(Float64Array.of(4, 1))[0], Float64Array.of(1, -1), '[0, 4] onto [-1, 1]');
  assert.ok(rescaled.actionSpace.contains(Float64Array.of(0, 4)));
  assert.throws(() => rescaled.step(Float64Array.of(1)), { name: 'ValueError' });
  const passes = new gym.vector.VectorizeTransformAction(syncEnvs(2), gym.TransformAction, (a) => a + 1);
  passes.reset({ seed: 1 });
  passes.step([0, 4]);
  assert.deepEqual(passes.getAttr('actions'), [[1], [5]]);
});

test('vector RecordEpisodeStatistics records each finished episode, next-step resets not counted', () => {
  const envs = new gym.vector.RecordEpisodeStatistics(new Counters(2, 2), { bufferLength: 3 });
  envs.reset();
  let [, , , , infos] = envs.step(Float64Array.of(1, 1));
  assert.equal(infos.episode, undefined);
  [, , , , infos] = envs.step(Float64Array.of(1, 1));
  assert.deepEqual(infos.episode.r, Float64Array.of(1 + 2, 2 + 4));
  assert.deepEqual(infos.episode.l, Int32Array.of(2, 2));
  assert.ok(infos.episode.t.every((t) => t >= 0));
  assert.deepEqual(infos._episode, Uint8Array.of(1, 1));
  [, , , , infos] = envs.step(Float64Array.of(1, 1)); // the autoreset step
  assert.equal(infos.episode, undefined);
  envs.step(Float64Array.of(0.5, 0.5));
  [, , , , infos] = envs.step(Float64Array.of(0.5, 0.5));
  assert.deepEqual(infos.episode.r, Float64Array.of(0.5 + 1, 1 + 2), 'the reset step adds nothing');
  assert.equal(envs.episodeCount, 4);
  assert.deepEqual(envs.returnQueue, [6, 1.5, 3], 'the last bufferLength episodes');
  assert.deepEqual(envs.lengthQueue, [2, 2, 2]);
  assert.throws(() => new gym.vector.RecordEpisodeStatistics(new Counters(1), { bufferLength: 0 }), { name: 'ValueError' });
});

test('vector RecordEpisodeStatistics over compiler environments, sync and async alike', async () => {
  const sync = new gym.vector.RecordEpisodeStatistics(syncEnvs(2, {}));
  const remote = new gym.AsyncVectorEnv(Array(2).fill({ id: 'bril-autophase-ic-v0', options: SUITE }), { workers: 1 });
  await remote.ready;
  const async = new gym.vector.RecordEpisodeStatistics(new gym.vector.VectorizeTransformObservation(remote, gym.Log1pObservation));
  try {
    const [syncFirst] = sync.reset({ seed: 3 });
    const pending = async.reset({ seed: 3 });
    assert.ok(pending instanceof Promise, 'over an AsyncVectorEnv, wrappers return promises');
    const [asyncFirst] = await pending;
    assert.deepEqual(asyncFirst, Float32Array.from(syncFirst, (x) => Math.log1p(Number(x))));
    sync.step([0, 1]);
    await async.step([0, 1]);
    const [, , , syncTruncated, syncInfos] = sync.step([2, 3]);
    const [, , , asyncTruncated, asyncInfos] = await async.step([2, 3]);
    assert.deepEqual([syncTruncated, asyncTruncated], [Uint8Array.of(1, 1), Uint8Array.of(1, 1)]);
    assert.deepEqual(syncInfos.episode.l, Int32Array.of(2, 2));
    assert.deepEqual(asyncInfos.episode.r, syncInfos.episode.r);
  } finally {
    await async.close();
    sync.close();
  }
});

/** Gymnasium's RunningMeanStd, updated with batches of rows, by the definition: the mean and variance of every row so far (plus its count 1e-4 prior). */
function moments(rows) {
  const mean = rows.reduce((a, b) => a + b, 0) / rows.length;
  return { mean, variance: rows.reduce((a, b) => a + (b - mean) ** 2, 0) / rows.length };
}

test('vector NormalizeObservation normalizes by the running moments of every environment\'s observations', () => {
  const envs = new gym.vector.NormalizeObservation(new Counters(2, 10));
  assert.equal(String(envs.singleObservationSpace), 'Box(Box, low=-inf, high=inf, shape=(1,), dtype=float32)');
  const seen = [0, 0];
  envs.reset();
  const actions = [Float64Array.of(1, 1), Float64Array.of(1, -1), Float64Array.of(0.5, 0.25)];
  let observations;
  let counts = [0, 0];
  for (const a of actions) {
    counts = counts.map((c, i) => c + a[i] * (i + 1));
    seen.push(...counts);
    [observations] = envs.step(a);
  }
  const { mean, variance } = moments(seen);
  // The 1e-4 prior count (mean 0, variance 1) moves the moments by about 1e-5.
  assert.ok(Math.abs(envs.obsRms.mean[0] - mean) < 1e-4 && Math.abs(envs.obsRms.var[0] - variance) < 1e-3, `${envs.obsRms.mean[0]} ≈ ${mean}`);
  assert.ok(observations instanceof Float32Array);
  counts.forEach((c, i) => assert.ok(Math.abs(observations[i] - (c - envs.obsRms.mean[0]) / Math.sqrt(envs.obsRms.var[0] + 1e-8)) < 1e-5));
  envs.updateRunningMean = false;
  const frozen = envs.obsRms.count;
  envs.step(Float64Array.of(1, 1));
  assert.equal(envs.obsRms.count, frozen, 'frozen statistics');
  assert.throws(() => envs.reset({ options: { resetMask: [true, false] } }), { name: 'ValueError', message: /partial resets/ });
  const disabled = new Counters(1);
  disabled.metadata = { autoresetMode: 'Disabled' };
  assert.throws(() => new gym.vector.NormalizeObservation(disabled), { name: 'ValueError', message: /NextStep/ });
});

test('vector NormalizeReward scales by the running std of all environments\' discounted returns', () => {
  const gamma = 0.5;
  const envs = new gym.vector.NormalizeReward(new Counters(2, 2), { gamma });
  envs.reset();
  const returns = [];
  const accumulated = [0, 0];
  const steps = [
    [Float64Array.of(1, 1), [true, true]],
    [Float64Array.of(1, 1), [true, true]],
    [Float64Array.of(1, 1), [false, false]], // the autoreset step: no episode's
    [Float64Array.of(-1, 1), [true, true]],
  ];
  let counts = [0, 0];
  for (const [a, active] of steps) {
    const [, rewards] = envs.step(a);
    const raw = [0, 1].map((i) => {
      if (!active[i]) return (counts[i] = 0);
      counts[i] += a[i] * (i + 1);
      return counts[i];
    });
    raw.forEach((r, i) => {
      if (!active[i]) return; // as Gymnasium: the return carries on (only termination cuts it)
      accumulated[i] = accumulated[i] * gamma + r;
      returns.push(accumulated[i]);
    });
    const { variance } = moments(returns);
    raw.forEach((r, i) => assert.ok(Math.abs(rewards[i] - r / Math.sqrt(variance + 1e-8)) < 1e-3 * Math.abs(r) + 1e-9, `step ${returns.length}: ${rewards[i]}`));
  }
  assert.throws(() => new gym.vector.NormalizeReward(new Counters(1), { gamma: 2 }), { name: 'ValueError' });
  assert.throws(() => new gym.vector.NormalizeReward(new Counters(1), { epsilon: 0 }), { name: 'ValueError' });
  assert.throws(() => new gym.vector.NormalizeReward(new Counters(1), { eps: 1 }), { name: 'TypeError' });
});
