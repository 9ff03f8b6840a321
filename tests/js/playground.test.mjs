// End to end: serve www/ on localhost and drive the playground in Chromium.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { serve } from '../../scripts/serve.mjs';
import { launch, strictPage } from './browser.mjs';

const root = new URL('../../www/', import.meta.url).pathname;
const cargoVersion = readFileSync(new URL('../../Cargo.toml', import.meta.url), 'utf8').match(
  /^version = "([^"]+)"/m,
)[1];

let server, browser, page, url;

before(async () => {
  server = await serve(root, 0);
  url = `http://127.0.0.1:${server.address().port}/`;
  browser = await launch();
  page = await strictPage(browser);
  await page.goto(url);
  await page.waitForFunction(() => window.__ready === true, null, { timeout: 20_000 });
});

after(async () => {
  await browser?.close();
  server?.close();
});

test('the playground loads the wasm and shows the crate version', async () => {
  assert.equal(await page.textContent('#version'), cargoVersion);
  assert.equal(await page.textContent('#status'), 'ready');
  assert.equal(await page.title(), 'compgym playground');
});

test('the favicon is served', async () => {
  const href = await page.getAttribute('link[rel=icon]', 'href');
  const response = await page.request.get(new URL(href, url).href);
  assert.equal(response.status(), 200);
  assert.match(response.headers()['content-type'], /svg/);
});

test('a bad argument shows a typed error and the page keeps working', async () => {
  await page.fill('#dtype-input', 'complex64');
  await page.click('#dtype-form button');
  assert.match(await page.textContent('#dtype-result'), /^TypeError: unknown dtype "complex64"/);
  await page.fill('#dtype-input', 'f64');
  await page.click('#dtype-form button');
  assert.equal(await page.textContent('#dtype-result'), '→ float64');
});

test('the spaces panel samples, seeds, checks values and reports bad descriptions', async () => {
  assert.match(await page.textContent('#space-repr'), /^Box\(features/);
  await page.click('#space-seed');
  assert.match(await page.textContent('#space-samples'), /seed → \[42\]/);
  await page.click('#space-sample');
  await page.click('#space-sample-with');
  const samples = await page.textContent('#space-samples');
  assert.match(samples, /Float32Array\[[^\]]+\]   contains: true/);
  assert.match(samples, /sampleWith\(rng [0-9a-f]{8}…\) → Float32Array/);
  await page.click('#space-contains button');
  assert.equal(await page.textContent('#space-contains-result'), 'contains → true');
  await page.fill('#space-value', '[0, 0.5, 1, 2]');
  await page.click('#space-contains button');
  assert.equal(await page.textContent('#space-contains-result'), 'contains → false');

  await page.selectOption('#space-example', 'Dict');
  assert.match(await page.textContent('#space-repr'), /^Dict\(/);
  await page.click('#space-sample');
  assert.match(await page.textContent('#space-samples'), /\{action: \d+n?, features: Float32Array/);

  await page.click('#spaces summary');
  await page.fill('#space-json', '{"type": "Box", "name": "b", "low": 2, "high": 1, "shape": [1]}');
  await page.click('#space-json ~ div button');
  assert.match(await page.textContent('#space-error'), /^ValueError: .*low/);
  await page.click('#space-sample');
  assert.match(await page.textContent('#space-samples'), /\{action/, 'the previous space is still in use');
});

test('the bandit panel shows LinUCB learning: far less regret than random', async () => {
  await page.fill('#bandit-steps', '500');
  await page.click('#bandit-run');
  await page.waitForFunction(() => document.querySelector('#bandit-result').dataset.linucb !== undefined);
  const { linucb, random } = await page.$eval('#bandit-result', (e) => ({ ...e.dataset }));
  assert.ok(Number(linucb) < 0.3 * Number(random), `LinUCB ${linucb} vs random ${random}`);
});

test('the compiler panel applies passes, shows the change, undoes by fork and validates', async () => {
  const summary = async () => ({ ...(await page.$eval('#compiler-summary', (e) => ({ ...e.dataset }))) });
  await page.selectOption('#compiler-program', 'benchmark://suite-v0/dead-code');
  const start = await summary();
  assert.equal(start.steps, '0');
  assert.equal(start.count, start.o0, 'a reset program is unoptimised');
  assert.ok((await page.$$('#compiler-cfg svg g.cfg-block')).length >= 4, 'the CFG shows the blocks');

  await page.click('#compiler-passes button[data-flag="-dce"]');
  const afterDce = await summary();
  assert.equal(afterDce.steps, '1');
  assert.ok(Number(afterDce.count) < Number(start.count), `-dce shrinks ${start.count} → ${afterDce.count}`);
  assert.ok((await page.$$('#compiler-ir .diff-removed')).length > 0, 'the removed lines are shown');
  assert.match(await page.textContent('#compiler-history'), /1 {2}-dce +reward \d/);
  assert.match(await page.textContent('#compiler-state'), /^benchmark,reward,walltime,commandline\nbenchmark:\/\/suite-v0\/dead-code,[-0-9.e]+,[0-9.e-]+,-dce/);
  assert.ok((await page.$$('#compiler-features td.better')).length > 0, 'some count went down');

  await page.click('#compiler-undo');
  const undone = await summary();
  assert.deepEqual([undone.steps, undone.count], ['0', start.count], 'undo restores the fork');

  await page.click('#compiler-passes button[data-flag="-lvn"]');
  await page.click('#compiler-random');
  await page.click('#compiler-validate');
  assert.equal(await page.getAttribute('#compiler-validation', 'data-okay'), 'true');
  assert.equal(await page.textContent('#compiler-error'), '');

  await page.click('#compiler summary');
  await page.fill('#compiler-source', '@main {\n  a: int = const 1;\n  b: int = add a;\n}');
  await page.click('#compiler-source-form button');
  assert.match(await page.textContent('#compiler-error'), /^(BenchmarkInitError|ParseError|VerifyError): .*/);
  await page.fill('#compiler-source', '@main {\n  a: int = const 6;\n  b: int = mul a a;\n  c: int = mul a a;\n  print b;\n}');
  await page.click('#compiler-source-form button');
  assert.equal(await page.textContent('#compiler-error'), '', 'a good program works after a bad one');
  assert.equal((await summary()).count, '4');
  await page.click('#compiler-passes button[data-flag="-dce"]');
  assert.equal((await summary()).count, '3');
});

test('no page error, console error or failed request', () => {
  assert.deepEqual(page.problems, []);
});
