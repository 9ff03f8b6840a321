// Runs compgym/gym scenarios in Node and in headless Chromium: a scenario is
// a function of the `gym` module namespace (and compgym's) that uses
// nothing else, so its source text runs unchanged in a page served from pkg/.
import { serve } from '../../scripts/serve.mjs';
import { launch, strictPage } from './browser.mjs';

export const pkgDir = new URL('../../pkg/', import.meta.url);

/** The built package's gym module and compgym itself, in Node. */
export async function nodeModules() {
  const compgym = await import(new URL('node.js', pkgDir));
  const gym = await import(new URL('gym/node.js', pkgDir));
  return { gym, compgym };
}

/**
 * Opens a page on pkg/ with compgym initialised and hands `body` a
 * function that runs a scenario in the page: `run(scenario, ...args)`.
 * Fails on any page error.
 */
export async function withGymPage(body) {
  const server = await serve(pkgDir.pathname, 0);
  const browser = await launch();
  try {
    const page = await strictPage(browser);
    const origin = `http://127.0.0.1:${server.address().port}`;
    await page.route(`${origin}/test.html`, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>gym</title>',
      }),
    );
    await page.goto(`${origin}/test.html`);
    const run = (scenario, ...args) =>
      page.evaluate(
        async ([source, args]) => {
          const compgym = await import('/index.js');
          await compgym.default();
          const gym = await import('/gym/index.js');
          // eslint-disable-next-line no-eval
          return (0, eval)(`(${source})`)({ gym, compgym }, ...args);
        },
        [scenario.toString(), args],
      );
    await body(run, page, origin);
    if (page.problems.length) throw new Error(`page problems: ${page.problems.join('; ')}`);
  } finally {
    await browser.close();
    server.close();
  }
}
