// Shared set-up for the playground's end-to-end tests: the built page
// (www/dist/) served on a free port, Chromium, and pages that record every
// error they report.
import { serve } from '../../scripts/serve.mjs';
import { launch, strictPage } from './browser.mjs';

export const root = new URL('../../www/dist/', import.meta.url).pathname;

/** Starts the server and the browser: `{url, browser, close}`. */
export async function start() {
  const server = await serve(root, 0);
  const browser = await launch();
  const url = `http://127.0.0.1:${server.address().port}/`;
  return {
    url,
    browser,
    async close() {
      await browser.close();
      server.close();
    },
  };
}

/**
 * A fresh page (own context: no shared storage) at `width`x`height`, opened
 * at `url + fragment`, waited until every view is mounted.
 */
export async function open(env, { fragment = '', width = 1440, height = 900, complete = true } = {}) {
  const context = await env.browser.newContext({ viewport: { width, height } });
  const page = await strictPage(context);
  await page.goto(env.url + fragment);
  await page.waitForSelector('html[data-ready]', { timeout: 30_000 });
  if (complete) await page.waitForSelector('html[data-complete]', { timeout: 30_000 });
  page.closeAll = () => context.close();
  return page;
}

/** The history panel's numbers: steps and episode reward of the current state. */
export async function historyState(page) {
  return page.$eval('#history', (e) => ({ steps: Number(e.dataset.steps), total: Number(e.dataset.total) }));
}

/** Presses pass `flag` and waits for the page to show the step. */
export async function press(page, flag) {
  const before = await page.$eval('#history', (e) => e.innerHTML);
  await page.click(`#passes button[data-flag="${flag}"]`);
  await page.waitForFunction((html) => document.querySelector('#history').innerHTML !== html, before);
}

/** The flags of the current path, from the history tree's main line up to the current state. */
export async function pathFlags(page) {
  return page.evaluate(() => window.compgymPlayground.episode.actions());
}

/** Loads suite program `name` as a new episode (a new history tree). */
export async function loadSuite(page, name) {
  await page.evaluate((n) => window.compgymPlayground.loadProgram({ kind: 'suite', name: n }), name);
}

/** About 100 M instructions executed: 5 per iteration, 20 M iterations; `d` is dead code for -dce. */
export const HUNDRED_MILLION = [
  '# ARGS: 20000000',
  '@main(n: int) {',
  '  one: int = const 1;',
  '  i: int = const 0;',
  '  s: int = const 0;',
  '  d: int = const 7;',
  '.loop:',
  '  c: bool = lt i n;',
  '  br c .body .done;',
  '.body:',
  '  s: int = add s i;',
  '  i: int = add i one;',
  '  jmp .loop;',
  '.done:',
  '  print s;',
  '}',
].join('\n');

/** A program that runs until its fuel (10^9 instructions) runs out. */
export const NEVER_ENDS = '@main {\n  one: int = const 1;\n  i: int = const 0;\n.loop:\n  i: int = add i one;\n  jmp .loop;\n}';

/** Counts the main thread's long tasks (over 50 ms) from now on: `page.longTasks()` reads them. */
export async function watchLongTasks(page) {
  await page.evaluate(() => {
    window.longTasks = [];
    new PerformanceObserver((list) => window.longTasks.push(...list.getEntries().map((e) => ({ name: e.name, duration: e.duration, at: Math.round(e.startTime) })))).observe({ type: 'longtask' });
  });
  page.longTasks = () => page.evaluate(() => window.longTasks);
}
