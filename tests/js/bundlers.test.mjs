// The package under bundlers: the app in bundlers/app (load the wasm, step an
// environment, call the service in a worker through compgym/remote.js) built
// with Vite, webpack 5 and esbuild against the packed tarball, then run in
// headless Chromium. The bundlers (pinned in bundlers/package-lock.json) are
// installed once into .tmp/bundlers and reused while the lock file is unchanged.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
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

/** Builds the app with `bundler`, serves the result and returns what the page computed. */
async function buildAndRun(bundler) {
  const out = execFileSync('node', ['build.mjs', bundler, app], { cwd: tools, encoding: 'utf8', stdio: 'pipe' });
  assert.equal(out, '', `${bundler} printed:\n${out}`);
  const dist = join(app, `dist-${bundler}`);
  assert.doesNotMatch(bundleText(dist), /node:worker_threads|node:fs/, 'no Node module reaches a browser bundle');
  const server = await serve(dist, 0);
  try {
    const page = await strictPage(browser);
    await page.goto(`http://127.0.0.1:${server.address().port}/`);
    await page.waitForFunction(() => window.result !== undefined, null, { timeout: 60_000 });
    const result = await page.evaluate(() => window.result);
    assert.deepEqual(page.problems, []);
    await page.close();
    return result;
  } finally {
    server.close();
  }
}

function check(result) {
  assert.deepEqual(result, {
    version: manifest.version,
    reward: result.reward,
    compilerVersion: `bril-compgym ${manifest.version}`,
    stepped: true,
    error: 'SessionNotFound',
    toyVersion: result.toyVersion,
  });
  assert.ok(result.reward > 0, `reward ${result.reward}`);
  assert.match(result.toyVersion, /^toy /);
}

for (const bundler of ['vite', 'webpack', 'esbuild']) {
  test(`${bundler}: the bundled app loads the wasm, steps an environment and calls the service in a worker`, async () => {
    check(await buildAndRun(bundler));
  });
}
