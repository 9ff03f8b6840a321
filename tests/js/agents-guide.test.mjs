// The JavaScript examples of docs/agents.md, run verbatim in Node as modules
// of a project with the package installed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { blocksOf, runExamples } from './doc-examples.mjs';

const pkgDir = new URL('../../pkg/', import.meta.url).pathname;
const blocks = blocksOf('docs/agents.md', 'js').map((b) => b.code);

/** Checks what an example printed. */
const CHECKS = [
  (lines) => {
    assert.equal(lines.length, 3);
    const [initial, arrow, cost, commandline] = lines[0].split(' ', 4);
    assert.equal(arrow, '->');
    assert.ok(Number(cost) < Number(initial), lines[0]);
    assert.match(commandline, /^-/);
    assert.equal(lines[1], `${cost} true`, 'the result replays and validates');
    assert.match(lines[2], /^\d+ steps: \d+ instructions$/);
  },
  (lines) => {
    const progress = lines.slice(0, -2);
    assert.ok(progress.length >= 3, `progress about every 100 ms: ${lines.join('\n')}`);
    assert.ok(progress.every((l) => /^\d+ \d+$/.test(l)));
    const [status, cost, lt, initial] = lines.at(-2).split(' ');
    assert.equal(status, 'cancelled');
    assert.equal(lt, '<');
    assert.ok(Number(cost) < Number(initial));
    assert.equal(lines.at(-1), '20 updates');
  },
  (lines) => {
    assert.equal(lines[0], '| task | dataset | agent | vs | geomean | better | worse | valid | steps/program | seconds/program |');
    assert.equal(lines.length, 2 + 3 * 3 + 1, 'three agents on three datasets, then the check');
    assert.equal(lines.at(-1), 'true');
  },
];

test('docs/agents.md shows three JavaScript examples, and they run verbatim in Node', () => {
  assert.equal(blocks.length, CHECKS.length);
  runExamples(pkgDir, blocks, (i, lines) => CHECKS[i](lines));
});
