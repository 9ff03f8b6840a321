// Builds the playground into www/dist/: the page's modules bundled with
// esbuild (the main bundle, lazily loaded chunks, the worker bundle), the
// static files, the package's wasm, and brotli and gzip copies of each, which
// scripts/serve.mjs (or any static host that looks for them) sends as is.
// Usage: node www/build.mjs   (after scripts/build.sh has filled www/pkg/)
import { build } from 'esbuild';
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync, constants } from 'node:zlib';

const www = new URL('.', import.meta.url).pathname;
const dist = join(www, 'dist');
const wasm = join(www, 'pkg', 'compgym_bg.wasm');
if (!existsSync(wasm) || !existsSync(join(www, 'first-step', 'first-step_bg.wasm'))) {
  console.error('www/pkg/ or www/first-step/ is missing: run scripts/build.sh first');
  process.exit(1);
}

rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });

const common = {
  bundle: true,
  format: 'esm',
  minify: true,
  sourcemap: true,
  target: ['chrome110', 'firefox115', 'safari16'],
  logLevel: 'warning',
  legalComments: 'linked',
};

// The page: one entry module with no static imports of its own, so nothing
// stands between the HTML and the wasm request; panels that are not needed
// for the first step come as chunks loaded right after.
const page = await build({
  ...common,
  entryPoints: { main: join(www, 'src/main.js') },
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  outdir: dist,
  metafile: true,
});

// The workers, self-contained: the page's, started once per job lane, and
// the package's agents worker (compgym/agents-worker.js), which the agents
// panel drives through compgym/agents.js.
await build({
  ...common,
  entryPoints: { worker: join(www, 'src/worker.js'), 'agents-worker': join(www, 'pkg/agents-worker.js') },
  outdir: dist,
});

// index.html with a modulepreload for every chunk the main module imports
// statically, so the browser fetches them alongside it rather than after.
// The views' chunks are imported once a step is possible, so they do not
// compete with the wasm's compilation.
const outputs = page.metafile.outputs;
const mainOutput = Object.keys(outputs).find((file) => file.endsWith('/main.js'));
const chunks = Object.keys(outputs).filter((file) => file.includes('/chunks/') && file.endsWith('.js'));
const preloads = outputs[mainOutput].imports
  .filter((i) => i.kind === 'import-statement')
  .map((i) => `    <link rel="modulepreload" href="${i.path.slice(i.path.indexOf('chunks/'))}" />`)
  .join('\n');
const html = readFileSync(join(www, 'index.html'), 'utf8').replace('    <!-- chunks -->', preloads);
writeFileSync(join(dist, 'index.html'), html);
for (const file of ['style.css', 'favicon.svg']) copyFileSync(join(www, file), join(dist, file));
copyFileSync(join(www, 'node_modules/uplot/dist/uPlot.min.css'), join(dist, 'uplot.css'));
copyFileSync(wasm, join(dist, 'compgym_bg.wasm'));
copyFileSync(join(www, 'first-step', 'first-step_bg.wasm'), join(dist, 'first-step_bg.wasm'));
// The pretrained policies and the datasets shipped as files, where the
// bundled workers ask for them (beside themselves).
for (const folder of ['policies', 'datasets']) cpSync(join(www, 'pkg', folder), join(dist, folder), { recursive: true });

// Precompressed copies: brotli, gzip at level 9. The modules, most of what a
// visitor waits for, at brotli's quality 11
// (about 7 s here, 11% smaller than quality 9: 945 against 1,064 KB); the
// rest at quality 9, where 11 would add seconds for a few KB.
const COMPRESSIBLE = /\.(js|css|html|svg|wasm|json|map|txt)$/;
const brotliQuality = (name) => (name.endsWith('.wasm') ? 11 : 9);
function compressAll(dir) {
  for (const name of readdirSync(dir)) {
    const file = join(dir, name);
    if (statSync(file).isDirectory()) compressAll(file);
    else if (COMPRESSIBLE.test(name)) {
      const data = readFileSync(file);
      const br = brotliCompressSync(data, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: brotliQuality(name),
          [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
        },
      });
      writeFileSync(`${file}.br`, br);
      writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }));
    }
  }
}
compressAll(dist);

const size = (file) => `${(statSync(join(dist, file)).size / 1024).toFixed(0)} KiB`;
console.log(
  `built www/dist/: main.js ${size('main.js')} (${size('main.js.br')} br), ${chunks.length} chunks, ` +
    `worker.js ${size('worker.js')}, agents-worker.js ${size('agents-worker.js')}, wasm ${size('compgym_bg.wasm')} (${size('compgym_bg.wasm.br')} br), ` +
    `first-step wasm ${size('first-step_bg.wasm')} (${size('first-step_bg.wasm.br')} br)`,
);
