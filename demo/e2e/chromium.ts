import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium; CI installs it (`.ci/run`). We never download a browser. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/** How to get the browser when it is missing; shown in the skipped tests' titles. */
export const CHROMIUM_INSTALL_COMMAND = 'apt-get install -y chromium';

/** False where the e2e tests must be skipped. */
export function chromiumIsInstalled(): boolean {
  return existsSync(CHROMIUM_PATH);
}

/**
 * Launches the system Chromium headless, with everything that would phone home switched off:
 * the tests talk to 127.0.0.1 only.
 * @example const browser = await launchChromium(); try { ... } finally { await browser.close(); }
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
