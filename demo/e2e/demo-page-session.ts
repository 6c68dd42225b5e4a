import type { Browser, BrowserContext, BrowserContextOptions, Page, Response } from 'playwright-core';
import { isApiPath } from '../server/static-server.js';

/** A fixed instant in the middle of a UTC minute, so no quota window rolls over during a test. */
export const FIXED_NOW = new Date('2026-03-04T12:00:30Z');

/** One API response the page received, and whether the service worker (not the network) produced it. */
export interface ApiResponseSeen {
  method: string;
  path: string;
  status: number;
  fromServiceWorker: boolean;
  response: Response;
}

/** The demo page open in a fresh browser context (own storage, own service worker registration). */
export interface DemoPageSession {
  context: BrowserContext;
  page: Page;
  apiResponses: ApiResponseSeen[];
  /** Reloads the page and waits until it is ready again (new answers are counted from zero). */
  reload(): Promise<void>;
  /** Clicks "Reset the fake" and waits for the list it reloads. */
  resetFake(): Promise<void>;
  /** Types a name into the input and presses Enter. */
  submitName(name: string): Promise<void>;
  categoryNames(): Promise<string[]>;
  quotaLeft(): Promise<number>;
  errorText(): Promise<string>;
  bannerText(): Promise<string>;
  /**
   * Flips a switch of the fault panel (`slow`, `unavailable`, `offline`, `twoLeft`, `banned`). The page
   * reloads its list; `whileLoading` runs while that list is still on its way, then this waits for it.
   */
  switchFault(fault: string, whileLoading?: () => Promise<void>): Promise<void>;
}

/**
 * Opens the demo page at `url` (e.g. with `?key=...`), with the page's clock frozen at {@link FIXED_NOW},
 * and waits until the worker runs and the first list has rendered. Close `session.context` afterwards
 * (with `contextOptions.recordHar`, closing it writes the HAR).
 */
export async function openDemoPage(
  browser: Browser,
  url: string,
  contextOptions: BrowserContextOptions = {},
): Promise<DemoPageSession> {
  const context = await browser.newContext(contextOptions);
  const page = await context.newPage();
  // The fake runs in the page, so freezing the page's Date freezes the fake's clock: no flaky minute rollover.
  await page.clock.setFixedTime(FIXED_NOW);
  const apiResponses: ApiResponseSeen[] = [];
  page.on('response', (response) => {
    const { pathname } = new URL(response.url());
    if (!isApiPath(pathname)) return;
    apiResponses.push({
      method: response.request().method(),
      path: pathname,
      status: response.status(),
      fromServiceWorker: response.fromServiceWorker(),
      response,
    });
  });
  const ready = () => page.locator('#app[data-state="ready"]').waitFor();
  await page.goto(url);
  await ready();

  // The page counts the answers it has rendered; waiting on that avoids racing the DOM update.
  const afterNextAnswer = async (action: () => Promise<void>): Promise<void> => {
    const answered = Number(await page.locator('#app').getAttribute('data-answers'));
    await action();
    await page.locator(`#app[data-answers="${answered + 1}"]`).waitFor();
  };
  const input = page.locator('#new-category');
  return {
    context,
    page,
    apiResponses,
    async reload() {
      await page.reload();
      await ready();
    },
    resetFake: () => afterNextAnswer(() => page.locator('#reset').click()),
    submitName: (name) =>
      afterNextAnswer(async () => {
        await input.fill(name);
        await input.press('Enter');
      }),
    categoryNames: () => page.locator('#categories li').allTextContents(),
    quotaLeft: async () => Number(await page.locator('#quota').textContent()),
    errorText: async () => (await page.locator('#error').textContent()) ?? '',
    bannerText: async () => (await page.locator('#banner').textContent()) ?? '',
    switchFault: (fault, whileLoading) =>
      afterNextAnswer(async () => {
        await page.locator(`input[name="fault"][value="${fault}"]`).click();
        if (whileLoading) {
          await page.locator('#loading').waitFor({ state: 'visible' });
          await whileLoading();
        }
      }),
  };
}
