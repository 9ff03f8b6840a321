// End to end: the state in the URL (suite, generated and own programs,
// arguments, reward, steps), the copy-link button, and CompilerGym's CSV
// state exported and imported. Plus the URL codec itself, in Node.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, open, press, pathFlags, historyState } from './playground-helpers.mjs';
import { encodeState, decodeState } from '../../www/src/share.js';

let env;

before(async () => {
  env = await start();
});

after(async () => {
  await env?.close();
});

test('the URL codec round-trips every kind of program and refuses damaged links with a typed error', () => {
  const states = [
    { program: { kind: 'suite', name: 'fib-iter' }, args: null, reward: 'IrInstructionCountOz', actions: ['-dce', '-lvn'] },
    { program: { kind: 'generated', seed: 9, size: 120 }, args: ['3', '-1'], reward: 'IrInstructionCount', actions: [] },
    { program: { kind: 'own', source: '@main {\n  a: int = const 1; # "quotes" & ampersands\n  print a;\n}' }, args: ['1'], reward: 'DynamicInstructionCount', actions: ['-adce'] },
  ];
  for (const state of states) {
    const back = decodeState(encodeState(state));
    assert.deepEqual(back.program, state.program);
    assert.deepEqual(back.args ?? null, state.args);
    assert.equal(back.reward, state.reward);
    assert.deepEqual(back.actions ?? [], state.actions);
  }
  assert.throws(() => decodeState('p=nope/1'), { name: 'ValueError' });
  assert.throws(() => decodeState('p=gen/1/99999'), { name: 'ValueError', message: /size must be a whole number from 1 to 2000/ });
  assert.throws(() => decodeState('p=src/%%%'), { name: 'ValueError', message: /damaged/ });
});

test('opening a link restores the exact state: program, arguments, reward and steps', async () => {
  const page = await open(env, { fragment: '#p=suite/fib-iter&args=7&r=IrInstructionCountOz&s=-dce,-lvn,-adce' });
  assert.deepEqual(await pathFlags(page), ['-dce', '-lvn', '-adce']);
  assert.equal(await page.$eval('#reward', (s) => s.value), 'IrInstructionCountOz');
  assert.equal(await page.$eval('#run-args', (i) => i.value), '7');
  assert.equal(await page.$eval('#program-suite', (s) => s.value), 'fib-iter');
  assert.match(page.url(), /#p=suite\/fib-iter&args=7&r=IrInstructionCountOz&s=-dce,-lvn,-adce$/);
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});

test('a link to a generated program and one to an own program restore too', async () => {
  const gen = await open(env, { fragment: '#p=gen/3/40&r=IrInstructionCount&s=-dce' });
  assert.deepEqual(await pathFlags(gen), ['-dce']);
  assert.equal(await gen.$eval('#program-kind', (s) => s.value), 'generated');
  assert.equal(await gen.$eval('#program-seed', (s) => s.value), '3');
  await gen.closeAll();

  // Build the own program's link on one page, open it on another.
  const page = await open(env);
  await page.selectOption('#program-kind', 'own');
  await page.click('#editor .cm-content');
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText('@main {\n  a: int = const 2;\n  b: int = const 3;\n  c: int = add a b;\n  print a;\n}');
  await page.click('#program-load');
  await page.waitForFunction(() => location.hash.startsWith('#p=src/'));
  await press(page, '-dce');
  const link = page.url();
  const total = (await historyState(page)).total;
  const other = await open(env, { fragment: link.slice(link.indexOf('#')) });
  assert.deepEqual(await pathFlags(other), ['-dce']);
  assert.equal((await historyState(other)).total, total);
  assert.match(await other.$eval('#editor .cm-content', (c) => c.innerText), /c: int = add a b;/);
  assert.deepEqual(other.problems, []);
  await other.closeAll();
  await page.closeAll();
});

test('a damaged link says so and shows the default program', async () => {
  const page = await open(env, { fragment: '#p=gen/1/99999' });
  assert.match(await page.textContent('#status'), /The link could not be restored \(ValueError: the size must be/);
  assert.equal(await page.$eval('#program-suite', (s) => s.value), 'dead-code');
  await page.closeAll();
});

test('copy link puts the URL of the current state on the clipboard', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.url });
  const page = await context.newPage();
  await page.goto(`${env.url}#p=suite/dead-code&r=IrInstructionCount`);
  await page.waitForSelector('html[data-ready]');
  await page.click('#passes button[data-flag="-dce"]');
  await page.click('#share-copy');
  await page.waitForFunction(() => document.querySelector('#share-status').textContent !== '');
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.equal(copied, page.url());
  assert.match(copied, /&s=-dce$/);
  await context.close();
});

test('CSV state: export holds the episode; importing a row replays its passes', async () => {
  const page = await open(env, { fragment: '#p=suite/dead-code&r=IrInstructionCount&s=-dce,-adce' });
  await page.click('#share-csv');
  const csv = await page.$eval('#csv-text', (t) => t.value);
  assert.match(csv, /^benchmark,reward,walltime,commandline\nbenchmark:\/\/suite-v0\/dead-code,4\.0,[0-9.e-]+,-dce -adce\n$/);
  const download = page.waitForEvent('download');
  await page.click('#csv-download');
  assert.equal((await download).suggestedFilename(), 'compgym-state.csv');

  await page.fill('#csv-text', 'benchmark,reward,walltime,commandline\nbenchmark://suite-v0/fib-iter,1.0,0.1,-dce -lvn\n');
  await page.click('#csv-import');
  await page.waitForFunction(() => location.hash.includes('fib-iter'));
  assert.deepEqual(await pathFlags(page), ['-dce', '-lvn']);
  assert.match(await page.textContent('#csv-status'), /Imported 2 passes on fib-iter; the replay gives the CSV's reward, 1\./);

  await page.fill('#csv-text', 'benchmark,reward,walltime,commandline\nbenchmark://user-v0/0123,1.0,0.1,-dce\n');
  await page.click('#csv-import');
  assert.match(await page.textContent('#csv-status'), /Not imported: LookupError: the CSV names benchmark:\/\/user-v0\/0123, a program this page does not have/);
  await page.fill('#csv-text', 'not,a\ncsv');
  await page.click('#csv-import');
  assert.match(await page.textContent('#csv-status'), /^Not imported: \w+Error/);
  assert.deepEqual(await pathFlags(page), ['-dce', '-lvn'], 'a failed import changes nothing');
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});
