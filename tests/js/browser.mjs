// Shared helpers for the JS test layers: Debian's Chromium driven by
// playwright-core, and a page that fails the test on any error it reports.
import { chromium } from 'playwright-core';
import { serve } from '../../scripts/serve.mjs';

const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

// Without the background-networking flags Chromium keeps dialling out, and
// on a closed network those refusals turn into noise and delays.
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launch() {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
}

/**
 * Opens a page that records every page error, console error and failed
 * request in `page.problems`, so a test can assert there were none.
 */
export async function strictPage(browser) {
  const page = await browser.newPage();
  page.problems = [];
  page.on('pageerror', (error) => page.problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') page.problems.push(`console error: ${message.text()}`);
  });
  page.on('requestfailed', (request) =>
    page.problems.push(`request failed: ${request.url()} (${request.failure()?.errorText})`),
  );
  page.on('response', (response) => {
    if (response.status() >= 400) page.problems.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  return page;
}

/**
 * Serves the folder `dir` on a free port, opens a blank page titled `title`
 * on that origin (so the page imports the folder's modules by absolute
 * path) and hands `body` the page and the origin. Fails if the page
 * reported any problem; closes the browser and the server either way.
 */
export async function withBlankPage(dir, title, body) {
  const server = await serve(dir, 0);
  const browser = await launch();
  try {
    const page = await strictPage(browser);
    const origin = `http://127.0.0.1:${server.address().port}`;
    await page.route(`${origin}/test.html`, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>${title}</title>`,
      }),
    );
    await page.goto(`${origin}/test.html`);
    await body(page, origin);
    if (page.problems.length) throw new Error(`page problems: ${page.problems.join('; ')}`);
  } finally {
    await browser.close();
    server.close();
  }
}
