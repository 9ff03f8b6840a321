// End to end: the playground's episode in Chromium — passes, history tree,
// side-by-side diff, charts, CFG, the RL loop explained, rewards, failures
// and validation.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { start, open, historyState, press, pathFlags, loadSuite } from './playground-helpers.mjs';
import { brilPasses } from '../../pkg/node.js';

const cargoVersion = readFileSync(new URL('../../Cargo.toml', import.meta.url), 'utf8').match(/^version = "([^"]+)"/m)[1];

let env;
let page;

before(async () => {
  env = await start();
  page = await open(env);
});

after(async () => {
  await env?.close();
});

test('the page loads the wasm, marks the moment a step is possible and shows the version', async () => {
  assert.equal(await page.title(), 'compgym playground');
  assert.equal(await page.textContent('#version'), cargoVersion);
  assert.equal(await page.getAttribute('html', 'data-ready'), '');
  assert.equal(await page.$$eval('#passes button', (b) => b.length), brilPasses().passes.length);
});

test('the default program and reward: the first pass visibly changes the program and earns a reward', async () => {
  assert.match(page.url(), /#p=suite\/dead-code&r=IrInstructionCount$/);
  const first = await page.$eval('#passes button', (b) => b.dataset.flag);
  await press(page, first);
  const { steps, total } = await historyState(page);
  assert.equal(steps, 1);
  assert.ok(total > 0, `the first pass (${first}) earns a reward: ${total}`);
  assert.ok(Number(await page.getAttribute('#diff', 'data-changed-rows')) > 0, 'the diff shows a change');
  assert.match(await page.textContent('#explain-sentence'), new RegExp(`chose action 0, ${first}.*from 27 to 26 instructions`));
  assert.match(await page.textContent('#loop-action'), new RegExp(`action 0: ${first}`));
  assert.match(await page.textContent('#loop-reward'), /reward: \+1/);
  await page.click('#reset');
});

test('a step shows its before and after side by side, and a sentence saying what the pass did', async () => {
  await press(page, '-adce');
  const removed = await page.$$eval('#diff .pane.before .line.removed', (l) => l.map((x) => x.textContent));
  assert.ok(removed.length > 0, 'removed lines on the left');
  assert.equal(await page.$$eval('#diff .pane.after .line.removed', (l) => l.length), 0, 'nothing removed on the right');
  const left = await page.$$eval('#diff .pane.before > *', (l) => l.length);
  const right = await page.$$eval('#diff .pane.after > *', (l) => l.length);
  assert.equal(left, right, 'the two sides are aligned row by row');
  assert.match(await page.textContent('#diff-sentence'), /^-adce: Assumes everything is dead/);
  // Long unchanged runs fold, and unfold on click.
  const folds = await page.$$('#diff .pane.before button.fold');
  if (folds.length) {
    await folds[0].click();
    assert.ok((await page.$$('#diff .pane.before button.fold')).length < folds.length);
  }
  await page.click('#reset');
});

test('no-ops are greyed in the history and the pass grid; the history is a tree one can revisit and branch', async () => {
  await loadSuite(page, 'dead-code');
  await press(page, '-dce');
  await press(page, '-licm'); // nothing to hoist in dead-code
  const noop = await page.$eval('#history [aria-current]', (b) => ({ cls: b.className, text: b.textContent }));
  assert.match(noop.cls, /noop/);
  assert.match(noop.text, /no change/);
  assert.equal(await page.$eval('#passes button[data-flag="-licm"]', (b) => b.className), 'pass');
  await page.click('#back');
  assert.match(await page.$eval('#passes button[data-flag="-licm"]', (b) => b.className), /tried-noop/);
  // Branch: from step 1, another pass.
  await press(page, '-adce');
  assert.deepEqual(await pathFlags(page), ['-dce', '-adce']);
  assert.equal(await page.$$eval('#history ul.branches button.state', (b) => b.length), 1, 'the other branch is shown nested');
  // Revisit the first branch's node by clicking it.
  await page.click('#history button.state[data-flag="-licm"]');
  assert.deepEqual(await pathFlags(page), ['-dce', '-licm']);
  // And the start.
  await page.click('#history .tree > button.state:first-child');
  assert.deepEqual(await pathFlags(page), []);
  assert.equal(await page.isDisabled('#back'), true);
});

test('charts plot static and dynamic counts and the cumulative reward per step; a click goes to a step', async () => {
  await page.click('#reset');
  await press(page, '-dce');
  await press(page, '-adce');
  await page.waitForFunction(() => document.querySelector('#chart-counts').dataset.dynamicKnown === '3');
  assert.equal(await page.getAttribute('#chart-counts', 'data-points'), '3');
  const legends = await page.$$eval('#chart-counts .u-legend .u-label', (l) => l.map((x) => x.textContent));
  assert.deepEqual(legends, ['static size', '-Oz size', 'executed']);
  const axes = await page.$eval('#chart-counts', (c) => c.uplot.axes.map((a) => a.label));
  assert.deepEqual(axes, ['step', 'instructions', 'executed']);
  assert.equal(await page.$$eval('#chart-reward canvas', (c) => c.length), 1);
  // Click step 1 on the chart.
  const box = await page.$eval('#chart-counts .u-over', (o) => o.getBoundingClientRect().toJSON());
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  assert.deepEqual(await pathFlags(page), ['-dce']);
});

test('the CFG is laid out with instructions inside the blocks, the changed blocks marked, and zooms', async () => {
  await page.click('#reset');
  await page.selectOption('#program-suite', 'loop-invariant');
  await page.waitForFunction(() => location.hash.includes('loop-invariant'));
  // The views draw in a task of their own after the state changes: wait for this program's graph.
  await page.waitForFunction(() => document.querySelector('#cfg')?.dataset.state === 'drawn' && [...document.querySelectorAll('#cfg .cfg-instr')].some((t) => /= mul a b/.test(t.textContent)));
  const blocks = await page.$$eval('#cfg .cfg-block', (g) => g.length);
  assert.ok(blocks >= 5);
  const texts = await page.$$eval('#cfg .cfg-block .cfg-instr', (t) => t.map((x) => x.textContent));
  assert.ok(texts.some((t) => /= mul a b/.test(t)), 'instructions are drawn inside the blocks');
  assert.equal(await page.$$eval('#cfg .cfg-block.changed', (g) => g.length), 0);
  await press(page, '-licm');
  await page.waitForSelector('#cfg[data-state="drawn"]:not([data-changed="0"])', { state: 'attached' });
  const changed = await page.$$eval('#cfg .cfg-block.changed', (g) => g.length);
  assert.ok(changed > 0, '-licm changes some blocks');
  assert.match(await page.textContent('#cfg-legend'), new RegExp(`${changed} of \\d+ blocks changed by -licm`));
  const scale = () => page.$eval('#cfg .cfg-stage', (s) => s.style.transform);
  const before = await scale();
  await page.click('#cfg-zoom-in');
  await page.waitForFunction((b) => document.querySelector('#cfg .cfg-stage').style.transform !== b, before);
  assert.ok((await scale()).startsWith('scale('));
});

test('switching the reward mid-episode replays the steps: rewards and episode reward agree (defect 8)', async () => {
  await page.selectOption('#program-suite', 'fib-iter');
  await page.waitForFunction(() => location.hash.includes('fib-iter'));
  for (const flag of ['-dce', '-lvn', '-adce']) await press(page, flag);
  await page.selectOption('#reward', 'IrInstructionCountOz');
  await page.waitForFunction(() => location.hash.includes('r=IrInstructionCountOz'));
  const steps = await page.evaluate(() =>
    window.compgymPlayground.episode.path().slice(1).map((n) => ({ flag: n.flag, reward: n.reward, changed: n.changed })),
  );
  for (const s of steps) if (!s.changed) assert.equal(s.reward, 0, `${s.flag} had no effect, so no reward`);
  const { total } = await historyState(page);
  const sum = steps.reduce((a, s) => a + s.reward, 0);
  assert.ok(Math.abs(sum - total) < 1e-9, `steps add up to ${sum}, episode ${total}`);
  const shown = await page.$$eval('#history button.state .r', (r) => r.map((x) => x.textContent));
  assert.ok(!shown.some((t) => /no change/.test(t) && /1\.0/.test(t)));
  assert.match(await page.textContent('#reward-sentence'), /-Oz/);
});

test('a failed step says what failed and the episode goes on from the last good state (defect 2)', async () => {
  // A program that divides by zero, under a runtime reward: loaded through the link.
  const source = '@main {\n  a: int = const 1;\n  z: int = const 0;\n  c: int = div a z;\n  print c;\n}';
  const p = await open(env, { fragment: '' });
  await p.evaluate(async (text) => {
    await window.compgymPlayground.loadProgram({ kind: 'own', source: text });
  }, source);
  // The program does not run, so the runtime rewards are offered disabled, with the reason.
  const option = await p.$eval('#reward option[value="DynamicInstructionCount"]', (o) => ({ disabled: o.disabled, text: o.textContent }));
  assert.deepEqual(option, { disabled: true, text: 'DynamicInstructionCount (needs a program that runs)' });
  // Forced through the API, the step fails and the episode survives.
  await press(p, '-dce');
  await p.evaluate(() => window.compgymPlayground.episode.setReward('DynamicInstructionCount'));
  await p.click('#passes button[data-flag="-lvn"]');
  await p.waitForFunction(() => document.querySelector('#step-error').textContent !== '');
  assert.match(await p.textContent('#step-error'), /-lvn failed: .*division by zero.*goes on from the start/);
  assert.ok((await p.$$('#history button.state.failed')).length >= 1, 'the failure is in the history');
  assert.equal(await p.isDisabled('#passes button[data-flag="-sccp"]'), false);
  await p.evaluate(() => window.compgymPlayground.setReward('IrInstructionCount'));
  await press(p, '-peephole');
  assert.equal(await p.textContent('#step-error'), '');
  assert.deepEqual(p.problems, []);
  await p.closeAll();
});

test('validate says valid for a good episode, and its result leaves when the state changes (defect 5)', async () => {
  await page.click('#reset');
  await press(page, '-dce');
  await page.click('#validate');
  await page.waitForFunction(() => ['valid', 'invalid', 'cannot-run'].includes(document.querySelector('#validation').dataset.verdict));
  assert.equal(await page.getAttribute('#validation', 'data-verdict'), 'valid');
  assert.match(await page.textContent('#validation'), /Same output as the unoptimised program/);
  await press(page, '-lvn');
  assert.equal(await page.textContent('#validation'), '', 'an old result does not stay after a later step');
});

test('validate says what happened for a program that never ends, divides by zero or lacks arguments (defect 3)', async () => {
  const p = await open(env);
  const cases = [
    ['@main {\n.l:\n  jmp .l;\n}', [], /does not finish|did not finish/],
    ['@main {\n  a: int = const 1;\n  z: int = const 0;\n  c: int = div a z;\n  print c;\n}', [], /fails when it runs: RuntimeError: division by zero/],
    ['@main(n: int) {\n  print n;\n}', [], /@main takes 1 argument\(s\) but 0 were given/],
  ];
  await p.selectOption('#run-limit', '1000');
  for (const [source, args, expected] of cases) {
    await p.evaluate(async ([text, a]) => {
      const app = window.compgymPlayground;
      await app.loadProgram({ kind: 'own', source: text });
      app.setArgs(a);
    }, [source, args]);
    await press(p, '-dce');
    await p.click('#validate');
    await p.waitForFunction(() => ['valid', 'invalid', 'cannot-run'].includes(document.querySelector('#validation').dataset.verdict), null, { timeout: 20_000 });
    assert.equal(await p.getAttribute('#validation', 'data-verdict'), 'cannot-run', source);
    assert.match(await p.textContent('#validation'), expected);
  }
  assert.deepEqual(p.problems, []);
  await p.closeAll();
});

test('words: every pass, reward and observation shown has a plain sentence', async () => {
  const glossary = await page.textContent('#glossary');
  const flags = await page.$$eval('#passes button', (b) => b.map((x) => x.dataset.flag));
  for (const flag of flags) {
    assert.ok(glossary.includes(flag), `${flag} is explained`);
    assert.ok((await page.getAttribute(`#passes button[data-flag="${flag}"]`, 'title')).length > 20);
  }
  const rewards = await page.$$eval('#reward option', (o) => o.map((x) => x.value));
  for (const reward of rewards) assert.ok(glossary.includes(reward), `${reward} is explained`);
  for (const term of ['agent', 'action', 'environment', 'observation', 'reward', 'episode']) assert.ok(glossary.includes(term));
  assert.ok((await page.textContent('#chart-counts-note')).length > 40, 'the charts say what they plot');
});

test('no page error, console error or failed request', () => {
  assert.deepEqual(page.problems, []);
});
