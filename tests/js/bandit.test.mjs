// LinUCB on both per-arm bandits through the package: `act` takes the
// stationary bandit and the compiler bandit alike.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nodeModules } from './gym-page.mjs';

const { compgym } = await nodeModules();
const { CompilerBandit, LinUcb, StationaryStochasticPerArmEnvironment } = compgym;

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

test('LinUCB learns on the compiler bandit: regret per step falls', (t) => {
  const bandit = new CompilerBandit({ seed: 3 });
  // [global (60 Autophase features), arm (32-pass one-hot, 6 properties)]
  const agent = new LinUcb(60 + bandit.numArms + bandit.propertyNames.length, 0.5);
  const regrets = [];
  bandit.reset();
  for (let t = 0; t < 400; t++) {
    const actions = agent.act(bandit);
    assert.ok(actions instanceof Int32Array && actions.length === 1);
    regrets.push(bandit.optimalExpectedRewards()[0] - bandit.expectedRewards(actions)[0]);
    agent.learn(bandit.step(actions).reward);
  }
  const first = mean(regrets.slice(0, 100));
  const last = mean(regrets.slice(300));
  t.diagnostic(`mean regret per step: ${first.toFixed(3)} over steps 0-99, ${last.toFixed(3)} over steps 300-399`);
  assert.ok(last < 0.75 * first, `regret per step: ${first.toFixed(4)} over the first 100 steps, ${last.toFixed(4)} over the last 100`);
});

test('LinUcb.act still takes the stationary bandit, and refuses anything else', () => {
  const env = new StationaryStochasticPerArmEnvironment({
    globalContextSamplingFn: { kind: 'gaussian', dim: 2 },
    armContextSamplingFn: { kind: 'gaussian', dim: 3 },
    maxNumActions: 4,
    rewardFn: { kind: 'linear', theta: [1, -1, 0.5, 2, -0.5] },
    seed: 1,
  });
  env.reset();
  const agent = new LinUcb(5);
  assert.equal(agent.act(env).length, 1);
  assert.throws(() => agent.act({}), { name: 'TypeError' });
  assert.throws(() => agent.act(Object.create(CompilerBandit.prototype)), { name: 'TypeError' });
  assert.throws(() => agent.act(new CompilerBandit({ seed: 1 })), { name: 'ValueError', message: /reset/ });
  assert.equal(typeof LinUcb.prototype.actCompilerBandit, 'undefined', 'the glue method stays out of sight');
});

test('LinUcb.act on a Proxy runs none of its traps: a TypeError, and the agent goes on', () => {
  const agent = new LinUcb(5);
  const bandit = new CompilerBandit({ seed: 1 });
  const trapped = [];
  const hostile = new Proxy(bandit, {
    getPrototypeOf() {
      trapped.push('getPrototypeOf');
      throw new Error('trap');
    },
    get(target, key) {
      trapped.push(`get ${String(key)}`);
      throw new Error('trap');
    },
  });
  assert.throws(() => agent.act(hostile), { name: 'TypeError' });
  assert.deepEqual(trapped, [], 'no trap ran');
  const { proxy, revoke } = Proxy.revocable(bandit, {});
  revoke();
  assert.throws(() => agent.act(proxy), { name: 'TypeError' });
});
