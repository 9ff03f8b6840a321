// checkEnv: every registered environment passes; each problem it detects
// is found on a JS environment broken in exactly that way, with a message
// that says what to change.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nodeModules, withGymPage } from './gym-page.mjs';

const { gym, compgym } = await nodeModules();
const { Space } = compgym;

/** A correct environment: walk x up by the action until 10. */
class Good extends gym.Env {
  constructor() {
    super();
    this.actionSpace = Space.discrete(3);
    this.observationSpace = Space.box({ low: 0, high: 10, shape: [2], dtype: 'float32' });
    this.metadata = { renderModes: ['ansi'], renderFps: null };
    this.renderMode = 'ansi';
  }
  observe() {
    return Float32Array.of(this.x, 1);
  }
  reset(args) {
    super.reset(args);
    this.x = Number(this.npRandom.integers(0, 5));
    return [this.observe(), {}];
  }
  step(action) {
    this.x = Math.min(10, this.x + action);
    return [this.observe(), 1, this.x >= 10, false, {}];
  }
  render() {
    return `x=${this.x}`;
  }
}

const errors = (problems) => problems.filter((p) => p.severity === 'error');
const checks = (problems, severity) => [...new Set(problems.filter((p) => p.severity === severity).map((p) => p.check))].sort();

test('a correct plain-JS environment passes with nothing to report', () => {
  assert.deepEqual(gym.checkEnv(new Good()), []);
});

test('every registered environment passes', () => {
  for (const id of gym.registeredIds()) {
    const problems = gym.checkEnv(gym.make(id));
    assert.deepEqual(errors(problems), [], `${id}: ${JSON.stringify(problems)}`);
  }
  const seeded = gym.checkEnv(gym.make('bril-autophase-ic-v0', { dataset: 'benchmark://suite-v0', renderMode: 'ansi' }));
  assert.deepEqual(errors(seeded), []);
});

test('the environments of docs/gym.md pass: a TimeLimit from make, and the vector example\'s', () => {
  const episode = gym.make('bril-autophase-ic-v0', { dataset: 'benchmark://suite-v0', maxEpisodeSteps: 20 });
  assert.deepEqual(checks(gym.checkEnv(episode), 'error'), []);
  assert.deepEqual(checks(gym.checkEnv(episode), 'warning'), ['wrapped']);
  const vectorised = gym.make('bril-autophase-ic-v0', { dataset: 'benchmark://suite-v0', maxEpisodeSteps: 5 });
  assert.deepEqual(errors(gym.checkEnv(vectorised)), []);
});

test('the checker says what it checks when its argument is no environment', () => {
  assert.throws(() => gym.checkEnv(null), { name: 'TypeError' });
  assert.throws(() => gym.checkEnv('bril-v0'), { name: 'TypeError' });
});

// One broken environment per problem: [check, severity, how it is broken, what the message must say].
const BROKEN = [
  ['api', 'error', () => ({ reset() {} }), /step\(action\)/],
  ['action-space', 'error', (e) => (e.actionSpace = 'discrete'), /compgym Space/],
  ['observation-space', 'error', (e) => (e.observationSpace = undefined), /set it to a compgym Space/],
  ['reward-range', 'error', (e) => (e.rewardRange = [1, 0]), /min <= max/],
  ['metadata', 'error', (e) => (e.metadata = { renderModes: 'ansi' }), /renderModes/],
  ['render-mode', 'error', (e) => (e.renderMode = 'human'), /not one of metadata.renderModes/],
  [
    'reset-raises',
    'error',
    (e) => (e.reset = () => {
      throw new Error('no');
    }),
    /threw Error: no/,
  ],
  ['reset-return', 'error', (e) => (e.reset = (args) => Good.prototype.reset.call(e, args)[0]), /return \[observation, info\]/],
  [
    'reset-observation',
    'error',
    (e) => (e.reset = (args) => [Float64Array.from(Good.prototype.reset.call(e, args)[0]), {}]),
    /dtype \(float32\)/,
  ],
  ['reset-info', 'error', (e) => (e.reset = (args) => [Good.prototype.reset.call(e, args)[0], null]), /plain object/],
  [
    'reset-seed-rng',
    'error',
    (e) =>
      (e.reset = () => {
        e.x = 1;
        return [e.observe(), {}];
      }),
    /super\.reset\(\{seed\}\)/,
  ],
  [
    'reset-seed',
    'error',
    (e) =>
      (e.reset = (args) => {
        gym.Env.prototype.reset.call(e, args);
        // Randomness from outside npRandom (a counter, so no two resets agree by chance).
        e.resets = (e.resets ?? 0) + 1;
        e.x = e.resets % 10;
        return [e.observe(), {}];
      }),
    /this\.npRandom/,
  ],
  [
    'reset-options',
    'error',
    (e) =>
      (e.reset = (args) => {
        if (args?.options) throw new TypeError('no options');
        return Good.prototype.reset.call(e, args);
      }),
    /options object/,
  ],
  [
    'step-raises',
    'error',
    (e) => (e.step = () => {
      throw new RangeError('bad');
    }),
    /every action of the action space/,
  ],
  ['step-return', 'error', (e) => (e.step = (a) => Good.prototype.step.call(e, a).slice(0, 4)), /\[observation, reward, terminated, truncated, info\]/],
  ['step-observation', 'error', (e) => (e.step = () => [Float32Array.of(11, 1), 0, false, false, {}]), /within its bounds|not in/],
  ['step-reward', 'error', (e) => (e.step = (a) => [e.observe(), '1', false, false, {}]), /return a number/],
  ['step-reward', 'error', (e) => (e.step = (a) => [e.observe(), NaN, false, false, {}]), /finite number/],
  ['step-terminated', 'error', (e) => (e.step = (a) => [e.observe(), 1, 0, false, {}]), /true or false/],
  ['step-truncated', 'error', (e) => (e.step = (a) => [e.observe(), 1, false, undefined, {}]), /true or false/],
  ['step-info', 'error', (e) => (e.step = (a) => [e.observe(), 1, false, false, 'info']), /plain object/],
  [
    'step-determinism',
    'error',
    (e) => (e.step = (a) => [e.observe(), Math.random(), false, false, {}]),
    /different reward/,
  ],
  ['render', 'error', (e) => (e.render = () => 42), /return the text/],
  [
    'close',
    'error',
    (e) =>
      (e.close = () => {
        if (e.closed) throw new Error('already closed');
        e.closed = true;
      }),
    /closing twice/,
  ],
  [
    'observation-space-bounds',
    'warning',
    (e) => (e.observationSpace = Space.box({ low: -Infinity, high: Infinity, shape: [2], dtype: 'float32' })),
    /infinite bounds/,
  ],
  [
    'reset-observation-finite',
    'warning',
    (e) => {
      e.observationSpace = Space.box({ low: -Infinity, high: Infinity, shape: [2], dtype: 'float32' });
      e.observe = () => Float32Array.of(Infinity, 1);
    },
    /NaN or infinity/,
  ],
  [
    'action-space-bounds',
    'warning',
    (e) => {
      e.actionSpace = Space.box({ low: -Infinity, high: Infinity, shape: [1], dtype: 'float32' });
      e.step = () => [e.observe(), 1, false, false, {}];
    },
    /actionSpace is a Box with infinite bounds/,
  ],
  [
    'step-observation-finite',
    'warning',
    (e) => {
      e.observationSpace = Space.box({ low: -Infinity, high: Infinity, shape: [2], dtype: 'float32' });
      e.step = () => [Float32Array.of(-Infinity, 1), 1, false, false, {}];
    },
    /NaN or infinity/,
  ],
  ['wrapped', 'warning', (e) => new gym.TimeLimit(e, 50), /env\.unwrapped/],
  [
    'reset-data-reused',
    'error',
    (e) =>
      (e.reset = (args) => {
        // One buffer refilled by every reset: an agent that kept the last observation sees it change.
        const [observation, info] = Good.prototype.reset.call(e, args);
        e.kept ??= new Float32Array(2);
        e.kept.set(observation);
        return [e.kept, info];
      }),
    /same observation object/,
  ],
  [
    'step-data-reused',
    'error',
    (e) => {
      const info = {};
      e.step = (a) => [...Good.prototype.step.call(e, a).slice(0, 4), info];
    },
    /same info object/,
  ],
  ['step-truncates', 'error', (e) => (e.step = (a) => [...Good.prototype.step.call(e, a).slice(0, 3), true, {}]), /more than one step/],
  [
    'observation-space',
    'error',
    (e) => {
      e.observationSpace = Space.dict({});
      e.observe = () => ({});
    },
    /empty Dict/,
  ],
  ['reset-observation-type', 'warning', (e) => (e.observe = () => [e.x, 1]), /plain array; return a float32 typed array/],
  [
    'action-space-normalized',
    'warning',
    (e) => {
      e.actionSpace = Space.box({ low: 0, high: 5, shape: [1], dtype: 'float32' });
      e.step = () => [e.observe(), 1, false, false, {}];
    },
    /normalised range/,
  ],
  [
    'observation-space-bounds',
    'warning',
    (e) => (e.observationSpace = Space.box({ low: [0, 1], high: [10, 1], shape: [2], dtype: 'float32' })),
    /minimum and maximum are equal/,
  ],
];

test('the broken environments cover at least 25 distinct problems of Gymnasium\'s checker', () => {
  const problems = new Set(BROKEN.map(([check, , , advice]) => `${check} ${advice}`));
  assert.ok(problems.size >= 25, `${problems.size} problems`);
  assert.equal(problems.size, BROKEN.length, 'no problem is listed twice');
});

for (const [check, severity, breakIt, advice] of BROKEN) {
  test(`checkEnv reports ${check} (${severity}) ${advice}`, () => {
    const env = new Good();
    const broken = breakIt(env);
    // A case either breaks `env` in place or returns another environment to check.
    const subject = typeof broken?.reset === 'function' ? broken : env;
    const problems = gym.checkEnv(subject);
    const found = problems.filter((p) => p.check === check);
    assert.ok(found.length > 0, `${check} not reported: ${JSON.stringify(problems)}`);
    assert.ok(found.every((p) => p.severity === severity));
    assert.ok(found.some((p) => advice.test(p.message)), `${check}: ${found.map((p) => p.message).join(' | ')}`);
    if (severity === 'error') {
      const others = checks(problems, 'error').filter((c) => c !== check && !c.startsWith(`${check.split('-')[0]}-raises`));
      assert.deepEqual(others, [], `only ${check} is an error: ${JSON.stringify(problems)}`);
    }
  });
}

test('the checker runs in Chromium', async () => {
  await withGymPage(async (run) => {
    const out = await run(({ gym }) => {
      const all = gym.registeredIds().map((id) => [id, gym.checkEnv(gym.make(id)).filter((p) => p.severity === 'error')]);
      return all.filter(([, problems]) => problems.length);
    });
    assert.deepEqual(out, []);
  });
});
