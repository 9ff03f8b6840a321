// End to end: the playground's second pass (issue 26) — the page never
// scrolls by itself, the arguments box reaches every run (validation's
// replay, the dynamic reward, the charts), a verdict belongs to its
// arguments, output before a failure is kept, and the diff shows the first
// change. Each test failed before its fix.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, open, press } from './playground-helpers.mjs';

let env;

before(async () => {
  env = await start();
});

after(async () => {
  await env?.close();
});

/** Types `text` into the arguments box and waits for the episode to be loaded on them. */
async function typeArgs(page, text) {
  await page.fill('#run-args', text);
  await page.press('#run-args', 'Enter');
  await page.waitForFunction((t) => window.compgymPlayground.args.join(' ') === t && window.compgymPlayground.info.run !== null, text.trim());
}

async function loadOwn(page, source) {
  await page.evaluate((text) => window.compgymPlayground.loadProgram({ kind: 'own', source: text }), source);
}

async function validate(page) {
  await page.click('#validate');
  await page.waitForFunction(() => ['valid', 'invalid', 'cannot-run'].includes(document.querySelector('#validation').dataset.verdict), null, { timeout: 60_000 });
  return { verdict: await page.getAttribute('#validation', 'data-verdict'), text: await page.textContent('#validation') };
}

async function runAndWait(page) {
  await page.click('#run');
  await page.waitForFunction(() => document.querySelector('#run-status').dataset.state !== 'running', null, { timeout: 60_000 });
  return page.$eval('#run-status', (s) => ({ state: s.dataset.state, text: s.textContent, dynInst: Number(s.dataset.dynInst) }));
}

test('defect 5: at 390 px the page opens at the top and stays there when the history grows', async () => {
  const page = await open(env, { width: 390, height: 844, fragment: '#p=suite/loop-invariant&r=IrInstructionCount&s=-licm,-dce,-adce,-lvn,-gvn,-sccp' });
  assert.equal(await page.evaluate(() => window.scrollY), 0, 'opened at the top');
  // Pressed from script: a pointer would scroll the page to the button itself.
  for (const flag of ['-simplify-cfg', '-copy-prop', '-dce']) {
    const steps = await page.$eval('#history', (e) => e.dataset.steps);
    await page.$eval(`#passes button[data-flag="${flag}"]`, (b) => b.click());
    await page.waitForFunction((n) => document.querySelector('#history').dataset.steps !== n, steps);
  }
  assert.equal(await page.evaluate(() => window.scrollY), 0, 'a step does not move the page');
  // The history itself scrolled to show the current state.
  const shown = await page.evaluate(() => {
    const history = document.querySelector('#history').getBoundingClientRect();
    const current = document.querySelector('#history [aria-current]').getBoundingClientRect();
    return current.top >= history.top - 1 && current.bottom <= history.bottom + 1;
  });
  assert.ok(shown, 'the current state is in view inside the history');
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});

const ARITY = '@main(n: int) {\n  one: int = const 1;\n  i: int = const 0;\n  s: int = const 0;\n.loop:\n  c: bool = lt i n;\n  br c .body .done;\n.body:\n  t: int = add one one;\n  s: int = add s t;\n  i: int = add i one;\n  jmp .loop;\n.done:\n  print s;\n}';

test('defects 1 and 8: arguments typed in the box reach validation, and a new argument clears the verdict', async () => {
  const page = await open(env);
  await loadOwn(page, ARITY);
  await typeArgs(page, '21');
  await press(page, '-lvn');
  const { verdict, text } = await validate(page);
  assert.equal(verdict, 'valid', text);
  assert.doesNotMatch(text, /arity/);
  await typeArgs(page, '5');
  assert.equal(await page.getAttribute('#validation', 'data-verdict'), null, 'the verdict on 21 is gone');
  assert.equal(await page.textContent('#validation'), '');
  assert.deepEqual(await page.evaluate(() => window.compgymPlayground.episode.actions()), ['-lvn'], 'the steps are kept');
  assert.equal((await validate(page)).verdict, 'valid');
  assert.match(page.url(), /args=5/);
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});

test('defect 3: the dynamic reward and the executed count use the arguments box, as Run does', async () => {
  const page = await open(env, { fragment: '#p=suite/fib-iter&r=IrInstructionCount' });
  await typeArgs(page, '7');
  const run = await runAndWait(page);
  assert.equal(run.state, 'ok', run.text);
  const counted = await page.evaluate(() => {
    const app = window.compgymPlayground;
    return Number(app.episode.root.env.observation.get('DynamicInstructionCount'));
  });
  assert.equal(counted, run.dynInst, 'the environment runs on the box');
  await page.waitForFunction((n) => window.compgymPlayground.dynamicCount(window.compgymPlayground.episode.current) === n, run.dynInst);
  // The dynamic reward of a step is the executed count it saved on these arguments.
  await page.selectOption('#reward', 'DynamicInstructionCount');
  await press(page, '-dce');
  const after = await runAndWait(page);
  const reward = await page.evaluate(() => window.compgymPlayground.episode.current.reward);
  assert.equal(reward, run.dynInst - after.dynInst);
  // Arguments the program cannot run on: the dynamic reward gives way, with a note.
  await typeArgs(page, 'seven');
  assert.equal(await page.$eval('#reward', (s) => s.value), 'IrInstructionCount');
  assert.match(await page.textContent('#program-note'), /DynamicInstructionCount needs a program that runs/);
  assert.deepEqual(await page.evaluate(() => window.compgymPlayground.episode.actions()), ['-dce']);
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});

test('defect 4: a run that fails keeps the output printed before the failure', async () => {
  const page = await open(env);
  await loadOwn(page, '@main {\n  a: int = const 4;\n  print a;\n  z: int = const 0;\n  c: int = div a z;\n  print c;\n}');
  const run = await runAndWait(page);
  assert.equal(run.state, 'error');
  assert.match(run.text, /division by zero/);
  assert.equal(await page.textContent('#run-output'), '4\n');
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});

test('defect 6: the diff opens at the first change, lines added above the first removal included', async () => {
  const page = await open(env, { fragment: '#p=suite/loop-invariant&r=IrInstructionCount&s=-licm' });
  await page.waitForFunction(() => document.querySelector('#diff').dataset.state === 'drawn');
  const view = await page.evaluate(() => {
    const diff = document.querySelector('#diff');
    const box = diff.getBoundingClientRect();
    const added = document.querySelector('#diff .pane.after .line.added').getBoundingClientRect();
    const removed = document.querySelector('#diff .pane.before .line.removed').getBoundingClientRect();
    return { top: box.top, bottom: box.bottom, added: added.top, removed: removed.top };
  });
  assert.ok(view.added < view.removed, `-licm adds lines above the first it removes: ${JSON.stringify(view)}`);
  assert.ok(view.added >= view.top && view.added < view.bottom, `the first added line is in view: ${JSON.stringify(view)}`);
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});

test('defect 9: a Gymnasium description without a name builds, and "contains?" never answers for an older space', async () => {
  const page = await open(env);
  await page.fill('#space-json', '{"type":"Discrete","n":5}');
  await page.click('#space-load');
  assert.equal(await page.textContent('#space-error'), '');
  await page.fill('#space-value', '4');
  await page.click('#space-contains');
  assert.equal(await page.getAttribute('#space-contains-result', 'data-result'), 'true');
  // A broken description: its error stays, and no answer comes from the Discrete(5) before it.
  await page.fill('#space-json', '{"type":"Discrete"}');
  await page.click('#space-load');
  const error = await page.textContent('#space-error');
  assert.match(error, /\bn\b/);
  await page.click('#space-contains');
  assert.equal(await page.textContent('#space-error'), error);
  assert.equal(await page.getAttribute('#space-contains-result', 'data-result'), null);
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});

test('defect 10: a link with an unknown pass keeps its program and the known passes, and names the unknown one', async () => {
  const page = await open(env, { fragment: '#p=suite/loop-invariant&r=IrInstructionCount&s=-dce,-bogus,-lvn' });
  assert.equal(await page.evaluate(() => window.compgymPlayground.program.name), 'loop-invariant');
  assert.deepEqual(await page.evaluate(() => window.compgymPlayground.episode.actions()), ['-dce', '-lvn']);
  assert.match(await page.textContent('#status'), /does not know: "-bogus"/);
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});

test('defect 10: damaged program text in a link is called damaged, not a TypeError', async () => {
  const { decodeState } = await import('../../www/src/share.js');
  assert.throws(() => decodeState('p=src/zzzz'), { name: 'ValueError', message: /damaged/ });
  const page = await open(env, { fragment: '#p=src/zzzz' });
  const status = await page.textContent('#status');
  assert.match(status, /damaged/);
  assert.doesNotMatch(status, /charAt/);
  await page.closeAll();
});

test('defect 11: a CSV whose reward differs says so, and one of an own program names what the page lacks', async () => {
  const page = await open(env);
  await page.click('#share-csv');
  await page.fill('#csv-text', 'benchmark,reward,walltime,commandline\nbenchmark://suite-v0/dead-code,0.7,0.1,-dce\n');
  await page.click('#csv-import');
  await page.waitForFunction(() => /Imported/.test(document.querySelector('#csv-status').textContent));
  assert.match(await page.textContent('#csv-status'), /but the reward differs: the CSV says 0\.7, the replay under IrInstructionCount gives \d+ /);
  // An own program's CSV, made in one page, imported into a fresh one.
  await loadOwn(page, ARITY);
  await press(page, '-lvn');
  const csv = await page.$eval('#csv-text', (t) => t.value);
  await page.closeAll();
  const fresh = await open(env);
  await fresh.click('#share-csv');
  await fresh.fill('#csv-text', csv);
  await fresh.click('#csv-import');
  assert.match(await fresh.textContent('#csv-status'), /the CSV names benchmark:\/\/user-v0\/\w+, a program this page does not have/);
  assert.deepEqual(fresh.problems, []);
  await fresh.closeAll();
});

test('defect 12: the best-size chart is a step chart, the search lowers the selected reward, and adopt retires with its program', async () => {
  const page = await open(env, { fragment: '#p=suite/loop-invariant&r=DynamicInstructionCount' });
  const stepped = await page.$eval('#agent-chart', (c) => c.uplot.series[1].paths !== c.uplot.series[2].paths);
  assert.ok(stepped, 'the best found is drawn as steps, unlike the -Oz line');
  await page.selectOption('#agent-name', 'greedy');
  await page.fill('#agent-steps', '300');
  await page.fill('#agent-seconds', '');
  await page.click('#agent-run');
  await page.waitForFunction(() => ['done', 'failed'].includes(document.querySelector('#agent-status').dataset.state), null, { timeout: 60_000 });
  const start = Number(await page.getAttribute('#agent-status', 'data-start'));
  const executed = await page.evaluate(() => Number(window.compgymPlayground.episode.root.env.observation.get('DynamicInstructionCount')));
  assert.equal(start, executed, 'the search starts from the instructions executed, the reward selected');
  assert.match(await page.textContent('#agent-status'), /instructions executed/);
  assert.equal(await page.$eval('#agent-adopt', (b) => b.disabled), false);
  await page.evaluate(() => window.compgymPlayground.loadProgram({ kind: 'suite', name: 'dead-code' }));
  assert.equal(await page.$eval('#agent-adopt', (b) => b.disabled), true, 'a search of another program cannot be adopted');
  assert.match(await page.textContent('#agent-status'), /program changed/);
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});

test('defect 13: large rewards have separators and one block is one block', async () => {
  const { signed, plural } = await import('../../www/src/format.js');
  assert.equal(signed(80999994), '+80,999,994');
  assert.equal(signed(-1234.5, 1), '−1,234.5');
  assert.equal(signed(0.25), '+0.250');
  assert.equal(plural(1, 'block'), '1 block');
  assert.equal(plural(12000, 'block'), '12,000 blocks');
});

test('defect 13: at 390 px the loop diagram\'s text is at least 11 px', async () => {
  const page = await open(env, { width: 390, height: 844, fragment: '#p=suite/loop-invariant&r=IrInstructionCount&s=-licm' });
  const sizes = await page.$$eval('#explain-diagram svg text', (texts) =>
    texts.map((t) => ({ text: t.textContent, px: t.getScreenCTM().a * parseFloat(getComputedStyle(t).fontSize), right: t.getBoundingClientRect().right })),
  );
  for (const { text, px, right } of sizes) {
    assert.ok(px >= 11, `"${text}" is drawn at ${px.toFixed(1)} px`);
    assert.ok(right <= 390, `"${text}" stays on screen`);
  }
  await page.closeAll();
});

test('the compiler\'s pipelines as steps: -Oz ends at -Oz\'s size; no-ops hide; the whole episode diffs with words marked', async () => {
  const page = await open(env, { fragment: '#p=suite/loop-invariant&r=IrInstructionCount' });
  const pipelines = await page.$$eval('#pipelines button', (b) => b.map((x) => x.dataset.pipeline));
  assert.deepEqual(pipelines, ['-O1', '-O2', '-Oz']);
  const before = await page.$eval('#history', (e) => e.innerHTML);
  await page.click('#pipelines button[data-pipeline="-Oz"]');
  await page.waitForFunction((html) => document.querySelector('#history').innerHTML !== html, before);
  const { size, oz, steps } = await page.evaluate(() => {
    const { episode } = window.compgymPlayground;
    return {
      size: episode.size(episode.current),
      oz: Number(episode.observe(episode.root, 'IrInstructionCountOz')),
      steps: episode.current.depth,
    };
  });
  assert.equal(size, oz, 'the steps end where -Oz does');
  assert.ok(steps > 3);
  assert.match(await page.textContent('#pipeline-note'), /^-Oz: \d+ steps/);

  // Passes that changed nothing: shown greyed, hidden on request (the current state always shown).
  const noops = Number(await page.getAttribute('#history', 'data-noops'));
  assert.ok(noops > 0, 'a pipeline has passes that change nothing');
  const visibleNoops = () => page.$$eval('#history button.state.noop', (b) => b.filter((x) => x.offsetParent !== null && !x.hasAttribute('aria-current')).length);
  assert.equal(await visibleNoops(), noops);
  await page.check('#hide-noops');
  assert.equal(await visibleNoops(), 0);
  await page.uncheck('#hide-noops');

  // The whole episode's diff: as loaded against now, changed words marked inside changed lines.
  await page.check('#diff-whole');
  await page.waitForFunction(() => document.querySelector('#diff').dataset.whole === 'true');
  assert.match(await page.textContent('#diff .heads'), /before: as loaded/);
  assert.match(await page.textContent('#diff-sentence'), /^Over the whole episode, \d+ steps/);
  assert.ok(Number(await page.getAttribute('#diff', 'data-changed-rows')) > 0);
  assert.ok((await page.$$('#diff .word.added, #diff .word.removed')).length > 0, 'changed words are marked');
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});
