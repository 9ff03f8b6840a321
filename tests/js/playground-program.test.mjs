// End to end: the program panel — suite, generated and own programs, the
// Bril editor, errors placed and explained, and runs in a worker with a
// time limit, a cancel button and long output cut.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, open, press, historyState } from './playground-helpers.mjs';

let env;
let page;

before(async () => {
  env = await start();
  page = await open(env);
});

after(async () => {
  await env?.close();
});

/** Replaces the editor's text, as typing would. */
async function typeProgram(p, text) {
  await p.click('#editor .cm-content');
  await p.keyboard.press('Control+A');
  await p.keyboard.press('Delete');
  if (text) await p.keyboard.insertText(text);
}

async function loadOwn(p, text) {
  await typeProgram(p, text);
  await p.click('#program-load');
  await p.waitForFunction(() => !/Loading/.test(document.querySelector('#program-note').textContent));
}

async function runAndWait(p, timeout = 20_000) {
  await p.click('#run');
  await p.waitForFunction(() => document.querySelector('#run-status').dataset.state !== 'running', null, { timeout });
  return p.$eval('#run-status', (s) => ({ state: s.dataset.state, text: s.textContent, dynInst: s.dataset.dynInst }));
}

test('the editor highlights Bril: opcodes, types, labels and functions each in their own colour', async () => {
  const colour = (text) =>
    page.evaluate((t) => {
      const span = [...document.querySelectorAll('#editor .cm-line span')].find((s) => s.textContent === t);
      return span ? getComputedStyle(span).color : null;
    }, text);
  const [op, type, fn, label] = await Promise.all([colour('const'), colour('int'), colour('@main'), colour('.loop')]);
  const plain = await page.$eval('#editor .cm-line', (l) => getComputedStyle(l).color);
  for (const c of [op, type, fn, label]) assert.ok(c && c !== plain, `highlighted: ${c}`);
  assert.equal(new Set([op, type, label]).size, 3, 'opcodes, types and labels differ');
});

test('a suite program, a generated one (seed and size) and the URL follow the choice', async () => {
  await page.selectOption('#program-suite', 'gcd-lcm');
  await page.waitForFunction(() => location.hash.startsWith('#p=suite/gcd-lcm'));
  assert.match(await page.$eval('#editor .cm-content', (c) => c.innerText), /@gcd/);
  await page.selectOption('#program-kind', 'generated');
  await page.fill('#program-seed', '7');
  await page.fill('#program-size', '50');
  await page.click('#program-generate');
  await page.waitForFunction(() => location.hash.startsWith('#p=gen/7/50'));
  const generated = await page.$eval('#editor .cm-content', (c) => c.innerText);
  assert.match(generated, /^# ARGS: \d+\n@main\(p0: int\)/);
  assert.match(generated, /call @f1/);
  await page.fill('#program-size', '5000');
  await page.click('#program-generate');
  assert.match(await page.textContent('#program-error'), /ValueError: the size must be a whole number from 1 to 2000, got 5000/);
  assert.match(page.url(), /#p=gen\/7\/50/, 'the generated program stays');
});

test('run: output, exit status and dynamic instruction count, as the environment counts them', async () => {
  await page.selectOption('#program-kind', 'suite');
  await page.selectOption('#program-suite', 'fib-iter');
  await page.waitForFunction(() => location.hash.startsWith('#p=suite/fib-iter'));
  const run = await runAndWait(page);
  assert.equal(run.state, 'ok');
  assert.match(run.text, /^Exit status 0 · [\d,]+ instructions executed · \d+ ms, interpreted$/, 'a short run is interpreted');
  const expected = await page.evaluate(() => {
    const { episode } = window.compgymPlayground;
    return String(episode.current.env.observation.get('DynamicInstructionCount'));
  });
  assert.equal(run.dynInst, expected);
  assert.notEqual(await page.textContent('#run-output'), '');
  // Other arguments, another output.
  const output = await page.textContent('#run-output');
  await page.fill('#run-args', '5');
  await page.press('#run-args', 'Enter');
  await page.dispatchEvent('#run-args', 'change');
  const again = await runAndWait(page);
  assert.equal(again.state, 'ok');
  assert.notEqual(await page.textContent('#run-output'), output);
  assert.match(page.url(), /args=5/, 'edited arguments go into the link');
});

test('a missing ";" is named, at its line, right under the editor (defect 6)', async () => {
  await page.selectOption('#program-kind', 'own');
  await loadOwn(page, '@main {\n  a: int = const 1\n  print a;\n}');
  const error = await page.textContent('#program-error');
  assert.match(error, /Line 2 does not end with ";"/);
  assert.match(error, /The episode still shows fib-iter/);
  // Visible without scrolling, just below the editor.
  const [editor, box] = await Promise.all([page.$eval('#editor', (e) => e.getBoundingClientRect().toJSON()), page.$eval('#program-error', (e) => e.getBoundingClientRect().toJSON())]);
  assert.ok(box.top >= editor.bottom - 1 && box.top - editor.bottom < 80, `error at ${box.top}, editor ends at ${editor.bottom}`);
  assert.ok(box.bottom <= 900, 'on screen');
  assert.equal(await page.$$eval('#editor .cm-lintRange-error', (r) => r.length), 1, 'the line is marked in the editor');
});

test('an empty program and one with no @main are refused; the episode stays as it was (defect 7)', async () => {
  const before = await page.evaluate(() => window.compgymPlayground.episode.program.uri);
  await loadOwn(page, '');
  assert.match(await page.textContent('#program-error'), /The program is empty/);
  await loadOwn(page, '@helper {\n  x: int = const 1;\n  print x;\n}');
  assert.match(await page.textContent('#program-error'), /no @main function/);
  assert.equal(await page.evaluate(() => window.compgymPlayground.episode.program.uri), before);
  assert.match(await page.textContent('#cfg-function'), /@main/, 'the CFG is still the loaded program\'s');
});

test('an own program gets its own benchmark: the reward uses its baselines, not a previous one\'s (defect 1)', async () => {
  const first = '@main {\n  a: int = const 6;\n  b: int = const 7;\n  c: int = mul a b;\n  d: int = mul a b;\n  unused: int = add c d;\n  print c;\n}';
  const second = '@main {\n  a: int = const 6;\n  b: int = mul a a;\n  c: int = mul a a;\n  print b;\n}';
  await page.selectOption('#reward', 'IrInstructionCountOz');
  await loadOwn(page, first);
  assert.equal(await page.textContent('#program-error'), '');
  await press(page, '-dce');
  await loadOwn(page, second);
  await press(page, '-dce');
  const reused = (await historyState(page)).total;
  const fresh = await open(env, { fragment: '#r=IrInstructionCountOz' });
  await fresh.selectOption('#program-kind', 'own');
  await loadOwn(fresh, second);
  await press(fresh, '-dce');
  assert.equal(reused, (await historyState(fresh)).total, 'the same reward as on a fresh page');
  assert.equal(reused, 0.5, 'half the instructions -Oz removes (with the first program\'s baselines it was 0.25)');
  await fresh.closeAll();
  await page.selectOption('#reward', 'IrInstructionCount');
});

test('runs are in a worker: a program that never ends is stopped at the time limit, and cancel works; the page stays responsive', async () => {
  await loadOwn(page, '@main {\n  i: int = const 0;\n.l:\n  i: int = add i i;\n  jmp .l;\n}');
  await page.selectOption('#run-limit', '1000');
  await page.click('#run');
  const started = Date.now();
  const t = Date.now();
  await page.evaluate(() => 1 + 1);
  assert.ok(Date.now() - t < 500, 'the page answers while the program runs');
  await page.waitForFunction(() => document.querySelector('#run-status').dataset.state !== 'running', null, { timeout: 10_000 });
  assert.equal(await page.getAttribute('#run-status', 'data-state'), 'timeout');
  assert.match(await page.textContent('#run-status'), /time limit of 1 s/);
  assert.ok(Date.now() - started < 5000);
  await page.selectOption('#run-limit', '30000');
  await page.click('#run');
  await page.click('#run-cancel');
  await page.waitForFunction(() => document.querySelector('#run-status').dataset.state === 'cancelled');
  assert.equal(await page.textContent('#run-status'), 'Cancelled.');
  await page.selectOption('#run-limit', '5000');
});

test('long output is cut with a way to see all of it', async () => {
  await loadOwn(page, '@main {\n  i: int = const 0;\n  one: int = const 1;\n  n: int = const 1000;\n.l:\n  print i;\n  i: int = add i one;\n  c: bool = lt i n;\n  br c .l .e;\n.e:\n}');
  assert.equal((await runAndWait(page)).state, 'ok');
  assert.equal(await page.getAttribute('#run-output', 'data-lines'), '1000');
  const shown = (await page.textContent('#run-output')).split('\n').length;
  assert.ok(shown <= 201, `${shown} lines shown`);
  assert.equal(await page.textContent('#run-show-all'), 'Show all 1,000 lines');
  await page.click('#run-show-all');
  assert.equal((await page.textContent('#run-output')).trim().split('\n').length, 1000);
  assert.equal(await page.isHidden('#run-show-all'), true);
});

test('a printing infinite loop neither freezes the page nor floods it (defect 4)', async () => {
  await loadOwn(page, '@main {\n  x: int = const 1;\n.l:\n  print x;\n  jmp .l;\n}');
  const started = Date.now();
  await page.click('#run');
  const t = Date.now();
  await page.evaluate(() => 1);
  assert.ok(Date.now() - t < 500, 'responsive while it prints');
  await page.waitForFunction(() => document.querySelector('#run-status').dataset.state !== 'running', null, { timeout: 15_000 });
  assert.ok(Date.now() - started < 8000);
  assert.match(await page.textContent('#run-status'), /LimitError: output limit|time limit/);
  assert.ok((await page.textContent('#run-output')).length < 100_000);
});

test('loading a program gives the page turns between its parts; a load started meanwhile takes over; undo stays within the loaded text', async () => {
  // A task queued as the load starts runs before the load ends: the environment, the episode's
  // views and the editor's text are separate tasks, so input is answered between them.
  const order = await page.evaluate(async () => {
    const order = [];
    const done = window.compgymPlayground.loadProgram({ kind: 'generated', seed: 3, size: 2000 }).then(() => order.push('loaded'));
    setTimeout(() => order.push('another task'), 0);
    await done;
    return order;
  });
  assert.deepEqual(order, ['another task', 'loaded']);
  await page.waitForFunction(() => location.hash.startsWith('#p=gen/3/2000'));

  // Two loads at once: the later one is what the page shows, whole, and the first's environment is freed.
  const shown = await page.evaluate(async () => {
    const app = window.compgymPlayground;
    const made = [];
    const freshEnv = app.episode.freshEnv;
    app.episode.freshEnv = function (...args) {
      const env = freshEnv.apply(this, args);
      made.push(env);
      return env;
    };
    try {
      await Promise.all([app.loadProgram({ kind: 'suite', name: 'gcd-lcm' }), app.loadProgram({ kind: 'suite', name: 'fib-iter' })]);
    } finally {
      app.episode.freshEnv = freshEnv;
    }
    let freed = 0;
    for (const env of made) {
      try {
        env.observation.get('IrInstructionCount');
      } catch (error) {
        if (error.name === 'ValueError' && /was freed/.test(error.message)) freed++;
      }
    }
    return { program: app.program.name, made: made.length, freed, ir: app.episode.observe(app.episode.root, 'Ir') };
  });
  assert.equal(shown.program, 'fib-iter');
  assert.deepEqual([shown.made, shown.freed], [2, 1], 'the first load stops and frees what it made');
  await page.waitForFunction(() => location.hash.startsWith('#p=suite/fib-iter'));
  assert.equal(await page.$eval('#editor .cm-content', (c) => c.innerText.includes('@main')), true);
  assert.equal(await page.$eval('#program-suite', (s) => s.value), 'fib-iter');
  assert.match(shown.ir, /@main/);

  // Undo in the editor does not bring back the program before the load.
  const text = await page.$eval('#editor .cm-content', (c) => c.innerText);
  await page.click('#editor .cm-content');
  await page.keyboard.press('Control+z');
  assert.equal(await page.$eval('#editor .cm-content', (c) => c.innerText), text);
  assert.equal(await page.isDisabled('#program-load'), true, 'nothing was edited');
});

test('no page error, console error or failed request', () => {
  assert.deepEqual(page.problems, []);
});
