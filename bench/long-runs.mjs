// Long runs beside the anchor, in one run: community programs with their
// inputs scaled up so that each executes tens to hundreds of millions of
// instructions, run by the interpreter and by the compiling tier, in wasm
// under Node and in headless Chromium; and, when BRILIFT names a folder
// holding a built brilift (Bril's Cranelift compiler, built outside this
// repository: `cargo build --release && make rt.o` in Bril's `brilift/`), as
// native code from brilift (`-O speed`, linked with its `rt.o`). Every run's
// output must match the interpreter's.
//
//   make bench-interp                          (or: node bench/long-runs.mjs [runs])
//   BRILIFT=/path/to/bril/brilift make bench-interp
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as compgym from '../pkg/node.js';
import { serve } from '../scripts/serve.mjs';
import { launch } from '../tests/js/browser.mjs';

const root = new URL('..', import.meta.url).pathname;
const runs = Number(process.argv[2] ?? 3);

/** Programs whose work grows with their arguments: [path under data/bril-community, arguments]. */
const PROGRAMS = [
  ['float/harmonic-sum.bril', ['10000000']],
  ['core/ackermann.bril', ['3', '9']],
  ['core/catalan.bril', ['14']],
  ['core/primes-between.bril', ['1', '20000']],
  ['mem/mat-mul.bril', ['160', '109658']],
];

/**
 * The best seconds of `runs` timed runs of `run` (after one untimed run), and what the last one gave.
 * @template T
 * @param {() => T} run
 */
function best(run) {
  let result = run();
  let seconds = Infinity;
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    result = run();
    seconds = Math.min(seconds, (performance.now() - start) / 1e3);
  }
  return { seconds, result };
}

/** Both tiers on `source`: seconds of each, the count and the output (the page runs the same function). */
function tiers(runBril, source, args, runs) {
  const time = (tier) => {
    let last = runBril(source, args, null, { tier });
    let seconds = Infinity;
    for (let i = 0; i < runs; i++) {
      const start = performance.now();
      last = runBril(source, args, null, { tier });
      seconds = Math.min(seconds, (performance.now() - start) / 1e3);
    }
    if (last.tier !== tier) throw new Error(`asked for the ${tier} tier, ${last.tier} ran`);
    return { seconds, dynInst: last.dynInst, stdout: last.stdout };
  };
  return { interpreter: time('interpreter'), compiled: time('compiled') };
}

/** Seconds of the brilift-compiled program, or null without BRILIFT. */
function brilift(source, args, expected) {
  const dir = process.env.BRILIFT;
  if (!dir) return null;
  const work = mkdtempSync(join(tmpdir(), 'compgym-brilift-'));
  try {
    const [object, exe] = [join(work, 'bril.o'), join(work, 'bril')];
    execFileSync(join(dir, 'target/release/brilift'), ['-O', 'speed', '-o', object], {
      input: compgym.brilToJson(source),
    });
    execFileSync('cc', ['-o', exe, object, join(dir, 'rt.o')]);
    const { seconds, result } = best(() => spawnSync(exe, args, { encoding: 'utf8' }));
    if (result.status !== 0 || result.stdout !== expected) {
      throw new Error(`brilift's program printed ${JSON.stringify(result.stdout.slice(0, 80))}, status ${result.status}`);
    }
    return seconds;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const cases = PROGRAMS.map(([path, args]) => ({
  name: path.replace(/\.bril$/, ''),
  args,
  source: readFileSync(`${root}data/bril-community/${path}`, 'utf8'),
}));

const node = cases.map(({ source, args }) => tiers(compgym.runBril, source, args, runs));

const server = await serve(root, 0);
const browser = await launch();
let chromium, chromiumVersion;
try {
  const page = await browser.newPage();
  await page.goto(`http://127.0.0.1:${server.address().port}/bench/long-runs.mjs`);
  chromium = await page.evaluate(
    async ({ cases, runs, tiersText }) => {
      const compgym = await import('/pkg/index.js');
      await compgym.default();
      const tiers = new Function(`return ${tiersText}`)();
      return cases.map(({ source, args }) => tiers(compgym.runBril, source, args, runs));
    },
    { cases, runs, tiersText: tiers.toString() },
  );
  chromiumVersion = browser.version();
} finally {
  await browser.close();
  server.close();
}

const rate = (dynInst, seconds) => dynInst / seconds / 1e6;
const fmt = (x) => (x === null ? '—' : `${x.toFixed(0)} M`);
const geo = (xs) => Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length);
console.log(`Node ${process.version}, Chromium ${chromiumVersion}; best of ${runs} runs after one untimed\n`);
console.log(
  '| program (arguments) | instructions | interpreter, Node | compiled, Node | ÷ | interpreter, Chromium | compiled, Chromium | ÷ | brilift | brilift ÷ compiled (Node) |',
);
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
const ratios = { node: [], chromium: [], brilift: [] };
cases.forEach(({ name, args, source }, i) => {
  const [n, c] = [node[i], chromium[i]];
  const expected = n.interpreter.stdout;
  for (const [side, run] of [
    ['Node, compiled', n.compiled],
    ['Chromium, interpreter', c.interpreter],
    ['Chromium, compiled', c.compiled],
  ]) {
    if (run.stdout !== expected || run.dynInst !== n.interpreter.dynInst) {
      throw new Error(`${name}: ${side} printed or counted otherwise than the interpreter`);
    }
  }
  const count = n.interpreter.dynInst;
  const native = brilift(source, args, expected);
  const rates = [n.interpreter, n.compiled, c.interpreter, c.compiled].map((r) => rate(count, r.seconds));
  ratios.node.push(rates[1] / rates[0]);
  ratios.chromium.push(rates[3] / rates[2]);
  const brilRate = native === null ? null : rate(count, native);
  if (brilRate !== null) ratios.brilift.push(brilRate / rates[1]);
  console.log(
    `| ${name} (${args.join(' ')}) | ${(count / 1e6).toFixed(1)} M | ${fmt(rates[0])}/s | ${fmt(rates[1])}/s | ${(rates[1] / rates[0]).toFixed(1)}x | ` +
      `${fmt(rates[2])}/s | ${fmt(rates[3])}/s | ${(rates[3] / rates[2]).toFixed(1)}x | ` +
      `${brilRate === null ? '—' : `${fmt(brilRate)}/s`} | ${brilRate === null ? '—' : `${(brilRate / rates[1]).toFixed(2)}`} |`,
  );
});
const brilMean = ratios.brilift.length ? geo(ratios.brilift).toFixed(2) : '—';
console.log(`| geometric mean | | | | ${geo(ratios.node).toFixed(1)}x | | | ${geo(ratios.chromium).toFixed(1)}x | | ${brilMean} |`);
console.log(
  "\nRates are the interpreter's instruction count (brili's) over each side's seconds; brilift's include starting its process." +
    (process.env.BRILIFT ? '' : ' "—": BRILIFT is not set.'),
);
