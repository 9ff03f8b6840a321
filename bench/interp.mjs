// Interpreter throughput natively and in wasm under Node, in one run: the
// native CLI picks the largest programs and times them, then the built
// package times the same programs.
//
//   make bench-interp            (or: node bench/interp.mjs [seconds] [PATH...])
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { benchInterpreter } from '../pkg/node.js';

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
console.log('| program | native instr/s | wasm (Node) instr/s | wasm ÷ native |');
console.log('|---|---:|---:|---:|');
let [nativeSum, wasmSum] = [0, 0];
for (const [path, nativeRate] of Object.entries(native)) {
  const wasm = benchInterpreter(readFileSync(path, 'utf8'), perProgram).perSecond;
  nativeSum += Math.log(nativeRate);
  wasmSum += Math.log(wasm);
  const name = path.split('/').slice(-2).join('/');
  console.log(`| ${name} | ${fmt(nativeRate)} | ${fmt(wasm)} | ${(wasm / nativeRate).toFixed(2)} |`);
}
const n = Object.keys(native).length;
const [g1, g2] = [Math.exp(nativeSum / n), Math.exp(wasmSum / n)];
console.log(`| geometric mean | ${fmt(g1)} | ${fmt(g2)} | ${(g2 / g1).toFixed(2)} |`);
