// What the package weighs and where the wasm's bytes go: raw, gzip -9 and
// brotli sizes of the shipped module and its JS glue, the packed tarball,
// what the playground sends before its first step, and the largest
// contributors by area of the code and by single item, measured with twiggy
// on the copy of the shipped module that keeps function names.
//
//   make size            (or, after scripts/build.sh: node scripts/size-report.mjs [N])
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { gzipSync, brotliCompressSync, constants } from 'node:zlib';

const root = new URL('..', import.meta.url).pathname;
const top = Number(process.argv[2] ?? 12);
const shipped = `${root}pkg/compgym_bg.wasm`;
const named = `${root}.tmp/size/named/compgym_bg.wasm`;

const fmt = (n) => n.toLocaleString('en-US');
const kb = (n) => `${(n / 1024).toFixed(0)} KB`;
const percent = (part, whole) => `${((100 * part) / whole).toFixed(1)}%`;

function compressed(bytes) {
  return {
    raw: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
    brotli: brotliCompressSync(bytes, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_LGWIN]: 24 },
    }).length,
  };
}

// The shipped files.
console.log('| file | raw | gzip -9 | brotli |');
console.log('|---|---:|---:|---:|');
for (const file of ['compgym_bg.wasm', 'compgym.js']) {
  const { raw, gzip, brotli } = compressed(readFileSync(`${root}pkg/${file}`));
  console.log(`| ${file} | ${fmt(raw)} (${kb(raw)}) | ${fmt(gzip)} (${kb(gzip)}) | ${fmt(brotli)} (${kb(brotli)}) |`);
}
const [packed] = JSON.parse(
  execFileSync('npm', ['pack', `${root}pkg`, '--dry-run', '--json', '--loglevel=error'], { encoding: 'utf8' }),
);
console.log(
  `| npm tarball (${packed.entryCount} files; ${fmt(packed.unpackedSize)} unpacked) | | ${fmt(packed.size)} (${kb(packed.size)}) | |`,
);

// The page's first step: its HTML and every file the HTML links (the
// preloaded module, the entry script, its preloaded chunks, the styles),
// as the server sends them (brotli where a .br sits beside the file):
// what `make bench-page` counts on the wire before the first possible step.
const dist = `${root}www/dist/`;
const html = readFileSync(`${dist}index.html`, 'utf8');
const linked = [...html.matchAll(/\b(?:href|src)="([^"#?:]+)"/g)].map((m) => m[1]);
const sent = (file) => (existsSync(`${dist}${file}.br`) ? statSync(`${dist}${file}.br`).size : statSync(`${dist}${file}`).size);
const firstStep = ['index.html', ...new Set(linked)].filter((file) => existsSync(`${dist}${file}`));
console.log('\n| the playground\'s first step: a file and what it links | sent (brotli) |');
console.log('|---|---:|');
for (const file of firstStep) console.log(`| ${file} | ${fmt(sent(file))} |`);
const firstStepBytes = firstStep.reduce((sum, file) => sum + sent(file), 0);
console.log(`| all of them (the goal: at most 400 KB) | ${fmt(firstStepBytes)} (${kb(firstStepBytes)}) |`);

// Where the bytes go: twiggy over the module with names, less the names themselves.
let items;
try {
  items = JSON.parse(execFileSync('twiggy', ['top', '--format', 'json', named], { encoding: 'utf8', maxBuffer: 1 << 28 }));
} catch (error) {
  console.error(`\ntwiggy failed on ${named} (${error.message.split('\n')[0]}): run scripts/setup.sh size and scripts/build.sh`);
  process.exit(1);
}
const debugOnly = (name) => /^"function names" subsection|^custom section 'producers'/.test(name);
items = items.filter((item) => !debugOnly(item.name));
const total = items.reduce((sum, item) => sum + item.shallow_size, 0);
const shippedRaw = readFileSync(shipped).length;

const CRATES = ['hashbrown', 'dlmalloc', 'libm', 'wasm_bindgen', 'js_sys', 'compiler_builtins', 'serde_wasm_bindgen'];
/** The area an item belongs to: the compgym module it is code for, a dependency, or the module's structure. */
function area(name) {
  const clean = name.replace(/\[[0-9a-f]+\]/g, '');
  if (clean.startsWith('data segment')) return 'data: strings, tables, the bundled suite';
  const own = clean.match(/compgym::(\w+)(?:::([a-z_]\w*))?/);
  if (own) {
    const [, module, sub] = own;
    return ['bril', 'js', 'env', 'service', 'spaces'].includes(module) && sub ? `compgym::${module}::${sub}` : `compgym::${module}`;
  }
  if (/serde|zmij|itoa|ryu/.test(clean)) return 'serde, serde_json (and its number formatting)';
  if (/^<*(core|alloc|std)::|as (core|alloc|std)::|^<([iu](8|16|32|64|128|size)|f32|f64|char|str)>::|^__rustc|^__[a-z]+[ti]i\d$/.test(clean)) {
    return 'Rust standard library';
  }
  const crate = CRATES.find((c) => clean.startsWith(`${c}::`) || clean.startsWith(`<${c}::`));
  if (crate) return crate;
  if (/^(export|import|type|table|elem|global|memory|code section|custom section)\b/.test(clean)) {
    return 'wasm structure: imports, exports, types, tables';
  }
  return 'wasm-bindgen export shims';
}

const byArea = new Map();
for (const item of items) byArea.set(area(item.name), (byArea.get(area(item.name)) ?? 0) + item.shallow_size);
const areas = [...byArea].sort((a, b) => b[1] - a[1]);

console.log(`\nLargest areas of ${fmt(shippedRaw)} shipped bytes (${fmt(total)} counted by twiggy):\n`);
console.log('| area | bytes | share |');
console.log('|---|---:|---:|');
for (const [name, bytes] of areas.slice(0, top)) console.log(`| ${name} | ${fmt(bytes)} | ${percent(bytes, total)} |`);
if (areas.length > top) {
  const rest = areas.slice(top).reduce((sum, [, bytes]) => sum + bytes, 0);
  console.log(`| ${areas.length - top} more areas | ${fmt(rest)} | ${percent(rest, total)} |`);
}

const own = areas.filter(([name]) => name.startsWith('compgym::')).reduce((sum, [, bytes]) => sum + bytes, 0);
console.log(`\ncompgym's own code, all modules together: ${fmt(own)} bytes, ${percent(own, total)}.`);

console.log('\nLargest single items:\n');
console.log('| item | bytes | share |');
console.log('|---|---:|---:|');
const short = (name) => name.replace(/\[[0-9a-f]+\]/g, '').replace(/::h[0-9a-f]{16}$/, '').slice(0, 100);
for (const item of items.slice(0, top)) {
  console.log(`| \`${short(item.name)}\` | ${fmt(item.shallow_size)} | ${percent(item.shallow_size, total)} |`);
}
