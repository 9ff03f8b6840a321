// The bandit view's job in Node (no browser): the problem the page shows is
// one where LinUCB's regret visibly flattens, at the page's default horizon
// and for several seeds; and the compiler bandit (passes as arms), measured
// for comparison, is why the page does not show that one. The numbers in
// docs/playground.md are this test's diagnostics.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

const wasm = new URL('../../www/pkg/compgym_bg.wasm', import.meta.url);
let api;
let banditJob;
let tenths;

before(async () => {
  // The page's own modules, over the page's copy of the package (www/pkg/).
  api = await import('../../www/pkg/index.js');
  await api.default({ module_or_path: readFileSync(wasm) });
  ({ banditJob } = await import('../../www/src/bandit-job.js'));
  ({ tenths } = await import('../../www/src/bandit-panel.js'));
});

test('the page\'s problem at its default horizon: LinUCB keeps learning, then its regret flattens', (t) => {
  for (const seed of [1, 2, 3]) {
    const { linucb, random } = banditJob({ steps: 3000, seed });
    const { first, final } = tenths(linucb);
    const rate = final / tenths(random).final;
    t.diagnostic(`3,000 steps, seed ${seed}: LinUCB ${linucb.at(-1).toFixed(1)} (first tenth +${first.toFixed(1)}, last +${final.toFixed(1)}, ${(100 * rate).toFixed(1)}% of random's rate), random ${random.at(-1).toFixed(1)}`);
    assert.ok(rate < 0.02, `seed ${seed}: at the end LinUCB's regret grows at ${(100 * rate).toFixed(1)}% of random's rate`);
    assert.ok(linucb[29] > 10, `seed ${seed}: regret ${linucb[29]} after 30 steps: learning takes more than a few steps`);
    assert.ok(final < first / 5, `seed ${seed}: the last tenth (+${final}) under a fifth of the first (+${first})`);
    assert.ok(linucb.at(-1) < random.at(-1) / 10, `seed ${seed}: LinUCB ${linucb.at(-1)} against random ${random.at(-1)}`);
  }
});

test('the compiler bandit, for comparison: LinUCB learns, but after 1,000 steps its regret still grows at over a tenth of random\'s rate', (t) => {
  for (const programs of [['dead-code'], ['loop-invariant', 'dead-code', 'matmul']]) {
    const curve = (choose, learn) => {
      const env = new api.CompilerBandit({ seed: 3, programs });
      env.reset();
      const out = [];
      let total = 0;
      for (let step = 0; step < 1000; step++) {
        const action = choose(env);
        total += env.optimalExpectedRewards()[0] - env.expectedRewards(action)[0];
        learn?.(env.step(action).reward);
        out.push(total);
      }
      env.free();
      return out;
    };
    const agent = new api.LinUcb(98);
    const linucb = curve((env) => agent.act(env), (reward) => agent.learn(reward));
    const rng = new api.Rng(4);
    const random = curve((env) => Int32Array.of(Number(rng.integers(0, env.numArms))));
    agent.free();
    rng.free();
    const { first, final } = tenths(linucb);
    const rate = final / tenths(random).final;
    t.diagnostic(`${programs.join(', ')}: LinUCB ${linucb.at(-1).toFixed(1)} (first tenth +${first.toFixed(1)}, last +${final.toFixed(1)}, ${(100 * rate).toFixed(0)}% of random's rate), random ${random.at(-1).toFixed(1)}`);
    assert.ok(linucb.at(-1) < random.at(-1) / 2, 'it learns');
    assert.ok(final < first, 'its regret grows more slowly at the end');
    assert.ok(rate > 0.1, `still ${(100 * rate).toFixed(0)}% of random's rate: the page's problem shows learning more plainly`);
  }
});
