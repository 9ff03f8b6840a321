// The documentation site as `make docs` builds it (scripts/site/build.mjs,
// after the package is built) and the playground's server serves it at
// /docs/: an index linking the guides, the JS reference and the Rust
// reference, every guide rendered, and no link between them that fails.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '../../scripts/serve.mjs';
import { docFiles, root } from './doc-examples.mjs';

let scratch;
let server;
let origin;

before(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'compgym-site-'));
  execFileSync(process.execPath, [join(root, 'scripts/site/build.mjs'), '--out', join(scratch, 'site')], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server = await serve(join(root, 'www/dist'), 0, '127.0.0.1', {
    mounts: { '/docs/': join(scratch, 'site'), '/unbuilt/': join(scratch, 'nothing') },
  });
  origin = `http://127.0.0.1:${server.address().port}`;
});

after(() => {
  server?.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** The targets of a page's links and stylesheets, as absolute URLs (no anchors). */
function links(html, base) {
  return [...html.matchAll(/\b(?:href|src)="([^"#]*)(?:#[^"]*)?"/g)].map((m) => m[1]).filter(Boolean).map((href) => new URL(href, base).href);
}

test('/docs/ is an index that links the guides, the JS reference and the Rust reference', async () => {
  const redirect = await fetch(`${origin}/docs`, { redirect: 'manual' });
  assert.equal(redirect.status, 301);
  assert.equal(redirect.headers.get('location'), '/docs/');
  const response = await fetch(`${origin}/docs/`);
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type'), /^text\/html/);
  const index = await response.text();
  const targets = links(index, `${origin}/docs/`);
  for (const page of ['gym.html', 'environments.html', 'benchmarks.html', 'js/index.html', 'rust/compgym/index.html']) {
    assert.ok(targets.includes(`${origin}/docs/${page}`), `the index links ${page}`);
  }
});

test('every guide is rendered, and every link of the rendered guides resolves', async () => {
  const pages = docFiles().map((f) => (f === 'docs/README.md' ? 'index.html' : f.replace(/^docs\//, '').replace(/\.md$/, '.html')));
  pages.splice(pages.indexOf('README.html'), 1, 'readme.html', 'architecture.html', 'changelog.html');
  const checked = new Map();
  for (const page of pages) {
    const url = `${origin}/docs/${page}`;
    const response = await fetch(url);
    assert.equal(response.status, 200, url);
    const html = await response.text();
    assert.doesNotMatch(html, /href="[^"]*\.md(#[^"]*)?"/, `${page} links a Markdown file, not its page`);
    for (const target of links(html, url)) {
      if (!target.startsWith(`${origin}/docs/`) || checked.has(target)) continue;
      checked.set(target, (await fetch(target)).status);
    }
  }
  const broken = [...checked].filter(([, status]) => status !== 200);
  assert.deepEqual(broken, []);
  assert.ok(checked.size > pages.length, `${checked.size} links followed`);
});

test('the JS reference documents every entry point of the package, and the Rust one the crate', async () => {
  for (const module of ['compgym', 'gym', 'remote', 'worker', 'agents', 'agents-worker']) {
    assert.equal((await fetch(`${origin}/docs/js/modules/${module}.html`)).status, 200, module);
  }
  const env = await (await fetch(`${origin}/docs/js/classes/compgym.CompilerEnv.html`)).text();
  assert.match(env, /CompilerGym's `?CompilerEnv`?|compiler environment/);
  assert.match(env, /\bstep\b/);
  const crate = await fetch(`${origin}/docs/rust/compgym/index.html`);
  assert.equal(crate.status, 200);
  assert.match(await crate.text(), /compiler optimisation as a reinforcement-learning environment/i);
});

test('a site not built yet is a 404 that says how to build it', async () => {
  const response = await fetch(`${origin}/unbuilt/`);
  assert.equal(response.status, 404);
  assert.match(await response.text(), /make docs/);
});
