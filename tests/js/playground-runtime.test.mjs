// The playground's deferred runtime rewards (issue 26, defect 2): a step
// under a runtime reward runs no program where the episode lives; its reward
// is settled later from counts measured elsewhere (the page's worker), and
// it must be exactly the environment's own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { make, runBril } from '../../pkg/node.js';
import { Episode } from '../../www/src/episode.js';
import { RUNTIME_REWARDS, needsO2, runtimeReward } from '../../www/src/runtime-rewards.js';

// The page's modules read the core (the runtime rewards' registry and formula) through the page's
// copy of the package (www/pkg/), which the page initialises before any view runs; so do the tests.
const web = await import('../../www/pkg/index.js');
web.initSync({ module: readFileSync(new URL('../../www/pkg/compgym_bg.wasm', import.meta.url)) });

const PASSES = ['-dce', '-licm', '-lvn', '-peephole', '-adce', '-simplify-cfg'];
const DIVIDES_BY_ZERO = {
  uri: 'benchmark://user-v0/divides-by-zero-dead-code',
  source: '@main {\n  a: int = const 1;\n  z: int = const 0;\n  d: int = const 5;\n  c: int = div a z;\n  print c;\n}',
};

/** Settles every pending node of `episode`'s path as the page does, from runs of the programs. */
function settleByRunning(episode, program) {
  const count = (node) => runBril(episode.observe(node, 'Ir'), null).dynInst;
  const env = make('bril-v0');
  env.reset({ benchmark: program.uri });
  const o2 = Number(env.observation.get('DynamicInstructionCountO2'));
  env.free();
  const o0 = count(episode.root);
  for (const node of episode.pendingPath()) {
    episode.settle(node, runtimeReward(episode.rewardSpace, count(node.parent), count(node), { o0, o2 }));
  }
}

for (const name of ['DynamicInstructionCount', 'DynamicInstructionCountNorm', 'DynamicInstructionCountO2']) {
  test(`${name}, deferred and settled from runs, is the environment's own reward at every step`, () => {
    for (const uri of ['benchmark://suite-v0/loop-invariant', 'benchmark://suite-v0/fib-iter']) {
      const own = new Episode(make);
      own.load({ uri }, name);
      const deferred = new Episode(make, { deferred: RUNTIME_REWARDS });
      deferred.load({ uri }, name);
      for (const flag of PASSES) {
        own.step(flag);
        const node = deferred.step(flag);
        assert.equal(node.pending, true, 'every step waits for its reward (even a no-op: its program may not run)');
        assert.equal(node.reward, null);
      }
      settleByRunning(deferred, { uri });
      assert.deepEqual(deferred.pendingPath(), []);
      assert.deepEqual(
        deferred.path().map((n) => [n.flag, n.reward, n.total]),
        own.path().map((n) => [n.flag, n.reward, n.total]),
        `${uri} under ${name}`,
      );
      assert.equal(deferred.state().reward, own.current.env.state.reward, 'the CSV state carries the runtime reward');
      own.dispose();
      deferred.dispose();
    }
  });
}

test('a deferred step takes the static reward in the environment, so it runs no program there', () => {
  // A program whose run fails: the environment's own step under the runtime reward fails...
  const own = new Episode(make);
  own.load(DIVIDES_BY_ZERO, 'DynamicInstructionCount');
  assert.match(own.step('-dce').error?.message ?? '', /division by zero/);
  own.dispose();
  // ...the deferred one runs nothing, so only the settling can notice.
  const episode = new Episode(make, { deferred: RUNTIME_REWARDS });
  episode.load(DIVIDES_BY_ZERO, 'DynamicInstructionCount');
  const node = episode.step('-dce');
  assert.equal(node.error, null);
  assert.equal(node.pending, true);
  assert.equal(episode.current, node);
  assert.equal(episode.state().reward, null, 'no reward while pending');
  episode.dispose();
});

test('settling a pending step fills the totals below it; failing it drops its subtree and goes back', () => {
  const episode = new Episode(make, { deferred: RUNTIME_REWARDS });
  episode.load({ uri: 'benchmark://suite-v0/loop-invariant' }, 'DynamicInstructionCount');
  const first = episode.step('-lvn');
  const second = episode.step('-to-ssa');
  const third = episode.step('-from-ssa');
  assert.ok(first.pending && second.pending && third.pending);
  episode.settle(second, 5);
  assert.equal(second.total, null, 'unknown while an earlier step is pending');
  episode.settle(first, 10);
  assert.equal(first.total, 10);
  assert.equal(second.total, 15, 'a later settled step totals once the earlier one is known');
  assert.equal(third.total, null);
  episode.goTo(first);
  const fourth = episode.step('-adce');
  const fifth = episode.step('-licm');
  assert.ok(fourth.pending && fifth.pending);
  episode.goTo(third);
  const events = [];
  episode.addEventListener('change', (e) => events.push(e.why));
  episode.settle(second, 1);
  assert.deepEqual(events, [], 'a settled step stays as it is');
  episode.fail(fourth, Object.assign(new Error('cancelled before its reward was computed'), { name: 'CancelledError' }));
  assert.deepEqual(events, ['settle']);
  assert.equal(episode.current, third, 'failing a step off the current path leaves the current state');
  episode.goTo(first);
  episode.fail(third, Object.assign(new Error('cancelled before its reward was computed'), { name: 'CancelledError' }));
  assert.equal(episode.current, first);
  episode.goTo(second);
  episode.fail(third, new Error('twice'));
  assert.equal(third.error.name, 'CancelledError', 'a failed step fails once');
  assert.equal(fourth.error.name, 'CancelledError');
  assert.deepEqual(fourth.children, [], 'the steps after it are gone');
  assert.equal(fifth.env, null, 'their environments are freed');
  assert.equal(fourth.total, 10);
  // A pending step on the current path fails: the episode goes on before it.
  const sixth = episode.step('-licm');
  episode.fail(sixth, new Error('no run'));
  assert.equal(episode.current, second);
  assert.equal(episode.failure, sixth);
  // Stepping again from there works, and retries the failed step.
  const again = episode.step('-licm');
  assert.notEqual(again, sixth);
  assert.equal(again.pending, true);
  episode.dispose();
});

test('switching to and from a deferred reward replays the tree as pending, then as the environment rewards it', () => {
  const episode = new Episode(make, { deferred: RUNTIME_REWARDS });
  episode.load({ uri: 'benchmark://suite-v0/loop-invariant' }, 'IrInstructionCount');
  for (const flag of ['-lvn', '-to-ssa']) episode.step(flag);
  const sized = episode.path().map((n) => n.reward);
  episode.setReward('DynamicInstructionCount');
  assert.deepEqual(episode.path().map((n) => n.pending), [false, true, true]);
  episode.setReward('IrInstructionCount');
  assert.deepEqual(episode.path().map((n) => n.pending), [false, false, false]);
  assert.deepEqual(episode.path().map((n) => n.reward), sized);
  episode.dispose();
});

test('a settler that knows a reward settles or fails the step as it is taken, with one change event', () => {
  const known = new Map([['-lvn', 7]]);
  const episode = new Episode(make, {
    deferred: RUNTIME_REWARDS,
    settler: (node) => (known.has(node.flag) ? episode.settle(node, known.get(node.flag)) : node.flag === '-to-ssa' && episode.fail(node, new Error('does not run'))),
  });
  episode.load({ uri: 'benchmark://suite-v0/loop-invariant' }, 'DynamicInstructionCount');
  const events = [];
  episode.addEventListener('change', (e) => events.push(e.why));
  const lvn = episode.step('-lvn');
  assert.deepEqual([lvn.pending, lvn.reward, lvn.total], [false, 7, 7]);
  const ssa = episode.step('-to-ssa');
  assert.equal(ssa.error.message, 'does not run');
  assert.equal(episode.current, lvn);
  assert.equal(episode.failure, ssa);
  assert.equal(episode.step('-licm').pending, true, 'unknown: pending');
  assert.deepEqual(events, ['step', 'step', 'step']);
  episode.dispose();
});

test('what the agent sees: the page names every Autophase feature the environment observes, and the changes a step makes', async () => {
  // The page's sentences come from the core's registry, through the browser entry the page imports.
  const web = await import('../../www/pkg/index.js');
  web.initSync({ module: readFileSync(new URL('../../www/pkg/compgym_bg.wasm', import.meta.url)) });
  const { AUTOPHASE, featureSentence } = await import('../../www/src/features.js');
  const { featureChanges } = await import('../../www/src/observation-view.js');
  const episode = new Episode(make);
  episode.load({ uri: 'benchmark://suite-v0/loop-invariant' }, 'IrInstructionCount');
  const before = episode.observe(episode.root, 'AutophaseDict');
  assert.deepEqual(Object.keys(AUTOPHASE), Object.keys(before), 'the same features, in the same order');
  for (const name of Object.keys(episode.observe(episode.root, 'InstCountDict'))) assert.ok(featureSentence('InstCount', name).length > 10, name);
  const node = episode.step('-licm');
  const after = episode.observe(node, 'AutophaseDict');
  const changes = featureChanges(before, after);
  assert.ok(changes.length > 0);
  assert.deepEqual(changes.map((c) => c.name).sort(), Object.keys(after).filter((k) => after[k] !== before[k]).sort());
  for (let i = 1; i < changes.length; i++) assert.ok(Math.abs(changes[i - 1].delta) >= Math.abs(changes[i].delta), 'largest first');
  assert.deepEqual(featureChanges(after, after), []);
  episode.dispose();
});

test("the page's runtime rewards are the core's: which run the program, which need -O2, typed errors", () => {
  const { rewards } = web.catalog();
  for (const { name, runsProgram, needsO2: o2 } of rewards) {
    assert.equal(RUNTIME_REWARDS.test(name), runsProgram, name);
    assert.equal(needsO2(name), o2, name);
  }
  assert.deepEqual(
    rewards.filter((r) => r.runsProgram).map((r) => r.name),
    ['DynamicInstructionCount', 'DynamicInstructionCountNorm', 'DynamicInstructionCountO2'],
  );
  // The floor of a baseline-relative reward: -O2 saving 1 of 1000 counts as saving 5%.
  assert.equal(runtimeReward('DynamicInstructionCountO2', 1000, 990, { o0: 1000, o2: 999 }), 10 / 50);
  assert.equal(runtimeReward('DynamicInstructionCount', 9, 4), 5);
  assert.throws(() => runtimeReward('Speed', 2, 1, { o0: 2 }), { name: 'LookupError' });
  assert.throws(() => runtimeReward('IrInstructionCount', 2, 1, { o0: 2 }), { name: 'ValueError' });
  assert.throws(() => runtimeReward('DynamicInstructionCountO2', 2, 1, { o0: 2 }), { name: 'ValueError' });
  assert.throws(() => runtimeReward('DynamicInstructionCount', '2', 1), { name: 'TypeError' });
  assert.throws(() => runtimeReward('DynamicInstructionCountNorm', 2, 1, { o0: 2, o1: 1 }), { name: 'TypeError' });
});
