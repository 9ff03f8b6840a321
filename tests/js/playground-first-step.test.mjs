// The page's first steps in Node: the first-step module (www/first-step/,
// the compiler alone) behind the part of the package's API the episode uses
// (www/src/first-step.js), and the episode moved onto the package's
// environments afterwards (Episode.upgrade), against the package itself.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { make, catalog, brilPasses } from '../../pkg/node.js';
import { initSync } from '../../www/first-step/first-step.js';
import { Episode } from '../../www/src/episode.js';

let firstStep;

before(async () => {
  initSync({ module: readFileSync(new URL('../../www/first-step/first-step_bg.wasm', import.meta.url)) });
  firstStep = await import('../../www/src/first-step.js');
});

const DEAD_CODE = { uri: 'benchmark://suite-v0/dead-code' };
const OWN = { uri: 'user://own', source: '@main {\n  a: int = const 1;\n  b: int = id a;\n  c: int = add a a;\n  print a;\n}' };
const OBSERVATIONS = ['Ir', 'Cfg', 'IrInstructionCount', 'InstCountDict', 'AutophaseDict'];

/** Walks `episode` through `flags` from its root, branching at the root after the first two. */
function walk(episode, flags) {
  flags.forEach((flag, i) => {
    if (i === 2) episode.goTo(episode.root);
    episode.step(flag);
  });
}

/** Every node's flag path, reward, total and observations, in tree order. */
function tree(episode) {
  return [...episode.nodes()].map((node) => ({
    depth: node.depth,
    flag: node.flag,
    reward: node.reward,
    total: node.total,
    changed: node.changed,
    observed: OBSERVATIONS.map((name) => episode.observe(node, name)),
  }));
}

test('the first-step module answers as the package does: passes, rewards, registries, observations and states', () => {
  const { firstStepApi, catalog: firstCatalog } = firstStep;
  assert.deepEqual(firstCatalog(), catalog(), 'the same registries');
  assert.deepEqual(firstStepApi.brilPasses(), brilPasses(), 'the same passes and pipeline plans');
  for (const program of [DEAD_CODE, OWN]) {
    const mine = firstStepApi.make('bril-v0', { rewardSpace: 'IrInstructionCount' });
    const theirs = make('bril-v0', { rewardSpace: 'IrInstructionCount' });
    for (const env of [mine, theirs]) {
      if (program.source) env.addBenchmark(program.uri, program.source);
      env.reset({ benchmark: program.uri });
    }
    assert.deepEqual(mine.actionSpace.flags, theirs.actionSpace.flags);
    assert.deepEqual(mine.actionSpace.descriptions, theirs.actionSpace.descriptions);
    assert.deepEqual(mine.reward.spaces.map((s) => s.name), theirs.reward.spaces.map((s) => s.name));
    for (const flag of ['-dce', '-copy-prop', '-dce', '-lvn', '-to-ssa']) {
      const action = mine.actionSpace.flags.indexOf(flag);
      const [a, b] = [mine.step(action), theirs.step(action)];
      assert.equal(a.reward, b.reward, `${program.uri} ${flag}: reward`);
      assert.equal(a.info.actionHadNoEffect, b.info.actionHadNoEffect, `${program.uri} ${flag}: effect`);
      for (const name of OBSERVATIONS) assert.deepEqual(mine.observation.get(name), theirs.observation.get(name), `${flag}: ${name}`);
    }
    const { walltime: _w1, ...state } = mine.state;
    const { walltime: _w2, ...expected } = theirs.state;
    assert.deepEqual(state, expected);
    const fork = mine.fork();
    fork.step(0);
    assert.notEqual(fork.state.commandline, mine.state.commandline, 'a fork steps apart');
    for (const env of [mine, theirs, fork]) env.free();
  }
  const suite = firstStepApi.make('bril-v0', { rewardSpace: 'IrInstructionCount' }).datasets[0];
  assert.equal(suite.name, 'benchmark://suite-v0');
  assert.ok(suite.benchmarks.includes(DEAD_CODE.uri));
});

test('the first-step module serves the suite and own programs under IrInstructionCount; the rest waits for the package', () => {
  const { firstStepApi } = firstStep;
  const episode = new Episode(firstStepApi.make);
  assert.equal(episode.canLoad(firstStepApi, DEAD_CODE, 'IrInstructionCount'), true);
  assert.equal(episode.canLoad(firstStepApi, OWN, 'IrInstructionCount'), true);
  assert.equal(episode.canLoad(firstStepApi, { uri: 'generator://random-v0/7?size=50' }, 'IrInstructionCount'), false);
  assert.equal(episode.canLoad(firstStepApi, DEAD_CODE, 'IrInstructionCountOz'), false);
  assert.equal(episode.canLoad({ make }, DEAD_CODE, 'IrInstructionCountOz'), true, 'the package serves everything');
  assert.throws(() => firstStepApi.make('bril-v0', { rewardSpace: 'IrInstructionCountOz' }), { name: 'LookupError' });
  assert.throws(() => firstStepApi.make('bril-ic-v0', { rewardSpace: 'IrInstructionCount' }), { name: 'LookupError' });
  const env = firstStepApi.make('bril-v0', { rewardSpace: 'IrInstructionCount' });
  assert.throws(() => env.reset({ benchmark: 'benchmark://suite-v0/no-such-program' }), { name: 'LookupError' });
  assert.throws(() => env.observation.get('Ir'), { name: 'LookupError' }, 'nothing is loaded');
  env.addBenchmark('user://broken', '@main {');
  assert.throws(() => env.reset({ benchmark: 'user://broken' }), { name: 'BenchmarkInitError' });
});

test('an episode started on the first-step module moves onto the package whole: the same tree, rewards and observations', () => {
  const flags = ['-dce', '-adce', '-copy-prop', '-lvn', '-dce', '-to-ssa', '-from-ssa', '-peephole'];
  for (const program of [DEAD_CODE, OWN]) {
    const early = new Episode(firstStep.firstStepApi.make);
    early.load(program, 'IrInstructionCount');
    walk(early, flags);
    const current = early.current;
    const before = tree(early);
    const envs = [...early.nodes()].map((node) => node.env);
    early.upgrade(make);
    assert.equal(early.current, current, 'the same nodes');
    assert.deepEqual(tree(early), before, `${program.uri}: nothing observed changed`);
    for (const env of envs) assert.throws(() => env.observation.get('Ir'), { name: 'LookupError' }, 'the first-step states are freed');
    // The states now answer what only the package knows, and step on.
    assert.equal(typeof early.observe(early.current, 'DynamicInstructionCount'), 'number');
    early.step('-sccp');

    const direct = new Episode(make);
    direct.load(program, 'IrInstructionCount');
    walk(direct, flags);
    direct.step('-sccp');
    assert.deepEqual(tree(early), tree(direct), `${program.uri}: as if the package had run it from the start`);
    early.dispose();
    direct.dispose();
  }
});
