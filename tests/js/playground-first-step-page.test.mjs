// End to end: the playground's first step needs the first-step module only.
// With the package's module held back by the test, the page is ready and
// steps; when the module arrives, the episode moves onto it whole. A program
// the first-step module cannot load waits for the package.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, press } from './playground-helpers.mjs';
import { strictPage } from './browser.mjs';

let env;

before(async () => {
  env = await start();
});

after(async () => {
  await env?.close();
});

/** A page whose requests for the package's module wait until `release()`. */
async function heldPage(fragment, viewport = { width: 1440, height: 900 }) {
  const context = await env.browser.newContext({ viewport });
  const page = await strictPage(context);
  let release;
  const held = new Promise((resolve) => (release = resolve));
  await page.route('**/compgym_bg.wasm', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(env.url + fragment);
  return { page, release, close: () => context.close() };
}

/**
 * Bytes the page had received when a step became possible (the `compgym:ready` mark): the document
 * and every resource done by then, headers included (what `make bench-page` counts). The episode's
 * views load right after.
 */
function received(page) {
  return page.evaluate(() => {
    const ready = performance.getEntriesByName('compgym:ready')[0].startTime;
    const done = performance.getEntriesByType('resource').filter((e) => e.responseEnd <= ready);
    return [...performance.getEntriesByType('navigation'), ...done].reduce((sum, e) => sum + e.transferSize, 0);
  });
}

test('with the package held back the page is ready in under 400 KB and steps; when it arrives the episode moves onto it whole', async (t) => {
  const { page, release, close } = await heldPage('#p=suite/dead-code');
  await page.waitForSelector('html[data-ready]');
  const bytes = await received(page);
  assert.ok(bytes < 400_000, `${bytes} bytes before the first step`);
  t.diagnostic(`received before the first step: ${bytes} bytes`);
  assert.equal(await page.evaluate(() => window.compgymPlayground.hasPackage), false);

  // Steps, a branch and a pipeline on the first-step module.
  await press(page, '-dce');
  await press(page, '-adce');
  await page.evaluate(() => window.compgymPlayground.episode.back());
  await press(page, '-copy-prop');
  await page.click('#pipelines button[data-pipeline="-O1"]');
  await page.waitForFunction(() => window.compgymPlayground.episode.current.depth > 2);
  const early = await page.evaluate(() => {
    const { episode } = window.compgymPlayground;
    return {
      nodes: [...episode.nodes()].map((n) => [n.id, n.flag, n.reward, n.total]),
      current: episode.current.id,
      ir: episode.observe(episode.current, 'Ir'),
      history: Number(document.querySelector('#history').dataset.steps),
      url: location.hash,
    };
  });
  assert.ok(early.history > 2);
  assert.match(early.url, /s=-dce,-copy-prop/);
  assert.ok(!(await page.$('html[data-complete]')), 'the views wait for the package');

  release();
  await page.waitForSelector('html[data-complete]', { timeout: 30_000 });
  const late = await page.evaluate(() => {
    const { episode, hasPackage } = window.compgymPlayground;
    return {
      hasPackage,
      nodes: [...episode.nodes()].map((n) => [n.id, n.flag, n.reward, n.total]),
      current: episode.current.id,
      // Fresh from the package's environment, not from the node's cache.
      ir: episode.current.env.observation.get('Ir'),
      dynamic: episode.current.env.observation.get('DynamicInstructionCount'),
    };
  });
  assert.equal(late.hasPackage, true);
  assert.deepEqual(late.nodes, early.nodes, 'the same tree, rewards and totals');
  assert.equal(late.current, early.current);
  assert.equal(late.ir, early.ir);
  assert.equal(typeof late.dynamic, 'number', 'the states are the package\'s: they run');
  await press(page, '-sccp');
  assert.deepEqual(page.problems, []);
  await close();
});

test('with the package held back the program\'s views show the episode, and at 390 px nothing is wider than the screen', async () => {
  const { page, release, close } = await heldPage('#p=suite/loop-invariant', { width: 390, height: 844 });
  await page.waitForSelector('html[data-ready]');
  await press(page, '-licm');
  // The editor, the diff, the CFG and the observations, on the first-step module.
  await page.waitForFunction(() => document.querySelector('#editor .cm-content')?.textContent.includes('@main'));
  await page.waitForFunction(() => Number(document.querySelector('#diff')?.dataset.changedRows) > 0);
  assert.match(await page.textContent('#diff-sentence'), /^-licm: /);
  await page.waitForSelector('#cfg[data-state="drawn"]:not([data-changed="0"])', { state: 'attached' });
  await page.waitForFunction(() => Number(document.querySelector('#obs')?.dataset.changed) > 0);
  assert.equal(await page.evaluate(() => window.compgymPlayground.hasPackage), false);
  assert.ok(!(await page.$('html[data-complete]')), 'the agents, training, spaces and bandit views wait for the package');
  // The reward list, whose runtime rewards say they need a run until the package runs the program, fits.
  assert.match(await page.$eval('#reward', (r) => r.textContent), /needs a program that runs/);
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390);
  release();
  await page.waitForSelector('html[data-complete]', { timeout: 30_000 });
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390);
  assert.deepEqual(page.problems, []);
  await close();
});

test('a program the first-step module cannot load (a generated one) waits for the package, which it asks for before the page is ready', async () => {
  const { page, release, close } = await heldPage('#p=gen/7/50');
  release();
  await page.waitForSelector('html[data-complete]', { timeout: 30_000 });
  const order = await page.evaluate(() => {
    const full = performance.getEntriesByType('resource').find((e) => e.name.endsWith('/compgym_bg.wasm'));
    return { requested: full.startTime, ready: performance.getEntriesByName('compgym:ready')[0].startTime, program: window.compgymPlayground.program };
  });
  assert.ok(order.requested < order.ready, `the package's module requested at ${order.requested} ms, ready at ${order.ready} ms`);
  assert.deepEqual(order.program, { kind: 'generated', seed: 7, size: 50 });
  assert.deepEqual(page.problems, []);
  await close();
});

test('a CSV export in the first second waits for the package', async () => {
  const { page, release, close } = await heldPage('#p=suite/dead-code&s=-dce');
  await page.waitForSelector('html[data-ready]');
  await page.click('#share-csv');
  release();
  await page.waitForFunction(() => document.querySelector('#csv-text').value.includes('-dce'));
  assert.match(await page.$eval('#csv-text', (t) => t.value), /^benchmark:\/\/suite-v0\/dead-code,1\.0,[\d.]+,-dce$/m);
  await page.waitForSelector('html[data-complete]', { timeout: 30_000 });
  assert.deepEqual(page.problems, []);
  await close();
});

test('a reward the first-step module does not compute, chosen in the first second, waits for the package and then applies', async () => {
  const { page, release, close } = await heldPage('#p=suite/dead-code&s=-dce');
  await page.waitForSelector('html[data-ready]');
  await page.selectOption('#reward', 'IrInstructionCountOz');
  release();
  await page.waitForFunction(() => window.compgymPlayground.episode.rewardSpace === 'IrInstructionCountOz');
  assert.equal(await page.textContent('#step-error'), '');
  assert.equal(await page.$eval('#reward', (r) => r.value), 'IrInstructionCountOz');
  assert.equal(await page.evaluate(() => window.compgymPlayground.hasPackage), true);
  assert.match(page.url(), /r=IrInstructionCountOz/);
  await page.waitForSelector('html[data-complete]', { timeout: 30_000 });
  assert.deepEqual(page.problems, []);
  await close();
});

test('when the package\'s module cannot be fetched, the page says so and the passes go on working; a later need tries again', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await strictPage(context);
  let refuse = true;
  await page.route('**/compgym_bg.wasm', (route) => (refuse ? route.abort() : route.continue()));
  await page.goto(`${env.url}#p=suite/dead-code`);
  await page.waitForSelector('html[data-ready]');
  await page.waitForFunction(() => /could not be loaded/.test(document.querySelector('#status').textContent));
  assert.match(await page.textContent('#status'), /^The rest of the playground could not be loaded \(.+\): the passes and the program.s views work; the others follow once it loads\.$/);
  await press(page, '-dce');
  assert.equal(await page.evaluate(() => window.compgymPlayground.episode.current.depth), 1);
  // A run needs the package in a worker: it fails with the reason, and the page goes on.
  await page.click('#run');
  await page.waitForFunction(() => document.querySelector('#run-status').dataset.state !== 'running');
  assert.match(await page.textContent('#run-status'), /WorkerError: the package's module could not be loaded/);
  // A generated program needs the package: asked for again, it comes.
  refuse = false;
  await page.evaluate(() => window.compgymPlayground.loadProgram({ kind: 'generated', seed: 7, size: 50 }));
  assert.equal(await page.evaluate(() => window.compgymPlayground.hasPackage), true);
  assert.deepEqual(await page.evaluate(() => window.compgymPlayground.program), { kind: 'generated', seed: 7, size: 50 });
  await page.waitForSelector('html[data-complete]', { timeout: 30_000 });
  assert.equal(await page.textContent('#status'), '', 'the views came, and the message went');
  assert.deepEqual(
    page.problems.filter((p) => !p.includes('compgym_bg.wasm') && !p.includes('Failed to load resource: net::ERR_FAILED')),
    [],
    'only the refused request',
  );
  await context.close();
});

test('a job started before the package has arrived counts its time limit from when the module is there', async () => {
  const { page, release, close } = await heldPage('#p=suite/dead-code');
  await page.waitForSelector('html[data-ready]');
  await page.evaluate(() => {
    window.heldRun = window.compgymPlayground.lanes.run.run('run', { source: '@main {\n  one: int = const 1;\n  print one;\n}', args: null }, { timeLimitMs: 2000 });
  });
  // Held for twice the limit: the wait is the module's, not the job's.
  await page.waitForTimeout(4000);
  release();
  const result = await page.evaluate(() => window.heldRun.catch((error) => ({ ok: false, error: { name: error.name } })));
  assert.equal(result.ok, true, JSON.stringify(result));
  assert.equal(result.stdout, '1\n');
  await page.waitForSelector('html[data-complete]', { timeout: 30_000 });
  assert.deepEqual(page.problems, []);
  await close();
});
