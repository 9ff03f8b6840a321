// The package under bundlers: the app in bundlers/app (load the wasm, step an
// environment, call the service in a worker through compgym/remote.js, run an
// agent in its worker through compgym/agents.js) built
// with Vite, webpack 5 and esbuild (minified and not) against the packed tarball, served by Vite's
// dev server, and loaded with no bundler at all, each run in headless Chromium. The bundlers (pinned in bundlers/package-lock.json) are
// installed once into .tmp/bundlers and reused while the lock file is unchanged.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { serve } from '../../scripts/serve.mjs';
import { launch, strictPage } from './browser.mjs';

const root = new URL('../../', import.meta.url).pathname;
const source = join(root, 'tests/js/bundlers');
const tools = join(root, '.tmp/bundlers');
const manifest = JSON.parse(readFileSync(join(root, 'pkg/package.json'), 'utf8'));
let app;
let browser;

/** Installs the pinned bundlers into .tmp/bundlers unless the same lock file is installed there. */
function installBundlers() {
  const lock = readFileSync(join(source, 'package-lock.json'), 'utf8');
  const installed = join(tools, 'installed-lock.json');
  if (!existsSync(installed) || readFileSync(installed, 'utf8') !== lock) {
    rmSync(tools, { recursive: true, force: true });
    mkdirSync(tools, { recursive: true });
    cpSync(join(source, 'package.json'), join(tools, 'package.json'));
    cpSync(join(source, 'package-lock.json'), join(tools, 'package-lock.json'));
    execFileSync('npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: tools,
      stdio: 'inherit',
    });
    writeFileSync(installed, lock);
  }
  cpSync(join(source, 'build.mjs'), join(tools, 'build.mjs'));
}

before(async () => {
  installBundlers();
  mkdirSync(join(root, '.tmp'), { recursive: true });
  app = mkdtempSync(join(root, '.tmp/bundler-app-'));
  cpSync(join(source, 'app'), app, { recursive: true });
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  const tarball = execFileSync('npm', ['pack', join(root, 'pkg'), '--pack-destination', app, '--silent'], {
    encoding: 'utf8',
  }).trim();
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--silent', join(app, tarball)], { cwd: app });
  browser = await launch();
});

after(async () => {
  await browser?.close();
  if (app) rmSync(app, { recursive: true, force: true });
});

/** Every file a build wrote, as text (the wasm left out). */
function bundleText(dir) {
  return readdirSync(dir, { recursive: true })
    .filter((f) => /\.(js|html)$/.test(f))
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .join('\n');
}

/** Opens `url` and returns what the app computed, failing on any page error. */
async function resultAt(url) {
  const page = await strictPage(browser);
  try {
    await page.goto(url);
    await page.waitForFunction(() => window.result !== undefined, null, { timeout: 60_000 });
    const result = await page.evaluate(() => window.result);
    assert.deepEqual(page.problems, []);
    return result;
  } finally {
    await page.close();
  }
}

/** Builds the app with `bundler`, serves the result and returns what the page computed. */
async function buildAndRun(bundler) {
  const out = execFileSync('node', ['build.mjs', bundler, app], { cwd: tools, encoding: 'utf8', stdio: 'pipe' });
  assert.equal(out, '', `${bundler} printed:\n${out}`);
  const dist = join(app, `dist-${bundler}`);
  assert.doesNotMatch(bundleText(dist), /node:worker_threads|node:fs/, 'no Node module reaches a browser bundle');
  const server = await serve(dist, 0);
  try {
    return await resultAt(`http://127.0.0.1:${server.address().port}/`);
  } finally {
    server.close();
  }
}

/** Serves the app with Vite's dev server and returns what the page computed. */
async function viteDev() {
  const server = spawn('node', ['build.mjs', 'vite-dev', app], { cwd: tools, stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const url = await new Promise((resolve, reject) => {
      let text = '';
      server.stdout.on('data', (chunk) => {
        text += chunk;
        if (text.includes('\n')) resolve(text.trim());
      });
      server.on('exit', (code) => reject(new Error(`the dev server exited with ${code}`)));
    });
    return await resultAt(url);
  } finally {
    server.kill();
  }
}

function check(result) {
  assert.deepEqual(result, {
    version: manifest.version,
    reward: result.reward,
    dataset: 'large-v0',
    largeStep: true,
    compilerVersion: `bril-compgym ${manifest.version}`,
    stepped: true,
    error: 'SessionNotFound',
    guard: {
      refused: 'TypeError: Space.prototype.sampleWith: rng is not a Rng made by compgym: it is a Space',
      banditArms: 1,
      repr: 'RecordEpisodeStatistics<TimeLimit<OrderEnforcing<PassiveEnvChecker<CompilerGymEnv<bril-ic-v0>>>>>',
      names: ['Space', 'Rng', 'Space'],
    },
    toyVersion: result.toyVersion,
    agentRun: { agent: 'greedy', smaller: true, reported: true },
  });
  assert.ok(result.reward > 0, `reward ${result.reward}`);
  assert.match(result.toyVersion, /^toy /);
}

for (const bundler of ['vite', 'webpack', 'esbuild', 'esbuild-unminified']) {
  test(`${bundler}: the bundled app loads the wasm, steps an environment, calls the service and runs an agent in workers`, async () => {
    check(await buildAndRun(bundler));
  });
}

test('no bundler: the same app as plain modules, with an import map for the package\'s names', async () => {
  const imports = {
    compgym: './node_modules/compgym/index.js',
    'compgym/remote.js': './node_modules/compgym/remote.js',
    'compgym/agents.js': './node_modules/compgym/agents.js',
    'compgym/gym': './node_modules/compgym/gym/index.js',
  };
  writeFileSync(
    join(app, 'plain.html'),
    `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">
     <script type="importmap">${JSON.stringify({ imports })}</script>
     <script type="module" src="./main.js"></script>`,
  );
  const server = await serve(app, 0);
  try {
    check(await resultAt(`http://127.0.0.1:${server.address().port}/plain.html`));
  } finally {
    server.close();
  }
});

test('Vite\'s dev server serves the same app, unconfigured', async () => {
  check(await viteDev());
});
