// Interpreter throughput natively and in wasm under Node, and the compiling
// tier's beside them, in one run: the native CLI picks the largest programs
// and times them, then the built package times the same programs with its
// interpreter and compiled to WebAssembly (the first run, compiling
// included, apart).
//
//   make bench-interp            (or: node bench/interp.mjs [seconds] [PATH...])
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { benchCompiled, benchInterpreter } from '../pkg/node.js';

const root = new URL('..', import.meta.url).pathname;
const seconds = Number(process.argv[2] ?? 8);
const paths = process.argv.length > 3 ? process.argv.slice(3) : [`${root}data/bril-community`];

const native = JSON.parse(
  execFileSync(`${root}target/release/compgym-bench`, ['interp', '--json', '--seconds', String(seconds), ...paths], {
    encoding: 'utf8',
  }),
);
const perProgram = seconds / Object.keys(native).length;
const fmt = (x) => `${(x / 1e6).toFixed(0)} M`;
console.log(`Node ${process.version}; ${perProgram.toFixed(1)} s per program and side\n`);
console.log(
  '| program | native instr/s | wasm (Node) instr/s | wasm ÷ native | compiled (Node) instr/s | compiled ÷ wasm | first compiled run |',
);
console.log('|---|---:|---:|---:|---:|---:|---:|');
const logs = { native: [], wasm: [], compiled: [], interpOfCompiled: [] };
const geo = (xs) => Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length);
for (const [path, nativeRate] of Object.entries(native)) {
  const source = readFileSync(path, 'utf8');
  const wasm = benchInterpreter(source, perProgram / 2).perSecond;
  logs.native.push(nativeRate);
  logs.wasm.push(wasm);
  let compiledCells = '— | — | —';
  try {
    const c = benchCompiled(source, perProgram / 2);
    logs.compiled.push(c.perSecond);
    logs.interpOfCompiled.push(wasm);
    compiledCells = `${fmt(c.perSecond)} | ${(c.perSecond / wasm).toFixed(1)} | ${(c.firstRunSeconds * 1e3).toFixed(0)} ms`;
  } catch (e) {
    if (!(e instanceof Error) || e.name !== 'ValueError') throw e;
  }
  const name = path.split('/').slice(-2).join('/');
  console.log(`| ${name} | ${fmt(nativeRate)} | ${fmt(wasm)} | ${(wasm / nativeRate).toFixed(2)} | ${compiledCells} |`);
}
const [g1, g2] = [geo(logs.native), geo(logs.wasm)];
const compiledMean = logs.compiled.length ? geo(logs.compiled) : NaN;
const ratio = compiledMean / geo(logs.interpOfCompiled);
console.log(
  `| geometric mean | ${fmt(g1)} | ${fmt(g2)} | ${(g2 / g1).toFixed(2)} | ${fmt(compiledMean)} (${logs.compiled.length} programs) | ${ratio.toFixed(1)} | |`,
);
console.log('\n"—": the compiling tier leaves the program to the interpreter.');
