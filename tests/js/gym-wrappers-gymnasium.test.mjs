// Gymnasium 1.x's further single-environment wrappers in compgym/gym (issue
// 25): what make applies (PassiveEnvChecker, OrderEnforcing), Autoreset,
// the action, reward and observation wrappers; each contract against the
// real compiler environments, and a small Box-action environment where one
// is needed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nodeModules, withGymPage } from './gym-page.mjs';

const { gym, compgym } = await nodeModules();
const { Space } = compgym;

const SUITE = { dataset: 'benchmark://suite-v0' };
const DEAD = 'benchmark://suite-v0/dead-code';
const ic = (options = {}) => gym.make('bril-ic-v0', { benchmark: DEAD, observationSpace: 'IrInstructionCount', rewardSpace: 'IrInstructionCount', ...options });

/** A deterministic line: action [v] in [-1, 1] moves by speed × v; observes [position, steps]; reward = position. */
class Line extends gym.Env {
  constructor({ speed = 1 } = {}) {
    super();
    this.speed = speed;
    this.actionSpace = Space.box({ low: -1, high: 1, shape: [1], dtype: 'float32' });
    this.observationSpace = Space.box({ low: -100, high: 100, shape: [2], dtype: 'float32' });
  }
  reset(args) {
    super.reset(args);
    this.position = 0;
    this.t = 0;
    this.taken = [];
    return [Float32Array.of(0, 0), {}];
  }
  step(action) {
    this.taken.push(action);
    this.position += this.speed * Number(typeof action === 'number' ? action : action[0]);
    this.t += 1;
    return [Float32Array.of(this.position, this.t), this.position, Math.abs(this.position) >= 3, false, {}];
  }
}

/** The GymnasiumWarning messages emitted while `f` runs (process warnings arrive on the next tick). */
async function warningsOf(f) {
  const seen = [];
  const listener = (w) => w.name === 'GymnasiumWarning' && seen.push(w.message);
  process.on('warning', listener);
  try {
    f();
    await new Promise(setImmediate);
  } finally {
    process.off('warning', listener);
  }
  return seen;
}

// ---- what make applies -------------------------------------------------------

test('make wraps as Gymnasium does: PassiveEnvChecker, then OrderEnforcing, then TimeLimit', () => {
  const env = gym.make('bril-ic-v0', { maxEpisodeSteps: 3 });
  assert.equal(String(env), 'TimeLimit<OrderEnforcing<PassiveEnvChecker<CompilerGymEnv<bril-ic-v0>>>>');
  assert.equal(env.spec.orderEnforce, true);
  assert.equal(env.spec.disableEnvChecker, false);
  assert.equal(String(gym.make('bril-ic-v0', { disableEnvChecker: true })), 'OrderEnforcing<CompilerGymEnv<bril-ic-v0>>');
  assert.equal(gym.make('bril-ic-v0', { disableEnvChecker: true }).spec.disableEnvChecker, true);
  assert.equal(String(gym.make(env.spec)), String(env), 'make(env.spec) makes the same stack');
  assert.throws(() => gym.make('bril-ic-v0', { disableEnvChecker: 'yes' }), { name: 'TypeError' });

  gym.register('wrappers/Line-v1', { entryPoint: (options) => new Line(options) });
  gym.register('wrappers/Line-v0', { entryPoint: (options) => new Line(options), orderEnforce: false, disableEnvChecker: true });
  assert.equal(String(gym.make('wrappers/Line-v0')), 'Line<wrappers/Line-v0>');
  assert.equal(String(gym.make('wrappers/Line-v0', { disableEnvChecker: false })), 'PassiveEnvChecker<Line<wrappers/Line-v0>>', 'make\'s option wins over the spec');
  gym.register('wrappers/NoSpaces-v0', { entryPoint: () => Object.assign(new Line(), { _observationSpace: 'not a space' }) });
  assert.throws(() => gym.make('wrappers/NoSpaces-v0'), { name: 'TypeError', message: /observation space must be a compgym Space/ });
  assert.equal(gym.make('wrappers/NoSpaces-v0', { disableEnvChecker: true }).unwrapped instanceof Line, true);
});

test('OrderEnforcing: step and render before reset are ResetNeeded, and the environment keeps working', () => {
  const env = new gym.OrderEnforcing(ic({ renderMode: 'ansi' }).unwrapped);
  assert.equal(env.hasReset, false);
  assert.throws(() => env.step(0), { name: 'ResetNeeded' });
  assert.throws(() => env.render(), { name: 'ResetNeeded' });
  env.reset();
  assert.equal(env.hasReset, true);
  assert.equal(env.step(0).length, 5);
  assert.equal(typeof env.render(), 'string');
  assert.equal(env.fork().hasReset, true, 'a fork has been reset');
  assert.equal(env.spec.orderEnforce, true);

  const renders = new gym.OrderEnforcing(new Line(), { disableRenderOrderEnforcing: true });
  assert.throws(() => renders.step([0]), { name: 'ResetNeeded' });
  assert.equal(renders.render(), null, 'render before reset is allowed');
  gym.register('wrappers/RenderFirst-v0', { entryPoint: () => new Line(), disableRenderOrderEnforcing: true });
  const made = gym.make('wrappers/RenderFirst-v0');
  assert.equal(made.render(), null);
  assert.throws(() => made.step([0]), { name: 'ResetNeeded' });
  assert.throws(() => gym.make('wrappers/RenderFirst-v0', { disableRenderOrderEnforcing: false }).render(), { name: 'ResetNeeded' }, 'make\'s option wins');
  assert.equal(gym.make('wrappers/Line-v1', { disableRenderOrderEnforcing: true }).render(), null);
  assert.throws(() => gym.make('wrappers/Line-v1', { disableRenderOrderEnforcing: 'yes' }), { name: 'TypeError' });
  assert.throws(() => new gym.OrderEnforcing(ic(), { disableRenderOrderEnforcing: 1 }), { name: 'TypeError' });
});

test('PassiveEnvChecker warns about the first reset and step only, and changes nothing', async () => {
  class Broken extends Line {
    reset(args) {
      super.reset(args);
      return [[0, 500], {}]; // an array, and outside the space
    }
    step(action) {
      const [observation] = super.step(action);
      return [observation, NaN, 0, false, null];
    }
  }
  const env = new gym.PassiveEnvChecker(new Broken());
  let reset;
  const first = await warningsOf(() => {
    reset = env.reset();
  });
  assert.deepEqual(reset, [[0, 500], {}], 'the result is passed on unchanged');
  assert.equal(first.length, 2);
  assert.match(first[0], /reset\(\)` method was expecting a typed array/);
  assert.match(first[1], /not within the observation space/);
  const stepped = await warningsOf(() => env.step([0.5]));
  assert.deepEqual(stepped, [
    'Expects `terminated` signal to be a boolean, actual type: number 0',
    'The reward is a NaN value.',
    'The `info` returned by `step()` must be a plain object, actual type: null',
  ]);
  assert.deepEqual(await warningsOf(() => [env.reset(), env.step([0.5])]), [], 'only the first reset and step are checked');
  assert.equal(env.checkedReset && env.checkedStep, true);

  const compiler = gym.make('bril-autophase-ic-v0', { ...SUITE, renderMode: 'ansi' });
  assert.deepEqual(await warningsOf(() => [compiler.reset({ seed: 1 }), compiler.step(0), compiler.render()]), [], 'a compiler environment passes');
  const bandit = gym.make('compgym/CompilerBandit-v0');
  assert.deepEqual(await warningsOf(() => [bandit.reset({ seed: 1 }), bandit.step(bandit.actionSpace.sample())]), []);

  assert.throws(() => new gym.PassiveEnvChecker(Object.assign(new Line(), { _actionSpace: null })), { name: 'TypeError', message: /action space/ });
  const flat = await warningsOf(() => new gym.PassiveEnvChecker(Object.assign(new Line(), { _actionSpace: Space.box({ low: 1, high: 1, shape: [2] }) })));
  assert.deepEqual(flat, ['A Box action space maximum and minimum values are equal.']);
});

test('PassiveEnvChecker: a second close that throws warns and throws', async () => {
  class ClosesOnce extends Line {
    close() {
      if (this.closed) throw new Error('closed twice');
      this.closed = true;
    }
  }
  const env = new gym.PassiveEnvChecker(new ClosesOnce());
  assert.deepEqual(await warningsOf(() => env.close()), []);
  const warnings = await warningsOf(() => assert.throws(() => env.close(), /closed twice/));
  assert.equal(warnings.length, 1);
  assert.match(warnings[0], /on the closed environment should be allowed/);
});

// ---- Autoreset -----------------------------------------------------------------

test('Autoreset resets on the step after an episode ends, with reward 0 and the reset\'s info', () => {
  const env = new gym.Autoreset(gym.make('bril-autophase-ic-v0', { ...SUITE, maxEpisodeSteps: 2 }));
  env.reset({ seed: 4 });
  assert.equal(env.step(0)[3], false);
  const [, , terminated, truncated] = env.step(1);
  assert.deepEqual([terminated, truncated, env.autoreset], [false, true, true]);
  const [observation, reward, te, tr, info] = env.step(2);
  assert.deepEqual([reward, te, tr, env.autoreset], [0, false, false, false]);
  assert.deepEqual(env.actions, [], 'the action of the reset step is not applied');

  const reference = gym.make('bril-autophase-ic-v0', { ...SUITE, maxEpisodeSteps: 2 });
  reference.reset({ seed: 4 });
  const [again, againInfo] = reference.reset();
  assert.deepEqual(observation, again, 'an unseeded reset, as the next reset would be');
  assert.equal(info.benchmark, againInfo.benchmark);
  assert.equal(env.step(0)[3], false, 'the new episode counts from zero');
});

// ---- actions ---------------------------------------------------------------------

test('ClipAction clips into the Box; agents act in a Box with infinite bounds', () => {
  const env = new gym.ClipAction(new Line());
  assert.equal(String(env.actionSpace), 'Box(Box, low=-inf, high=inf, shape=(1,), dtype=float32)');
  env.reset();
  assert.deepEqual(env.step([5])[0], Float32Array.of(1, 1));
  assert.deepEqual(env.step(Float64Array.of(-0.25))[0], Float32Array.of(0.75, 2));
  assert.deepEqual(env.unwrapped.taken, [Float32Array.of(1), Float32Array.of(-0.25)]);
  assert.throws(() => new gym.ClipAction(ic()), { name: 'TypeError', message: /Box action space/ });
  assert.throws(() => env.step('left'), { name: 'TypeError' });
});

test('a DataView is no Box action or bound: a TypeError, not an empty action', () => {
  // A DataView is an ArrayBuffer view without elements; it used to pass as a typed array of none.
  const view = new DataView(new ArrayBuffer(4));
  const env = new gym.ClipAction(new Line());
  env.reset();
  assert.throws(() => env.step(view), { name: 'TypeError', message: /a Box action must be a number, an array or a typed array/ });
  assert.deepEqual(env.unwrapped.taken, [], 'nothing reached the environment');
  assert.throws(() => new gym.RescaleAction(new Line(), view, 1), { name: 'TypeError', message: /minAction must be a number or an array/ });
});

test('RescaleAction maps [minAction, maxAction] affinely onto the Box, in its dtype', () => {
  const env = new gym.RescaleAction(new Line(), 0, 10);
  assert.equal(String(env.actionSpace), 'Box(Box, low=0.0, high=10.0, shape=(1,), dtype=float32)');
  assert.deepEqual([env.action([0]), env.action([5]), env.action([10]), env.action([2.5])], [
    Float32Array.of(-1),
    Float32Array.of(0),
    Float32Array.of(1),
    Float32Array.of(-0.5),
  ]);
  // Gymnasium's rescale_box in float32: gradient 5, intercept 5, and each operation rounded.
  const x = Math.fround(0.3);
  assert.deepEqual(env.action(Float32Array.of(x)), Float32Array.of(Math.fround(Math.fround(x - 5) / 5)));
  const perElement = new gym.RescaleAction(new Line(), [-2], [2]);
  assert.deepEqual(perElement.action([1]), Float32Array.of(0.5));
  assert.throws(() => new gym.RescaleAction(new Line(), 1, 1), { name: 'ValueError', message: /strictly smaller/ });
  assert.throws(() => new gym.RescaleAction(new Line(), 2, 1), { name: 'ValueError' });
  assert.throws(() => new gym.RescaleAction(new Line(), -Infinity, 1), { name: 'ValueError', message: /unbounded/ });
  assert.throws(() => new gym.RescaleAction(new Line(), [0, 0], [1, 1]), { name: 'ValueError', message: /1 elements/ });
  assert.throws(() => new gym.RescaleAction(new Line(), '0', 1), { name: 'TypeError' });
  assert.throws(() => new gym.RescaleAction(ic(), 0, 1), { name: 'TypeError' });
});

/** The actions a StickyAction over a recording environment passes on for `actions`, after reset({seed}). */
function sticky(seed, actions, p, options) {
  const env = new gym.StickyAction(new Line(), p, options);
  env.reset({ seed });
  for (const a of actions) env.step([a]);
  return env.unwrapped.taken.map((a) => a[0]);
}

test('StickyAction repeats the previous action with its probability, seeded by reset', () => {
  const actions = Array.from({ length: 40 }, (_, i) => i / 40); // all different: a repeat is sticky
  assert.deepEqual(sticky(1, actions, 0), actions, 'probability 0: the agent\'s actions');
  const a = sticky(1, actions, 0.5);
  assert.deepEqual(sticky(1, actions, 0.5), a, 'the same seed repeats the same actions');
  assert.notDeepEqual(sticky(2, actions, 0.5), a, 'another seed, other repeats');
  const repeated = a.filter((x, i) => i > 0 && x !== actions[i]).length;
  assert.ok(repeated > 5 && repeated < 30, `about half the actions stick (${repeated} of 39 differ)`);
  assert.equal(a[0], actions[0], 'the first action of an episode is the agent\'s');

  // A duration of 3: once stuck, the previous action is taken three times
  // in a row (the agent's actions never repeat, so every repeat is sticky).
  const long = sticky(3, actions, 0.3, { repeatActionDuration: 3 });
  const runs = [];
  for (let i = 1, run = 0; i <= long.length; i++) {
    if (i < long.length && long[i] === long[i - 1]) run += 1;
    else if (run > 0) runs.push([run, i === long.length]), (run = 0);
  }
  assert.ok(runs.length > 2, `${runs.length} sticky runs`);
  for (const [run, last] of runs) assert.ok(run % 3 === 0 || last, `runs of repeats come in threes, got ${run}`);
  for (const bad of [1, -0.1, NaN]) assert.throws(() => new gym.StickyAction(new Line(), bad), { name: 'ValueError' });
  assert.throws(() => new gym.StickyAction(new Line(), '0.5'), { name: 'TypeError' });
  assert.throws(() => new gym.StickyAction(new Line(), 0.5, { repeatActionDuration: [3, 2] }), { name: 'ValueError' });
  assert.throws(() => new gym.StickyAction(new Line(), 0.5, { repeatActionDuration: 0 }), { name: 'ValueError' });
});

test('StickyAction over a compiler environment: the same seed applies the same passes', () => {
  const run = (seed) => {
    const env = new gym.StickyAction(gym.make('bril-ic-v0', { benchmark: DEAD }), 0.5);
    env.reset({ seed });
    for (let t = 0; t < 12; t++) env.step(t % 5);
    return env.actions;
  };
  assert.deepEqual(run(7), run(7));
  assert.notDeepEqual(run(7), [0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 0, 1]);
});

test('StickyAction: a step that throws leaves the sticky state as it was', () => {
  const env = new gym.StickyAction(gym.make('bril-ic-v0', { benchmark: DEAD }), 0.5);
  const state = () => [env.lastAction, env.isStickyActions, env.numRepeats, env.repeatsTaken];
  env.reset({ seed: 1 });
  env.step(0);
  let threw = 0;
  for (let i = 0; i < 20; i++) {
    const before = state();
    try {
      env.step(9999); // taken only when the previous action does not stick
    } catch (error) {
      assert.equal(error.name, 'ValueError');
      assert.deepEqual(state(), before);
      threw += 1;
    }
  }
  assert.ok(threw > 3, `${threw} bad actions reached the environment`);
  // Had a failed action been kept as the last one, it would stick and throw again.
  for (let i = 0; i < 20; i++) assert.equal(env.step(1).length, 5);
});

test('RepeatAction applies a pass k times, sums the rewards and stops when the episode ends', () => {
  const env = new gym.RepeatAction(ic(), 3);
  env.reset();
  const single = ic();
  single.reset();
  const rewards = [0, 1, 2].map(() => single.step('-dce')[1]);
  const [observation, reward] = env.step('-dce');
  assert.deepEqual(env.actions, single.actions, 'the pass three times');
  assert.equal(reward, rewards[0] + rewards[1] + rewards[2]);
  assert.equal(observation, single.compilerEnv.observation.get('IrInstructionCount'));

  const limited = new gym.RepeatAction(new gym.TimeLimit(ic(), 2), 3);
  limited.reset();
  assert.equal(limited.step(0)[3], true);
  assert.equal(limited.actions.length, 2, 'stopped at the truncation');
  assert.throws(() => new gym.RepeatAction(ic(), 0), { name: 'ValueError' });
  assert.throws(() => new gym.RepeatAction(ic(), 1.5), { name: 'TypeError' });
});

// ---- rewards ----------------------------------------------------------------------

test('ClipReward clips rewards into [minReward, maxReward]; a null bound does not clip', () => {
  const env = new gym.ClipReward(new Line(), { minReward: -0.5, maxReward: 1 });
  env.reset();
  assert.deepEqual([0.5, 1, -1, -1].map((a) => env.step([a])[1]), [0.5, 1, 0.5, -0.5]);
  const above = new gym.ClipReward(new Line(), { minReward: 0 });
  above.reset();
  assert.deepEqual([-1, 1, 1, 1].map((a) => above.step([a])[1]), [0, 0, 1, 2]);
  assert.throws(() => new gym.ClipReward(new Line()), { name: 'ValueError' });
  assert.throws(() => new gym.ClipReward(new Line(), { minReward: 1, maxReward: 0 }), { name: 'ValueError' });
  assert.throws(() => new gym.ClipReward(new Line(), { minReward: '1' }), { name: 'TypeError' });
});

// ---- observations ------------------------------------------------------------------

const FEATURES = 60;
const row = (batch, i) => batch.subarray(i * FEATURES, (i + 1) * FEATURES);

test('FrameStackObservation stacks the last N observations, padded with the reset\'s', () => {
  const env = new gym.FrameStackObservation(gym.make('bril-autophase-ic-v0', SUITE), 3);
  const [stacked] = env.reset({ seed: 2 });
  assert.ok(stacked instanceof BigInt64Array && stacked.length === 3 * FEATURES);
  assert.ok(env.observationSpace.contains(stacked));
  assert.deepEqual([row(stacked, 0), row(stacked, 1)], [row(stacked, 2), row(stacked, 2)], 'the reset\'s observation pads');
  const [after] = env.step('-dce');
  const now = env.compilerEnv.observation.get('Autophase');
  assert.deepEqual(row(after, 2), BigInt64Array.from(now, BigInt), 'the newest last');
  assert.deepEqual(row(after, 1), row(stacked, 2));
  const fork = env.fork();
  assert.deepEqual(fork.step('-lvn')[0], env.step('-lvn')[0], 'a fork stacks as the original');
  env.step('-licm');
  assert.deepEqual(row(fork.step('-dce')[0], 0), row(after, 2), 'the fork keeps its own frames');
  assert.throws(() => new gym.FrameStackObservation(env.env, 0), { name: 'ValueError' });
  assert.throws(() => new gym.FrameStackObservation(env.env, 2.5), { name: 'TypeError' });
  assert.throws(() => new gym.FrameStackObservation(env.env, 2, { paddingType: 'ones' }), { name: 'ValueError' });
});

test('FrameStackObservation pads with zeros or a custom observation', () => {
  const zero = new gym.FrameStackObservation(new Line(), 3, { paddingType: 'zero' });
  zero.reset();
  assert.deepEqual(zero.step([0.5])[0], Float32Array.of(0, 0, 0, 0, 0.5, 1));
  const custom = new gym.FrameStackObservation(new Line(), 2, { paddingType: Float32Array.of(7, 7) });
  assert.deepEqual(custom.reset()[0], Float32Array.of(7, 7, 0, 0));
  assert.deepEqual(custom.step([1])[0], Float32Array.of(0, 0, 1, 1));
  assert.throws(() => new gym.FrameStackObservation(new Line(), 2, { paddingType: Float32Array.of(700, 0) }), { name: 'ValueError' });
  const text = gym.make('bril-ic-v0', { benchmark: DEAD }); // observes the IR text: a Sequence
  assert.throws(() => new gym.FrameStackObservation(text, 2, { paddingType: 'zero' }), { name: 'TypeError', message: /no zero value/ });
  const texts = new gym.FrameStackObservation(text, 2);
  const [pair] = texts.reset();
  assert.ok(Array.isArray(pair) && pair.length === 2 && pair[0] === pair[1] && texts.observationSpace.contains(pair), 'any space stacks');
});

test('TimeAwareObservation adds the step count, flattened, normalized or as a dict', () => {
  assert.throws(() => new gym.TimeAwareObservation(gym.make('bril-autophase-ic-v0', SUITE)), { name: 'ValueError', message: /TimeLimit/ });
  const base = () => gym.make('bril-autophase-ic-v0', { ...SUITE, maxEpisodeSteps: 4 });
  const flat = new gym.TimeAwareObservation(base());
  assert.equal(flat.maxTimesteps, 4);
  const [first] = flat.reset({ seed: 1 });
  assert.ok(first instanceof BigInt64Array && first.length === FEATURES + 1 && first[FEATURES] === 0n);
  assert.ok(flat.observationSpace.contains(first));
  assert.throws(() => flat.step(9999), { name: 'ValueError' });
  assert.equal(flat.timesteps, 0, 'a failed step does not count');
  assert.equal(flat.step(0)[0][FEATURES], 1n);
  assert.equal(flat.step(0)[0][FEATURES], 2n);
  assert.equal(flat.reset()[0][FEATURES], 0n);

  const dict = new gym.TimeAwareObservation(base(), { flatten: false, normalizeTime: true });
  const [o] = dict.reset({ seed: 1 });
  assert.deepEqual(Object.keys(o), ['obs', 'time']);
  assert.deepEqual(o.obs, first.subarray(0, FEATURES));
  dict.step(0);
  assert.deepEqual(dict.step(0)[0].time, Float32Array.of(0.5));
  assert.ok(dict.observationSpace.contains(dict.step(0)[0]));

  const nested = new gym.TimeAwareObservation(dict, { flatten: false, dictTimeKey: 'steps' });
  assert.deepEqual(Object.keys(nested.reset()[0]), ['obs', 'steps', 'time'], 'a Dict gets the key (sorted, as Gymnasium\'s Dict)');
  assert.throws(() => new gym.TimeAwareObservation(dict, { flatten: false }), { name: 'ValueError', message: /already/ });
  assert.throws(() => new gym.TimeAwareObservation(base(), { flatten: 'no' }), { name: 'TypeError' });
});

test('DelayObservation hands observations out N steps late, zeros before', () => {
  const env = new gym.DelayObservation(new Line(), 2);
  assert.deepEqual(env.reset()[0], Float32Array.of(0, 0));
  assert.deepEqual(env.step([1])[0], Float32Array.of(0, 0), 'still zeros');
  assert.deepEqual(env.step([1])[0], Float32Array.of(0, 0), 'the reset\'s observation');
  assert.deepEqual(env.step([1])[0], Float32Array.of(1, 1));
  assert.deepEqual(env.reset()[0], Float32Array.of(0, 0), 'reset empties the queue');
  assert.deepEqual(new gym.DelayObservation(new Line(), 0).reset()[0], Float32Array.of(0, 0));
  assert.throws(() => new gym.DelayObservation(new Line(), -1), { name: 'ValueError' });
});

test('FilterObservation keeps the named parts of a Dict or Tuple observation', () => {
  const bandit = new gym.FilterObservation(gym.make('compgym/StationaryBandit-v0'), ['global']);
  const [context] = bandit.reset({ seed: 1 });
  assert.deepEqual(Object.keys(context), ['global']);
  assert.ok(bandit.observationSpace.contains(context));
  const full = gym.make('compgym/StationaryBandit-v0');
  assert.deepEqual(context.global, full.reset({ seed: 1 })[0].global);

  class Pair extends Line {
    constructor() {
      super();
      this.observationSpace = Space.tuple([Space.discrete(3), Space.box({ low: -100, high: 100, shape: [2], dtype: 'float32' })]);
    }
    reset(args) {
      return [[1, super.reset(args)[0]], {}];
    }
  }
  const second = new gym.FilterObservation(new Pair(), [1]);
  assert.deepEqual(second.reset()[0], [Float32Array.of(0, 0)]);
  assert.deepEqual(new gym.FilterObservation(new Pair(), [1, 0]).reset()[0], [Float32Array.of(0, 0), 1], 'in the order given');
  assert.throws(() => new gym.FilterObservation(new Pair(), [2]), { name: 'ValueError' });
  assert.throws(() => new gym.FilterObservation(new Pair(), ['0']), { name: 'TypeError' });
  assert.throws(() => new gym.FilterObservation(new Pair(), []), { name: 'ValueError', message: /empty/ });
  assert.throws(() => new gym.FilterObservation(gym.make('compgym/StationaryBandit-v0'), ['nope']), { name: 'ValueError', message: /nope/ });
  assert.throws(() => new gym.FilterObservation(new Line(), ['x']), { name: 'ValueError', message: /Dict or Tuple/ });
  assert.throws(() => new gym.FilterObservation(new Pair(), 'global'), { name: 'TypeError' });
});

// ---- in a browser ----------------------------------------------------------------

/** A seeded run through the stateful wrappers, the same source in Node and in a page. */
function seededRun({ gym }) {
  let env = gym.make('bril-autophase-ic-v0', { dataset: 'benchmark://suite-v0', maxEpisodeSteps: 6 });
  env = new gym.FrameStackObservation(new gym.TimeAwareObservation(env), 2);
  env = new gym.Autoreset(new gym.RepeatAction(new gym.StickyAction(env, 0.5), 2));
  const [first, info] = env.reset({ seed: 11 });
  const trace = [info.benchmark, Array.from(first.slice(-3), String)];
  for (let t = 0; t < 5; t++) {
    const [observation, , terminated, truncated] = env.step(t % 3);
    trace.push([Array.from(observation.slice(-3), String), terminated, truncated, env.commandline()]);
  }
  return trace;
}

test('the wrappers replay a seeded run in Chromium as in Node; the checker warns on the console there', async () => {
  const inNode = seededRun({ gym });
  assert.equal(inNode.length, 7);
  await withGymPage(async (run, page) => {
    assert.deepEqual(await run(seededRun), inNode, 'same benchmark, same sticky draws, same stacks');
    const warnings = [];
    page.on('console', (message) => message.type() === 'warning' && warnings.push(message.text()));
    const returned = await run(({ gym, compgym }) => {
      const env = new gym.PassiveEnvChecker(
        Object.assign(new gym.Env(), {
          actionSpace: compgym.Space.discrete(2),
          observationSpace: compgym.Space.discrete(2),
          reset() {
            return [7, {}];
          },
        }),
      );
      return env.reset()[0];
    });
    assert.equal(returned, 7);
    assert.deepEqual(warnings, ['GymnasiumWarning: The obs returned by the `reset()` method is not within the observation space.']);
  });
});
