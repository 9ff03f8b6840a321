// The playground's episode model (www/src/episode.js) over the built package
// in Node: the history tree, failed steps, reward switching, replay.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { make } from '../../pkg/node.js';
import { Episode } from '../../www/src/episode.js';

const DEAD_CODE = { uri: 'benchmark://suite-v0/dead-code' };
const DIVIDES_BY_ZERO = {
  uri: 'benchmark://user-v0/divides-by-zero',
  source: '@main {\n  a: int = const 1;\n  z: int = const 0;\n  c: int = div a z;\n  print c;\n}',
};

function sum(values) {
  return values.reduce((a, b) => a + b, 0);
}

test('steps make a path; going back and stepping again branches; known steps are reused', () => {
  const episode = new Episode(make);
  episode.load(DEAD_CODE, 'IrInstructionCount');
  const start = episode.size(episode.root);
  const dce = episode.step('-dce');
  assert.equal(dce.flag, '-dce');
  assert.equal(episode.current, dce);
  assert.equal(episode.size(dce), start - 1);
  assert.equal(dce.reward, 1, 'IrInstructionCount rewards the instructions removed');
  episode.step('-adce');
  assert.deepEqual(episode.actions(), ['-dce', '-adce']);

  episode.back();
  episode.back();
  assert.equal(episode.current, episode.root);
  const branch = episode.step('-sccp');
  assert.equal(episode.root.children.length, 2, 'a step after going back branches');
  assert.deepEqual(episode.actions(), ['-sccp']);
  episode.goTo(dce);
  assert.deepEqual(episode.actions(), ['-dce']);
  assert.equal(episode.step('-adce'), dce.children[0], 'a step taken before is revisited, not repeated');
  assert.equal(branch.parent, episode.root);
  episode.dispose();
});

test('a failed step keeps the episode: the failure is recorded and the last good state stays current', () => {
  const episode = new Episode(make);
  episode.load(DIVIDES_BY_ZERO, 'IrInstructionCount');
  episode.step('-dce');
  const good = episode.current;
  // Under a runtime reward every step runs the program, which divides by zero.
  episode.setReward('DynamicInstructionCount');
  assert.ok(good.error, 'replayed under the runtime reward, the step fails');
  assert.equal(episode.current, episode.root, 'the current state moves to the last good one');
  const failed = episode.step('-lvn');
  assert.ok(failed.error, 'the step failed');
  assert.match(`${failed.error.name}: ${failed.error.message}`, /division by zero/);
  assert.equal(episode.failure, failed);
  assert.equal(episode.current, episode.root, 'the current state is still the last good one');
  // The episode goes on from the last good state; failed steps are retried under a new reward.
  episode.setReward('IrInstructionCount');
  assert.equal(good.error, null);
  const next = episode.step('-peephole');
  assert.equal(next.error, null);
  assert.equal(episode.failure, null);
  assert.deepEqual(episode.actions(), ['-peephole']);
  episode.dispose();
});

test('switching the reward replays the tree: step rewards add up to the episode reward, no-ops earn 0', () => {
  const episode = new Episode(make);
  episode.load({ uri: 'benchmark://suite-v0/fib-iter' }, 'IrInstructionCount');
  for (const flag of ['-dce', '-lvn', '-adce', '-peephole']) episode.step(flag);
  episode.setReward('IrInstructionCountOz');
  const steps = episode.path().slice(1);
  for (const node of steps) {
    if (!node.changed) assert.equal(node.reward, 0, `${node.flag} changed nothing, so it earns nothing`);
  }
  const rewards = steps.map((n) => n.reward);
  assert.ok(Math.abs(sum(rewards) - episode.current.total) < 1e-9);
  assert.ok(Math.abs(episode.current.env.episodeReward - episode.current.total) < 1e-9, 'the environment agrees');
  episode.dispose();
});

test('replay restores a list of actions from the root', () => {
  const episode = new Episode(make);
  episode.load(DEAD_CODE, 'IrInstructionCountOz');
  episode.replay(['-dce', '-dead-store', '-adce']);
  assert.deepEqual(episode.actions(), ['-dce', '-dead-store', '-adce']);
  assert.throws(() => episode.step('-nope'), { name: 'LookupError' });
  episode.dispose();
});

test('a program that cannot be loaded leaves the previous episode intact', () => {
  const episode = new Episode(make);
  episode.load(DEAD_CODE, 'IrInstructionCount');
  episode.step('-dce');
  assert.throws(
    () => episode.load({ uri: 'benchmark://user-v0/broken', source: '@main {\n  a: int = add;\n}' }, 'IrInstructionCount'),
    { name: 'BenchmarkInitError' },
  );
  assert.equal(episode.program.uri, DEAD_CODE.uri);
  assert.deepEqual(episode.actions(), ['-dce']);
  episode.dispose();
});
