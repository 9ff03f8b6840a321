// Page load of the playground in Chromium: the time from navigation to the
// first possible step (`<html data-ready>`, marked `compgym:ready`), cold (a
// fresh browser context: nothing cached) and warm (a reload: every file
// revalidated with its ETag), on loopback and on an emulated network of
// 9 Mbps with a 40 ms round trip (Chromium's own throttling, through the
// DevTools protocol). Optionally the same for the page of an older commit,
// served the same way, side by side.
//
// Usage: node bench/page-load.mjs [--runs N] [--against GIT-REV]
// (after scripts/build.sh; --against needs a git checkout)
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { serve } from '../scripts/serve.mjs';
import { launch } from '../tests/js/browser.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const runs = Number(arg('--runs', 15));
const against = arg('--against', null);
const repo = new URL('..', import.meta.url).pathname;

/** The old page's www/ at `rev`, with today's package in it. */
function checkout(rev) {
  const dir = `${repo}.tmp/bench-page-${rev}`;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const tar = execFileSync('git', ['-C', repo, 'archive', rev, 'www'], { maxBuffer: 1 << 28 });
  execFileSync('tar', ['-x', '-C', dir], { input: tar });
  cpSync(`${repo}www/pkg`, `${dir}/www/pkg`, { recursive: true });
  return `${dir}/www`;
}

// Pages that predate `data-ready` set `window.__ready`; record when either happens.
const RECORD_READY = () => {
  let value;
  Object.defineProperty(window, '__ready', {
    get: () => value,
    set: (v) => {
      value = v;
      performance.mark('compgym:ready');
    },
  });
};

/** The networks measured: loopback as it is, and a slow link emulated. */
const NETWORKS = [
  { name: 'loopback', conditions: null },
  { name: '9 Mbps, 40 ms RTT', conditions: { megabits: 9, roundTripMs: 40 } },
];

/** Throttles `page`'s network to `conditions` (both directions), or leaves it as it is. */
async function emulate(page, conditions) {
  if (!conditions) return;
  const session = await page.context().newCDPSession(page);
  const bytesPerSecond = (conditions.megabits * 1e6) / 8;
  await session.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: conditions.roundTripMs,
    downloadThroughput: bytesPerSecond,
    uploadThroughput: bytesPerSecond,
  });
}

async function measure(browser, url, conditions) {
  const ready = async (page) => {
    await page.waitForFunction(() => performance.getEntriesByName('compgym:ready').length > 0, null, { timeout: 30_000, polling: 50 });
    return page.evaluate(() => {
      const at = (name) => performance.getEntriesByName(name)[0]?.startTime ?? null;
      const ready = at('compgym:ready');
      // Bytes on the wire up to the first possible step (later loads do not count).
      const transferred = [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')]
        .filter((e) => e.responseEnd <= ready)
        .reduce((n, e) => n + e.transferSize, 0);
      // The module the first step runs on: the first-step module (or, on a page from before it, the package's).
      return { ready, compiled: at('compgym:first-step-ready') ?? at('compgym:wasm-compiled'), transferred };
    });
  };
  const cold = [];
  const warm = [];
  for (let i = 0; i < runs; i++) {
    const context = await browser.newContext();
    await context.addInitScript(RECORD_READY);
    const page = await context.newPage();
    await emulate(page, conditions);
    await page.goto(url);
    cold.push(await ready(page));
    await page.reload();
    warm.push(await ready(page));
    await context.close();
  }
  return { cold, warm };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const best = (xs) => Math.min(...xs);
const ms = (x) => (x === null || x === undefined ? '–' : `${x.toFixed(0)} ms`);

const pages = [['this page', `${repo}www/dist`]];
if (against) pages.push([`page at ${against}`, checkout(against)]);

const browser = await launch();
const rows = [];
for (const [name, root] of pages) {
  const server = await serve(root, 0);
  const url = `http://127.0.0.1:${server.address().port}/`;
  await measure(browser, url, null); // warm-up: the OS file cache, Chromium's first-launch work
  for (const network of NETWORKS) {
    const { cold, warm } = await measure(browser, url, network.conditions);
    for (const [kind, samples] of [
      ['cold', cold],
      ['reload', warm],
    ]) {
      const readies = samples.map((s) => s.ready);
      const compiled = samples.map((s) => s.compiled).filter((x) => x !== null);
      const bytes = median(samples.map((s) => s.transferred));
      rows.push({
        page: name,
        network: network.name,
        conditions: network.conditions,
        load: kind,
        best: ms(best(readies)),
        median: ms(median(readies)),
        readyMs: median(readies),
        wasm: compiled.length ? ms(median(compiled)) : '–',
        bytes,
        kib: `${(bytes / 1024).toFixed(0)} KiB`,
      });
    }
  }
  server.close();
}
await browser.close();

console.log(`navigation → first possible step, Chromium, ${runs} runs each (best and median)\n`);
console.log('| page | network | load | best | median | first module ready (median) | bytes on the wire by then |');
console.log('|---|---|---|---:|---:|---:|---:|');
for (const r of rows) {
  console.log(`| ${r.page} | ${r.network} | ${r.load} | ${r.best} | ${r.median} | ${r.wasm} | ${r.kib} |`);
}

// The playground's goals for a cold load of this page (docs/benchmarks.md, "Playground load").
const cold = (slow) => rows.find((r) => r.page === 'this page' && r.load === 'cold' && Boolean(r.conditions) === slow);
const goals = [
  ['at most 400 KB on the wire before the first step', cold(false).bytes <= 400 * 1024, cold(false).kib],
  ['under 300 ms to the first step on loopback (median)', cold(false).readyMs < 300, cold(false).median],
  ['under 1.5 s to the first step at 9 Mbps, 40 ms RTT (median)', cold(true).readyMs < 1500, cold(true).median],
];
console.log('');
for (const [goal, met, measured] of goals) console.log(`${met ? 'met' : 'NOT met'}: ${goal} (${measured})`);
