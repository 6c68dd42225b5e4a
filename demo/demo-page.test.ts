import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser } from 'playwright-core';
import { buildDemoPage, DEMO_PUBLIC_DIR } from './bundle/build-demo-page.js';
import { CHROMIUM_INSTALL_COMMAND, CHROMIUM_PATH, chromiumIsInstalled, launchChromium } from './e2e/chromium.js';
import { openDemoPage, type DemoPageSession } from './e2e/demo-page-session.js';
import { startDemoServer, type DemoServer } from './server/static-server.js';
import { startFakeServer } from '../mocks/server/index.js';

// End to end in a real browser: the page, the bundle, the committed worker and the fake together.
// Where Chromium is missing the tests are reported as skipped, with the command that installs it.
const installed = chromiumIsInstalled();
const describeInChromium = installed ? describe : describe.skip;
const title = installed
  ? 'the demo page in headless Chromium'
  : `the demo page in headless Chromium (skipped: no ${CHROMIUM_PATH}; install it with \`${CHROMIUM_INSTALL_COMMAND}\`)`;
if (!installed) console.warn(`[demo e2e] skipped: ${CHROMIUM_PATH} not found; install it with: ${CHROMIUM_INSTALL_COMMAND}`);

const SLOW = 60_000; // two shared cores: generous, and never a timing assertion

describeInChromium(title, () => {
  let server: DemoServer | undefined;
  let browser: Browser | undefined;
  let session: DemoPageSession | undefined;

  beforeAll(async () => {
    server = await startDemoServer({ publicDir: DEMO_PUBLIC_DIR, builtAssets: await buildDemoPage(), port: 0 });
    browser = await launchChromium();
  }, 2 * SLOW);

  afterEach(async () => {
    await session?.context.close();
    session = undefined;
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const open = async (query = ''): Promise<DemoPageSession> => {
    session = await openDemoPage(browser!, `${server!.url}${query}`);
    return session;
  };

  /** Every API call of the session was answered by the service worker, and none reached the demo server. */
  const expectAnsweredInTheBrowser = (opened: DemoPageSession): void => {
    expect(opened.apiResponses.length).toBeGreaterThan(0);
    expect(opened.apiResponses.filter((seen) => !seen.fromServiceWorker).map((seen) => `${seen.method} ${seen.path}`)).toEqual([]);
    expect(server!.apiRequests).toEqual([]);
  };

  it('renders the seeded categories dog, cat and rabbit', async () => {
    const page = await open();
    expect(await page.categoryNames()).toEqual(['dog', 'cat', 'rabbit']);
    expectAnsweredInTheBrowser(page);
  }, SLOW);

  it('creates a category on Enter: it appears, and the quota left goes down by one', async () => {
    const page = await open();
    const quotaBefore = await page.quotaLeft();
    await page.submitName('hamster');
    expect(await page.categoryNames()).toEqual(['dog', 'cat', 'rabbit', 'hamster']);
    expect(await page.quotaLeft()).toBe(quotaBefore - 1);
    expect(await page.errorText()).toBe('');
    expectAnsweredInTheBrowser(page);
  }, SLOW);

  it.each(['', '   '])('shows the 400 Error message for the name %j, and adds nothing', async (name) => {
    const page = await open();
    await page.submitName(name);
    const refused = page.apiResponses.at(-1)!;
    expect({ method: refused.method, status: refused.status }).toEqual({ method: 'POST', status: 400 });
    const body = (await refused.response.json()) as { code: string; message: string };
    expect(body.code).toBe('invalid_request');
    expect(await page.errorText()).toBe(body.message);
    expect(body.message).toMatch(/name/);
    expect(await page.categoryNames()).toEqual(['dog', 'cat', 'rabbit']);
    expectAnsweredInTheBrowser(page);
  }, SLOW);

  it('keeps created categories across a reload, ids continuing; Reset goes back to the seed, also after a reload', async () => {
    const page = await open();
    await page.submitName('hamster');
    await page.reload();
    expect(await page.categoryNames()).toEqual(['dog', 'cat', 'rabbit', 'hamster']);
    await page.submitName('parrot');
    expect(await page.apiResponses.at(-1)!.response.json()).toEqual({ id: 5, name: 'parrot' });
    await page.resetFake();
    expect(await page.categoryNames()).toEqual(['dog', 'cat', 'rabbit']);
    await page.reload();
    expect(await page.categoryNames()).toEqual(['dog', 'cat', 'rabbit']);
    expectAnsweredInTheBrowser(page);
  }, SLOW);

  it('keeps nothing across a reload with ?persist=0', async () => {
    const page = await open('?persist=0');
    await page.submitName('hamster');
    await page.reload();
    expect(await page.categoryNames()).toEqual(['dog', 'cat', 'rabbit']);
    expectAnsweredInTheBrowser(page);
  }, SLOW);

  it('shows the 429 Error message once the key\'s quota is used up (?perMinute=2)', async () => {
    const page = await open('?key=tight-key&perMinute=2');
    expect(await page.quotaLeft()).toBe(1); // the first list used one of two
    await page.submitName('hamster');
    expect(await page.quotaLeft()).toBe(0);
    await page.submitName('parrot');
    const refused = page.apiResponses.at(-1)!;
    expect(refused.status).toBe(429);
    const body = (await refused.response.json()) as { code: string; message: string };
    expect(body.code).toBe('rate_limit_exceeded');
    expect(await page.errorText()).toBe(body.message);
    expect(await page.categoryNames()).toEqual(['dog', 'cat', 'rabbit', 'hamster']);
    expectAnsweredInTheBrowser(page);
  }, SLOW);

  it('switches to a real base URL with one setting (--api): the same page talks to the standalone fake over HTTP', async () => {
    const api = await startFakeServer({ port: 0 });
    const realApiDemo = await startDemoServer({ publicDir: DEMO_PUBLIC_DIR, builtAssets: await buildDemoPage({ api: api.baseUrl }), port: 0 });
    try {
      const page = (session = await openDemoPage(browser!, realApiDemo.url));
      expect(await page.categoryNames()).toEqual(['dog', 'cat', 'rabbit']);
      await page.submitName('hamster');
      expect(await page.categoryNames()).toEqual(['dog', 'cat', 'rabbit', 'hamster']);
      // Answered by the network this time (no worker), by the fake server and not by the demo server.
      expect(page.apiResponses.map((seen) => [seen.response.url().startsWith(api.baseUrl), seen.fromServiceWorker])).toEqual([
        [true, false],
        [true, false],
      ]);
      const stored = await fetch(`${api.baseUrl}/categories`, { headers: { authorization: 'Bearer free-test-key' } });
      expect(await stored.json()).toContainEqual({ id: 4, name: 'hamster' });
      expect(realApiDemo.apiRequests).toEqual([]);
    } finally {
      await session?.context.close();
      session = undefined;
      await realApiDemo.close();
      await api.close();
    }
  }, 2 * SLOW);
});
