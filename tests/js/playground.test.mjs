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

test('no page error, console error or failed request', () => {
  assert.deepEqual(page.problems, []);
});
