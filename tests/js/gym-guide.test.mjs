// The compgym/gym examples of docs/gym.md, run verbatim: in Node as modules
// of a project with the package installed, and in Chromium as module scripts
// of a page whose import map points `compgym` and `compgym/gym` at the package.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serve } from '../../scripts/serve.mjs';
import { launch, strictPage } from './browser.mjs';
import { blocksOf, runExamples } from './doc-examples.mjs';

const pkgDir = new URL('../../pkg/', import.meta.url).pathname;
const blocks = blocksOf('docs/gym.md', 'js').map((b) => b.code);

// What each example prints, in order: a pattern per line.
const EXPECTED = [
  [/^benchmark:\/\/suite-v0\/palindromes -?[\d.e-]+ (-[a-z0-9=-]+ ?)+$/],
  [/^\[\]$/, /^\[ -?[\d.e-]+, true \]$/],
  [/^\[\]$/, /^benchmark:\/\/suite-v0\/\S+ [-a-z0-9= ]* ?\{ r: -?[\d.e-]+, l: \d+, t: [\d.e-]+ \}$/],
  [/^244 true$/, /^2 episodes, (-[a-z0-9=-]+ ?){2}$/],
  [/^\[$/, /benchmark:\/\/suite-v0\//, /benchmark:\/\/suite-v0\//, /benchmark:\/\/suite-v0\//, /benchmark:\/\/suite-v0\//, /^\]$/, /^48 steps$/],
  [/^3 \[ 5, 5, 5 \]$/],
];

function checkOutput(i, lines) {
  assert.equal(lines.length, EXPECTED[i].length, `example ${i + 1} printed:\n${lines.join('\n')}`);
  EXPECTED[i].forEach((pattern, j) => assert.match(lines[j], pattern, `example ${i + 1}, line ${j + 1}`));
}

test('docs/gym.md shows six compgym/gym examples', () => {
  assert.equal(blocks.length, EXPECTED.length);
});

test('the examples of docs/gym.md run verbatim in Node', () => {
  runExamples(pkgDir, blocks, checkOutput);
});

/** What each example logs, as values: one check per console.log call. */
const LOGGED = [
  [(args) => args[0] === 'benchmark://suite-v0/palindromes' && typeof args[1] === 'number' && /^(-[a-z0-9=-]+ ?)+$/.test(args[2])],
  [(args) => Array.isArray(args[0]) && args[0].length === 0, (args) => typeof args[0][0] === 'number' && args[0][1] === true],
  [
    (args) => Array.isArray(args[0]) && args[0].length === 0,
    (args) => /^benchmark:/.test(args[0]) && typeof args[1] === 'string' && ['r', 'l', 't'].every((k) => typeof args[2][k] === 'number'),
  ],
  [(args) => args[0] === 244 && args[1] === true, (args) => args[0] === 2 && args[1] === 'episodes,' && args[2].split(' ').length === 2],
  [(args) => args[0].length === 4 && args[0].every((b) => /^benchmark:\/\/suite-v0\//.test(b)), (args) => args[0] === 48 && args[1] === 'steps'],
  [(args) => args[0] === 3 && JSON.stringify(args[1]) === '[5,5,5]'],
];

test('the examples of docs/gym.md run verbatim in Chromium, AsyncVectorEnv on Web Workers', async () => {
  const server = await serve(pkgDir, 0);
  const browser = await launch();
  try {
    const origin = `http://127.0.0.1:${server.address().port}`;
    for (const [i, source] of blocks.entries()) {
      const page = await strictPage(browser);
      await page.addInitScript(() => {
        window.logged = [];
        const log = console.log.bind(console);
        console.log = (...args) => {
          window.logged.push(args);
          log(...args);
        };
      });
      await page.route(`${origin}/example.js`, (route) => route.fulfill({ contentType: 'text/javascript', body: source }));
      await page.route(`${origin}/example.html`, (route) =>
        route.fulfill({
          contentType: 'text/html',
          body: `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">
            <script type="importmap">{"imports": {"compgym": "/index.js", "compgym/gym": "/gym/index.js"}}</script>
            <script type="module">
              const { default: init } = await import('compgym');
              await init();
              await import('/example.js');
              window.done = true;
            </script>`,
        }),
      );
      await page.goto(`${origin}/example.html`);
      await page.waitForFunction(() => window.done === true, null, { timeout: 60_000 });
      assert.deepEqual(page.problems, []);
      const logged = await page.evaluate(() => window.logged);
      assert.equal(logged.length, LOGGED[i].length, `example ${i + 1} logged ${JSON.stringify(logged)}`);
      LOGGED[i].forEach((check, j) => assert.ok(check(logged[j]), `example ${i + 1}, log ${j + 1}: ${JSON.stringify(logged[j])}`));
      await page.close();
    }
  } finally {
    await browser.close();
    server.close();
  }
});
