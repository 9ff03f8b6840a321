// Builds the app in APP_DIR (main.js, index.html, compgym installed from the
// packed tarball) with one bundler, the way its documentation says, into
// APP_DIR/dist-BUNDLER with an index.html that loads it; or, for vite-dev,
// serves it with Vite's dev server, prints the URL and serves until killed.
//
//   node build.mjs vite|webpack|esbuild|esbuild-unminified|vite-dev APP_DIR
//
// It runs from the folder the bundlers are installed in, so it imports them by name.
import { copyFileSync, cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [bundler, app] = process.argv.slice(2);
const out = join(app, `dist-${bundler}`);
if (bundler !== 'vite-dev') rmSync(out, { recursive: true, force: true });

const page = (script) =>
  `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>${bundler}</title>${script}\n`;

const builders = {
  // Vite finds the wasm and the worker through `new URL(..., import.meta.url)` and bundles both.
  async vite() {
    const { build } = await import('vite');
    await build({ root: app, configFile: false, logLevel: 'warn', build: { outDir: out } });
  },

  // Vite's dev server, as a user runs `vite` in the app's folder.
  async 'vite-dev'() {
    const { createServer } = await import('vite');
    const server = await createServer({ root: app, configFile: false, logLevel: 'warn', server: { port: 0, host: '127.0.0.1' } });
    await server.listen();
    console.log(server.resolvedUrls.local[0]);
  },

  // webpack 5 does the same: the wasm becomes an asset, worker.js a chunk of its own.
  async webpack() {
    const { default: webpack } = await import('webpack');
    const config = { mode: 'production', context: app, entry: './main.js', output: { path: out }, performance: { hints: false } };
    const stats = await new Promise((resolve, reject) =>
      webpack(config, (error, result) => (error ? reject(error) : resolve(result))),
    );
    if (stats.hasErrors() || stats.hasWarnings()) throw new Error(stats.toString({ all: false, errors: true, warnings: true }));
    writeFileSync(join(out, 'index.html'), page('<script src="main.js"></script>'));
  },

  // esbuild leaves `new URL(..., import.meta.url)` alone: each worker is an
  // entry point of its own, named as the package names it, and the wasm and
  // the pretrained policies and the datasets shipped as files are copied
  // beside the bundles.
  async esbuild({ minify = true } = {}) {
    const esbuild = await import('esbuild');
    await esbuild.build({
      absWorkingDir: app,
      entryPoints: [
        'main.js',
        { in: 'compgym/worker.js', out: 'worker' },
        { in: 'compgym/agents-worker.js', out: 'agents-worker' },
      ],
      bundle: true,
      format: 'esm',
      minify,
      outdir: out,
      logLevel: 'warning',
    });
    copyFileSync(join(app, 'node_modules/compgym/compgym_bg.wasm'), join(out, 'compgym_bg.wasm'));
    for (const folder of ['policies', 'datasets']) cpSync(join(app, 'node_modules/compgym', folder), join(out, folder), { recursive: true });
    writeFileSync(join(out, 'index.html'), page('<script type="module" src="main.js"></script>'));
  },

  // The same unminified, as in development: the bundle renames classes whose names collide.
  async 'esbuild-unminified'() {
    await builders.esbuild({ minify: false });
  },
};

if (!builders[bundler]) throw new Error(`unknown bundler ${bundler}`);
await builders[bundler]();
if (bundler !== 'vite-dev') readFileSync(join(out, 'index.html')); // each build ends with a page to load
