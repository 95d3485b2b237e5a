// Headless Chromium for browser tests: Debian's package (/usr/bin/chromium), driven by
// playwright-core, so no browser is ever downloaded. `.ci/run` installs the package when missing.
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Launches Chromium; fails (never skips) when the browser is not installed. */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `no Chromium at ${CHROMIUM_PATH}: install Debian's "chromium" package (.ci/run does) or set CHROMIUM_PATH`,
    );
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: FLAGS, timeout: 30_000 });
}

/**
 * Waits until a page-side expression is truthy. Evaluated through the DevTools protocol, which the
 * page's Content-Security-Policy does not govern: `page.waitForFunction` with an expression polls
 * it with an in-page `eval`, which the service's CSP (no 'unsafe-eval') refuses whenever the first
 * check is false (an EvalError that depended on timing).
 */
export async function waitForExpression(page: Page, expression: string, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await page.evaluate(expression))) {
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${expression}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
