// Headless Chromium for browser tests: Debian's package (/usr/bin/chromium), driven by
// playwright-core, so no browser is ever downloaded. `.ci/run` installs the package when missing.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

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
