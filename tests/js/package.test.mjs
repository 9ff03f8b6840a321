// The published package: `npm pack` it, install the tarball in a scratch
// project, and import it from Node (ESM) and from a page with no bundler.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '../../scripts/serve.mjs';
import { launch, strictPage } from './browser.mjs';

const pkgDir = new URL('../../pkg/', import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
let scratch;

before(() => {
  scratch = mkdtempSync(join(tmpdir(), 'compgym-pack-'));
  const tarball = execFileSync('npm', ['pack', pkgDir, '--pack-destination', scratch, '--silent'], {
    encoding: 'utf8',
  }).trim();
  writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'scratch', private: true, type: 'module' }));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--silent', join(scratch, tarball)], {
    cwd: scratch,
  });
});

after(() => rmSync(scratch, { recursive: true, force: true }));

test('the tarball holds exactly the files the manifest lists, plus package.json', () => {
  const listed = execFileSync('npm', ['pack', pkgDir, '--dry-run', '--json'], { encoding: 'utf8' });
  const files = JSON.parse(listed)[0].files.map((f) => f.path).sort();
  assert.deepEqual(files, [...manifest.files, 'package.json'].sort());
});

test('the package page\'s ES module examples run against the installed package', () => {
  const page = readFileSync(join(scratch, 'node_modules/compgym/README.md'), 'utf8');
  const examples = [...page.matchAll(/```js\n([^]*?)```/g)].map((m) => m[1]).filter((code) => !code.includes('require('));
  assert.ok(examples.length >= 2, `${examples.length} runnable examples`);
  for (const code of examples) {
    // Each example runs to its end without an error (a failure exits non-zero and throws here).
    execFileSync('node', ['--input-type=module', '-e', code], { cwd: scratch, encoding: 'utf8' });
  }
});

test('Node imports the installed package as ESM, ready without init(), large-v0 loaded', () => {
  const script = `
    import init, { version, canonicalDtype, make, loadDataset } from 'compgym';
    await init();
    let name = null;
    try { canonicalDtype('nope'); } catch (e) { name = e.name; }
    const env = make('bril-v0', { benchmark: 'benchmark://large-v0/text-stats' });
    env.reset();
    env.free();
    let unknown = null;
    try { await loadDataset('large-v1'); } catch (e) { unknown = e.name; }
    let wrong = null;
    try { await loadDataset([]); } catch (e) { wrong = e.name; }
    const dataset = await loadDataset('large-v0');
    console.log(JSON.stringify({ version: version(), name, ok: canonicalDtype('int64'), dataset, unknown, wrong }));
  `;
  const out = execFileSync('node', ['--input-type=module', '-e', script], { cwd: scratch, encoding: 'utf8' });
  assert.deepEqual(JSON.parse(out), { version: manifest.version, name: 'TypeError', ok: 'int64', dataset: 'large-v0', unknown: 'LookupError', wrong: 'TypeError' });
});

test('Node runs the installed package\'s service in a worker through compgym/remote.js', () => {
  const script = `
    import { Service } from 'compgym';
    import { connectService } from 'compgym/remote.js';
    const local = new Service().getVersion();
    const remote = connectService();
    const version = await remote.getVersion();
    let name = null;
    try { await remote.endSession({ sessionId: 1 }); } catch (e) { name = e.name; }
    await remote.terminate();
    console.log(JSON.stringify({ same: JSON.stringify(local) === JSON.stringify(version), name }));
  `;
  const out = execFileSync('node', ['--input-type=module', '-e', script], { cwd: scratch, encoding: 'utf8' });
  assert.deepEqual(JSON.parse(out), { same: true, name: 'SessionNotFound' });
});

test('the worker entry points resolve through the manifest\'s exports, to their Node forms under Node', () => {
  const script = `
    const resolve = (p) => import.meta.resolve(p).replace(/^.*node_modules\\/compgym\\//, '');
    const names = ['compgym/worker.js', 'compgym/remote.js', 'compgym/agents.js', 'compgym/agents-worker.js'];
    console.log(JSON.stringify(names.map(resolve)));
  `;
  const out = execFileSync('node', ['--input-type=module', '-e', script], { cwd: scratch, encoding: 'utf8' });
  assert.deepEqual(JSON.parse(out), ['worker-node.js', 'remote-node.js', 'agents-node.js', 'agents-worker-node.js']);
});

test('Node CommonJS requires the installed package: the same module as import, an environment and the remote service', () => {
  const script = `
    const compgym = require('compgym');
    const { connectService } = require('compgym/remote.js');
    const env = compgym.make('bril-ic-v0', { benchmark: 'benchmark://suite-v0/dead-code' });
    env.reset();
    const { reward } = env.step('-dce');
    env.free();
    const remote = connectService();
    remote.getVersion().then(async (version) => {
      await remote.terminate();
      const esm = await import('compgym');
      console.log(JSON.stringify({ reward, same: esm.make === compgym.make, compiler: version.compilerVersion }));
    });
  `;
  writeFileSync(join(scratch, 'common.cjs'), script);
  const out = JSON.parse(execFileSync('node', ['common.cjs'], { cwd: scratch, encoding: 'utf8' }));
  assert.ok(out.reward > 0, JSON.stringify(out));
  assert.equal(out.same, true, 'require and import share one module instance');
  assert.match(out.compiler, /^bril-compgym /);
});

/**
 * Serves `scratch` with `file` holding a page that runs `script` (a module
 * script; the installed package is at ./node_modules/compgym/), opens it in
 * Chromium, and hands `inspect` the page (its `problems`, from strictPage)
 * and the page's URL before it is loaded.
 */
async function inPage(file, script, inspect) {
  writeFileSync(
    join(scratch, file),
    `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">\n<script type="module">${script}</script>`,
  );
  const server = await serve(scratch, 0);
  const browser = await launch();
  try {
    const page = await strictPage(browser);
    await inspect(page, `http://127.0.0.1:${server.address().port}/${file}`);
    assert.deepEqual(page.problems, []);
  } finally {
    await browser.close();
    server.close();
  }
}

test('a page with no bundler imports the installed package, its classes guarded', async () => {
  const script = `
    import init, { version, Space } from './node_modules/compgym/index.js';
    await init();
    // The entry point guards the classes too: a freed object is a ValueError, a busy one a ServiceError.
    const space = Space.discrete(3);
    space.free();
    try { space.sample(); } catch (e) { window.__freed = e.name; }
    const tuple = Space.tuple([Space.discrete(2)], {});
    tuple.contains(new Proxy([1], { get(t, k, r) { try { tuple.sample(); } catch (e) { window.__busy = e.name; } return Reflect.get(t, k, r); } }));
    window.__version = version();`;
  await inPage('index.html', script, async (page, url) => {
    await page.goto(url);
    await page.waitForFunction(() => window.__version !== undefined, null, { timeout: 20_000 });
    assert.equal(await page.evaluate(() => window.__version), manifest.version);
    assert.deepEqual(await page.evaluate(() => [window.__freed, window.__busy]), ['ValueError', 'ServiceError']);
  });
});

test('a page fetches the pretrained policies only when it asks: before, Policy.pretrained() is a LookupError that says how', async () => {
  const script = `
    import init, { Policy, loadPretrained } from './node_modules/compgym/index.js';
    await init();
    try { Policy.pretrained(); } catch (e) { window.__before = [e.name, e.message]; }
    await new Promise((resolve) => { window.__go = resolve; });
    const tasks = await loadPretrained();
    const again = await loadPretrained(); // idempotent
    const policy = Policy.pretrained('runtime');
    window.__after = { tasks, again, task: policy.task, actions: policy.actions.length };
    policy.free();`;
  await inPage('pretrained.html', script, async (page, url) => {
    const fetched = [];
    page.on('request', (request) => {
      if (request.url().includes('/policies/')) fetched.push(request.url());
    });
    await page.goto(url);
    await page.waitForFunction(() => window.__go !== undefined, null, { timeout: 20_000 });
    assert.deepEqual(fetched, [], 'nothing of the policies is fetched before loadPretrained()');
    const [name, message] = await page.evaluate(() => window.__before);
    assert.equal(name, 'LookupError');
    assert.match(message, /loadPretrained\(\)/);
    await page.evaluate(() => window.__go());
    await page.waitForFunction(() => window.__after !== undefined, null, { timeout: 20_000 });
    const after = await page.evaluate(() => window.__after);
    assert.deepEqual(after.tasks, ['size', 'runtime']);
    assert.deepEqual(after.again, ['size', 'runtime']);
    assert.equal(after.task, 'runtime');
    assert.ok(after.actions >= 32, JSON.stringify(after));
    assert.equal(fetched.length, 2, fetched.join(', '));
  });
});

test('a page fetches large-v0\'s programs only when it asks: before, the dataset lists them and a reset to one is a BenchmarkInitError that says how', async () => {
  const script = `
    import init, { make, loadDataset } from './node_modules/compgym/index.js';
    await init();
    const env = make('bril-ic-v0');
    const listed = env.datasets.find((d) => d.name === 'benchmark://large-v0').benchmarks;
    try { env.reset({ benchmark: 'benchmark://large-v0/sudoku' }); } catch (e) { window.__before = [e.name, e.message, listed.length]; }
    env.reset({ benchmark: 'benchmark://suite-v0/dead-code' });
    let unknown = null;
    try { await loadDataset('suite-v0'); } catch (e) { unknown = [e.name, e.message]; }
    await new Promise((resolve) => { window.__go = resolve; });
    const name = await loadDataset('large-v0');
    const again = await loadDataset('large-v0'); // idempotent
    env.reset({ benchmark: 'benchmark://large-v0/sudoku' });
    const { reward } = env.step('-dce');
    window.__after = { name, again, unknown, stepped: reward >= 0 };
    env.free();`;
  await inPage('dataset.html', script, async (page, url) => {
    const fetched = [];
    page.on('request', (request) => {
      if (request.url().includes('/datasets/')) fetched.push(new URL(request.url()).pathname);
    });
    await page.goto(url);
    await page.waitForFunction(() => window.__go !== undefined, null, { timeout: 20_000 });
    assert.deepEqual(fetched, [], 'nothing of the dataset is fetched before loadDataset()');
    const [name, message, listed] = await page.evaluate(() => window.__before);
    assert.equal(name, 'BenchmarkInitError');
    assert.match(message, /loadDataset\("large-v0"\)/);
    assert.ok(listed >= 20, `${listed} programs listed`);
    await page.evaluate(() => window.__go());
    await page.waitForFunction(() => window.__after !== undefined, null, { timeout: 20_000 });
    const after = await page.evaluate(() => window.__after);
    assert.equal(after.unknown[0], 'LookupError');
    assert.match(after.unknown[1], /"suite-v0" is not a dataset shipped as a file \(large-v0\)/);
    assert.deepEqual({ ...after, unknown: null }, { name: 'large-v0', again: 'large-v0', unknown: null, stepped: true });
    assert.deepEqual(fetched, ['/node_modules/compgym/datasets/large-v0.json']);
  });
});

test('the service\'s worker without large-v0\'s file (a bundle that left it out) serves all the rest, and a session on one of its programs says it is not loaded', async () => {
  const script = `
    import { connectService } from './node_modules/compgym/remote.js';
    const remote = connectService();
    const { sessionId } = await remote.startSession({ benchmark: { uri: 'benchmark://suite-v0/fib-iter' } });
    const step = await remote.step({ sessionId, action: [{ int64Value: 0 }] });
    let refused = null;
    try { await remote.startSession({ benchmark: { uri: 'benchmark://large-v0/sudoku' } }); } catch (e) { refused = [e.name, e.message]; }
    const again = await remote.step({ sessionId, action: [{ int64Value: 1 }] });
    window.__result = { stepped: typeof step.endOfSession === 'boolean', refused, again: typeof again.endOfSession === 'boolean' };
    await remote.terminate();`;
  await inPage('no-dataset.html', script, async (page, url) => {
    await page.route('**/datasets/**', (route) => route.fulfill({ status: 404, body: 'not here' }));
    const warnings = [];
    page.on('console', (message) => message.type() === 'warning' && warnings.push(message.text()));
    await page.goto(url);
    await page.waitForFunction(() => window.__result !== undefined, null, { timeout: 30_000 });
    const result = await page.evaluate(() => window.__result);
    assert.equal(result.stepped, true);
    assert.equal(result.again, true, 'the session goes on after the refusal');
    assert.equal(result.refused[0], 'BenchmarkInitError');
    assert.match(result.refused[1], /the large-v0 programs are not loaded/);
    assert.ok(warnings.some((w) => /serves without large-v0's programs: could not fetch the large-v0 dataset .*HTTP 404/.test(w)), warnings.join('\n'));
    // The 404 was this test's doing; anything else is a problem.
    const others = page.problems.filter((p) => !p.includes('/datasets/large-v0.json'));
    page.problems.length = 0;
    assert.deepEqual(others, []);
  });
});

test('loadPretrained({base}) and loadDataset(name, {base}) fetch from another folder; a base of the wrong type or options other than { base } are a TypeError that loses nothing', async () => {
  cpSync(join(scratch, 'node_modules/compgym/policies'), join(scratch, 'copies'), { recursive: true });
  cpSync(join(scratch, 'node_modules/compgym/datasets'), join(scratch, 'copies'), { recursive: true });
  const script = `
    import init, { Policy, loadPretrained, loadDataset, make } from './node_modules/compgym/index.js';
    await init();
    try { await loadPretrained({ base: 42 }); } catch (e) { window.__wrong = e.name; }
    try { await loadDataset('large-v0', { base: {} }); } catch (e) { window.__wrong += ' ' + e.name; }
    const revoked = Proxy.revocable({}, {});
    revoked.revoke();
    window.__hostile = [];
    for (const options of [42, { baseUrl: 'x' }, { get base() { throw new RangeError('boom'); } }, revoked.proxy]) {
      for (const load of [() => loadPretrained(options), () => loadDataset('large-v0', options)]) {
        let promise;
        try { promise = load(); } catch (e) { window.__hostile.push('thrown ' + e.name); continue; }
        try { await promise; window.__hostile.push('resolved'); } catch (e) { window.__hostile.push(e.name); }
      }
    }
    const tasks = await loadPretrained({ base: 'copies' });
    const dataset = await loadDataset('large-v0', { base: 'copies/' });
    const policy = Policy.pretrained();
    const env = make('bril-v0', { benchmark: 'benchmark://large-v0/nbody' });
    env.reset();
    window.__after = { tasks, task: policy.task, dataset };
    env.free();
    policy.free();`;
  await inPage('elsewhere.html', script, async (page, url) => {
    const fetched = [];
    page.on('request', (request) => {
      if (request.url().endsWith('.json')) fetched.push(new URL(request.url()).pathname);
    });
    await page.goto(url);
    await page.waitForFunction(() => window.__after !== undefined, null, { timeout: 20_000 });
    assert.equal(await page.evaluate(() => window.__wrong), 'TypeError TypeError');
    assert.deepEqual(await page.evaluate(() => window.__hostile), new Array(8).fill('TypeError'), 'options other than { base }: a rejected promise');
    assert.deepEqual(await page.evaluate(() => window.__after), { tasks: ['size', 'runtime'], task: 'size', dataset: 'large-v0' });
    assert.deepEqual(fetched.sort(), ['/copies/large-v0.json', '/copies/pretrained-runtime.json', '/copies/pretrained-size.json']);
  });
});
