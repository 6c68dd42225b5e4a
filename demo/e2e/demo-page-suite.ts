import { afterAll, afterEach, beforeAll, describe } from '@jest/globals';
import type { Browser, BrowserContextOptions } from 'playwright-core';
import { buildDemoPage, DEMO_PUBLIC_DIR } from '../bundle/build-demo-page.js';
import { startDemoServer, type DemoServer } from '../server/static-server.js';
import { CHROMIUM_INSTALL_COMMAND, CHROMIUM_PATH, chromiumIsInstalled, launchChromium } from './chromium.js';
import { openDemoPage, type DemoPageSession } from './demo-page-session.js';

/** Generous on two shared cores, and never a timing assertion. */
export const SLOW = 60_000;

/** What a suite of demo page tests is given: the page opener, the demo server of the suite. */
export interface DemoPageSuite {
  /**
   * Opens the page (the suite's demo server with `query`, or another `url`); the session is closed after
   * the test, or by the test itself.
   */
  open(query?: string, options?: { url?: string; context?: BrowserContextOptions }): Promise<DemoPageSession>;
  /** Closes the open session now (a HAR is written on close). */
  closeSession(): Promise<void>;
  server(): DemoServer;
}

/**
 * A describe block of demo page tests in headless Chromium: one demo server and one browser for the
 * block, a fresh context per page. Where Chromium is missing it is skipped, its title saying how to
 * install it.
 */
export function describeDemoPage(title: string, defaultQuery: string, body: (suite: DemoPageSuite) => void): void {
  const installed = chromiumIsInstalled();
  if (!installed)
    console.warn(`[demo e2e] skipped: ${CHROMIUM_PATH} not found; install it with: ${CHROMIUM_INSTALL_COMMAND}`);
  const named = installed
    ? title
    : `${title} (skipped: no ${CHROMIUM_PATH}; install it with \`${CHROMIUM_INSTALL_COMMAND}\`)`;
  (installed ? describe : describe.skip)(named, () => {
    let server: DemoServer | undefined;
    let browser: Browser | undefined;
    let session: DemoPageSession | undefined;
    const closeSession = async () => {
      await session?.context.close();
      session = undefined;
    };

    beforeAll(async () => {
      server = await startDemoServer({ publicDir: DEMO_PUBLIC_DIR, builtAssets: await buildDemoPage(), port: 0 });
      browser = await launchChromium();
    }, 2 * SLOW);
    afterEach(closeSession);
    afterAll(async () => {
      await browser?.close();
      await server?.close();
    });

    body({
      open: async (query = defaultQuery, { url, context } = {}) => {
        await closeSession();
        session = await openDemoPage(browser!, url ?? `${server!.url}${query}`, context);
        return session;
      },
      closeSession,
      server: () => server!,
    });
  });
}
