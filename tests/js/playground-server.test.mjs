// scripts/serve.mjs: compressed responses (brotli, gzip) with ETag
// validators and 304s, nothing outside the root; and the page's loading
// order in Chromium: the wasm is requested from the HTML, once, at once.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { mkdtempSync, readFileSync, writeFileSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { serve } from '../../scripts/serve.mjs';
import { root, start, open } from './playground-helpers.mjs';

let server;
let port;

before(async () => {
  server = await serve(root, 0);
  port = server.address().port;
});

after(() => server?.close());

/** A raw GET: `{status, headers, body}` with the body as sent (not decoded). */
function get(path, headers = {}, at = port) {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: at, path, headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('the wasm is sent brotli- or gzip-compressed as the client accepts, with its MIME type and an ETag', async () => {
  const raw = readFileSync(join(root, 'compgym_bg.wasm'));
  const br = await get('/compgym_bg.wasm', { 'accept-encoding': 'gzip, deflate, br' });
  assert.equal(br.status, 200);
  assert.equal(br.headers['content-type'], 'application/wasm');
  assert.equal(br.headers['content-encoding'], 'br');
  assert.equal(br.headers.vary, 'accept-encoding');
  assert.match(br.headers.etag, /^"[\w-]+-br"$/);
  assert.ok(br.body.length < raw.length / 2, `${br.body.length} bytes for ${raw.length}`);
  assert.ok(brotliDecompressSync(br.body).equals(raw));

  const gz = await get('/compgym_bg.wasm', { 'accept-encoding': 'gzip' });
  assert.equal(gz.headers['content-encoding'], 'gzip');
  assert.ok(gunzipSync(gz.body).equals(raw));
  assert.notEqual(gz.headers.etag, br.headers.etag, 'each encoding has its own validator');

  const plain = await get('/compgym_bg.wasm', { 'accept-encoding': 'br;q=0' });
  assert.equal(plain.headers['content-encoding'], undefined);
  assert.equal(Number(plain.headers['content-length']), raw.length);
  assert.ok(plain.body.equals(raw));
});

test('a request with a matching If-None-Match gets 304 and no body', async () => {
  const first = await get('/main.js', { 'accept-encoding': 'br' });
  const again = await get('/main.js', { 'accept-encoding': 'br', 'if-none-match': first.headers.etag });
  assert.equal(again.status, 304);
  assert.equal(again.body.length, 0);
  assert.equal(again.headers.etag, first.headers.etag);
  const other = await get('/main.js', { 'accept-encoding': 'br', 'if-none-match': '"nope"' });
  assert.equal(other.status, 200);
});

test('a changed file gets a new ETag; files are compressed on the fly when no precompressed copy exists', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'serve-'));
  writeFileSync(join(dir, 'a.js'), 'export const a = 1;\n'.repeat(100));
  const local = await serve(dir, 0);
  const at = local.address().port;
  try {
    const one = await get('/a.js', { 'accept-encoding': 'br' }, at);
    assert.equal(one.headers['content-encoding'], 'br');
    assert.equal(brotliDecompressSync(one.body).toString(), 'export const a = 1;\n'.repeat(100));
    writeFileSync(join(dir, 'a.js'), 'export const a = 2;\n'.repeat(100));
    utimesSync(join(dir, 'a.js'), new Date(), new Date(Date.now() + 5000));
    const two = await get('/a.js', { 'accept-encoding': 'br' }, at);
    assert.notEqual(two.headers.etag, one.headers.etag);
    assert.equal((await get('/missing.js', {}, at)).status, 404);
    assert.equal((await get('/..%2f..%2fetc%2fpasswd', {}, at)).status, 403);
    assert.equal((await get('/%E0%A4%A', {}, at)).status, 400);
  } finally {
    local.close();
  }
});

test('in Chromium the first-step module is requested by the HTML (preload), once, before the main module has even arrived; the package\'s module once, after the first step is possible; no dataset or policy file', async () => {
  const env = await start();
  try {
    const page = await open(env);
    const timing = await page.evaluate(() => {
      const entries = performance.getEntriesByType('resource');
      const first = entries.filter((e) => e.name.endsWith('/first-step_bg.wasm'));
      const full = entries.filter((e) => e.name.endsWith('/compgym_bg.wasm'));
      const main = entries.find((e) => e.name.endsWith('/main.js'));
      const ready = performance.getEntriesByName('compgym:ready')[0].startTime;
      return {
        counts: [first.length, full.length],
        initiator: first[0].initiatorType,
        firstStart: first[0].startTime,
        fullStart: full[0].startTime,
        ready,
        mainEnd: main.responseEnd,
        shipped: entries.filter((e) => /\/(datasets|policies)\//.test(e.name)).map((e) => e.name),
        encoded: [first[0].encodedBodySize, full[0].encodedBodySize],
        decoded: [first[0].decodedBodySize, full[0].decodedBodySize],
      };
    });
    assert.deepEqual(timing.counts, [1, 1], 'one request for each module: the preload is reused, the workers share the page\'s');
    assert.equal(timing.initiator, 'link');
    assert.ok(timing.firstStart < timing.mainEnd, `first-step module requested at ${timing.firstStart} ms, main.js done at ${timing.mainEnd} ms`);
    assert.ok(timing.fullStart >= timing.ready, `the package's module requested at ${timing.fullStart} ms, the first step possible at ${timing.ready} ms`);
    assert.deepEqual(timing.shipped, [], 'no dataset or policy file until a job needs one');
    timing.encoded.forEach((encoded, i) => assert.ok(encoded < timing.decoded[i] / 2, `compressed on the wire: ${encoded} of ${timing.decoded[i]} bytes`));
    assert.deepEqual(page.problems, []);
  } finally {
    await env.close();
  }
});
