// Environment throughput in one run, side by side: native, wasm in Node and
// wasm in headless Chromium. Steps per second of `bril-ic-v0`-style episodes
// (random actions, fixed length, IrInstructionCount reward) on the median
// suite program, and the latency of reset, fork and the Autophase and Ir
// observations. The wasm sides are timed twice: the core's own loop inside
// wasm (`benchEnv`) and the same loop written against the JS API.
//
//   make bench-env            (or: node bench/env.mjs [seconds per measure])
import { execFileSync } from 'node:child_process';
import * as compgym from '../pkg/node.js';
import { measure } from './env-measure.mjs';
import { serve } from '../scripts/serve.mjs';
import { launch } from '../tests/js/browser.mjs';

const root = new URL('..', import.meta.url).pathname;
const seconds = Number(process.argv[2] ?? 1);

const native = JSON.parse(
  execFileSync(`${root}target/release/compgym-bench`, ['env', '--json', '--seconds', String(seconds)], {
    encoding: 'utf8',
  }),
);
const config = { benchmark: native.benchmark, episodeLength: native.episodeLength, coldUris: native.coldUris, seconds };
// V8 first runs wasm from its baseline compiler and optimises hot code later:
// a warm-up round of both loops keeps that out of the numbers.
const warmUp = (compgym) => {
  compgym.benchEnv(config.benchmark, config.episodeLength, 0.5);
  measure(compgym, { ...config, seconds: 0.2 });
};
warmUp(compgym);
const nodeCore = compgym.benchEnv(config.benchmark, config.episodeLength, seconds);
const nodeJs = measure(compgym, config);

const server = await serve(root, 0);
const browser = await launch();
let chromiumCore, chromiumJs, chromiumVersion;
try {
  const page = await browser.newPage();
  await page.goto(`http://127.0.0.1:${server.address().port}/bench/env-measure.mjs`);
  [chromiumCore, chromiumJs] = await page.evaluate(async (config) => {
    const compgym = await import('/pkg/index.js');
    await compgym.default();
    const { measure } = await import('/bench/env-measure.mjs');
    compgym.benchEnv(config.benchmark, config.episodeLength, 0.5);
    measure(compgym, { ...config, seconds: 0.2 });
    const core = compgym.benchEnv(config.benchmark, config.episodeLength, config.seconds);
    return [core, measure(compgym, config)];
  }, config);
  chromiumVersion = browser.version();
} finally {
  await browser.close();
  server.close();
}

const columns = [
  ['native', native],
  ['Node, core loop', nodeCore],
  ['Node, JS API', nodeJs],
  ['Chromium, core loop', chromiumCore],
  ['Chromium, JS API', chromiumJs],
];
const rows = [
  ['steps/s', 'stepsPerSecond', (x) => Math.round(x).toLocaleString('en')],
  ['steps/s, first visits', 'firstVisitStepsPerSecond', (x) => Math.round(x).toLocaleString('en')],
  ['reset (µs)', 'resetUs', (x) => x.toFixed(1)],
  ['fork (µs)', 'forkUs', (x) => x.toFixed(2)],
  ['Autophase (µs)', 'autophaseUs', (x) => x.toFixed(2)],
  ['Ir (µs)', 'irUs', (x) => x.toFixed(2)],
];
console.log(
  `${native.benchmark}, ${native.episodeLength}-step episodes; Node ${process.version}, ` +
    `Chromium ${chromiumVersion}; ${seconds} s per measure\n`,
);
console.log(`| | ${columns.map(([name]) => name).join(' | ')} |`);
console.log(`|---|${columns.map(() => '---:').join('|')}|`);
for (const [label, key, fmt] of rows) {
  console.log(`| ${label} | ${columns.map(([, r]) => fmt(r[key])).join(' | ')} |`);
}
