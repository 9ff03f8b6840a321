// The compiler's own pipelines as steps of the playground's episode
// (www/src/pipelines.js) over the built package in Node: each pipeline,
// stepped pass by pass from its plan, ends where the pipeline itself does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { make, brilPasses, optimizeBril } from '../../pkg/node.js';
import { Episode } from '../../www/src/episode.js';
import { applyPipeline } from '../../www/src/pipelines.js';

const { pipelinePlans } = brilPasses();

test('the package gives a plan for every pipeline it lists', () => {
  assert.deepEqual(Object.keys(pipelinePlans).sort(), [...brilPasses().pipelines].sort());
  assert.deepEqual(pipelinePlans['-O0'].groups, []);
  assert.equal(pipelinePlans['-Oz'].keepGroupIfNoLarger, true);
  assert.equal(pipelinePlans['-O2'].keepGroupIfNoLarger, false);
  for (const plan of Object.values(pipelinePlans)) {
    for (const flag of plan.groups.flat()) assert.ok(brilPasses().passes.some((p) => p.flag === flag), flag);
  }
});

for (const name of ['-O1', '-O2', '-Oz']) {
  test(`${name} as steps ends at the program ${name} gives, with one change event`, () => {
    for (const program of ['loop-invariant', 'fib-rec', 'inline-small', 'matmul']) {
      const episode = new Episode(make);
      episode.load({ uri: `benchmark://suite-v0/${program}` }, 'IrInstructionCount');
      const source = episode.observe(episode.root, 'Ir');
      let events = 0;
      episode.addEventListener('change', () => events++);
      const { steps, failed } = applyPipeline(episode, pipelinePlans[name]);
      assert.equal(failed, null);
      assert.equal(events, 1);
      assert.equal(steps, pipelinePlans[name].groups.flat().length, 'every pass of every group is a step');
      assert.equal(episode.observe(episode.current, 'Ir'), optimizeBril(source, [name], false), `${name} on ${program}`);
      if (name === '-Oz') {
        assert.equal(episode.size(episode.current), Number(episode.observe(episode.root, 'IrInstructionCountOz')));
      }
      episode.dispose();
    }
  });
}
