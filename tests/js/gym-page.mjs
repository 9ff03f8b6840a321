// Runs compgym/gym scenarios in Node and in headless Chromium: a scenario is
// a function of the `gym` module namespace (and compgym's) that uses
// nothing else, so its source text runs unchanged in a page served from pkg/.
import { withBlankPage } from './browser.mjs';

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
  await withBlankPage(pkgDir.pathname, 'gym', async (page, origin) => {
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
  });
}
