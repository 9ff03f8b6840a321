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

test('no page error, console error or failed request', () => {
  assert.deepEqual(page.problems, []);
});
