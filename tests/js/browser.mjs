// Shared helpers for the JS test layers: Debian's Chromium driven by
// playwright-core, and a page that fails the test on any error it reports.
import { chromium } from 'playwright-core';

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
