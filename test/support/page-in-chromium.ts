import type { Browser } from 'playwright-core';
import { buildDemoPage, DEMO_PUBLIC_DIR } from '../../demo/bundle/build-demo-page.js';
import { launchChromium } from '../../demo/e2e/chromium.js';
import { startDemoServer } from '../../demo/server/static-server.js';

/** A test page bundled and served on loopback beside msw's worker, and Chromium to open it. */
export interface PageInChromium {
  browser: Browser;
  /** Where the page is served. */
  url: string;
  close(): Promise<void>;
}

/**
 * Bundles `entry` (a page script that starts the fake in its service worker), serves it on a free
 * loopback port and launches Debian's Chromium; `close()` stops both.
 */
export async function startPageInChromium(entry: string): Promise<PageInChromium> {
  const pageServer = await startDemoServer({
    publicDir: DEMO_PUBLIC_DIR,
    builtAssets: await buildDemoPage({ entry }),
    port: 0,
  });
  try {
    const browser = await launchChromium();
    return {
      browser,
      url: pageServer.url,
      close: async () => {
        await browser.close();
        await pageServer.close();
      },
    };
  } catch (error) {
    await pageServer.close();
    throw error;
  }
}
