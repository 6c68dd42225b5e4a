import { describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildDemoPage, DEMO_PUBLIC_DIR } from './bundle/build-demo-page.js';
import type { DemoPageSession } from './e2e/demo-page-session.js';
import { describeDemoPage, SLOW } from './e2e/demo-page-suite.js';
import { startDemoServer } from './server/static-server.js';
import { startFakeServer } from '../mocks/server/index.js';
import { readHar } from '../contracts/watch/har.js';
import { replayAgainst } from '../contracts/watch/replay.js';
import { startWatchProxy } from '../contracts/watch/watch-proxy.js';
import { startFakeTarget } from '../contracts/targets/fake-target.js';
import { readFileSync } from 'node:fs';

// End to end in a real browser: the page, the bundle, the committed worker and the fake together.
// Where Chromium is missing the tests are reported as skipped, with the command that installs it.

// docs/guides/ui-states.md shows these; `npm run demo:screenshots` rewrites the committed ones, other runs write to a temp dir.
const SCREENSHOTS_DIR =
  process.env.UPDATE_SCREENSHOTS === '1'
    ? fileURLToPath(new URL('./e2e/screenshots', import.meta.url))
    : mkdtempSync(join(tmpdir(), 'demo-screenshots-'));
mkdirSync(SCREENSHOTS_DIR, { recursive: true });

describeDemoPage('the demo page in headless Chromium', '', ({ open, closeSession, server }) => {
  /** Every API call of the session was answered by the service worker, and none reached the demo server. */
  const expectAnsweredInTheBrowser = (opened: DemoPageSession): void => {
    expect(opened.apiResponses.length).toBeGreaterThan(0);
    expect(
      opened.apiResponses.filter((seen) => !seen.fromServiceWorker).map((seen) => `${seen.method} ${seen.path}`),
    ).toEqual([]);
    expect(server().apiRequests).toEqual([]);
  };

  it(
    'renders the seeded categories dog, cat and rabbit',
    async () => {
      const page = await open();
      expect(await page.categoryNames()).toEqual(['dog', 'cat', 'rabbit']);
      expectAnsweredInTheBrowser(page);
    },
    SLOW,
  );

  it(
    'creates a category on Enter: it appears, and the quota left goes down by one',
    async () => {
      const page = await open();
      const quotaBefore = await page.quotaLeft();
      await page.submitName('hamster');
      expect(await page.categoryNames()).toEqual(['dog', 'cat', 'rabbit', 'hamster']);
      expect(await page.quotaLeft()).toBe(quotaBefore - 1);
      expect(await page.errorText()).toBe('');
      expectAnsweredInTheBrowser(page);
    },
    SLOW,
  );

  it.each(['', '   '])(
    'shows the 400 Error message for the name %j, and adds nothing',
    async (name) => {
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
    },
    SLOW,
  );

  it(
    'keeps created categories across a reload, ids continuing; Reset goes back to the seed, also after a reload',
    async () => {
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
    },
    SLOW,
  );

  it(
    'keeps nothing across a reload with ?persist=0',
    async () => {
      const page = await open('?persist=0');
      await page.submitName('hamster');
      await page.reload();
      expect(await page.categoryNames()).toEqual(['dog', 'cat', 'rabbit']);
      expectAnsweredInTheBrowser(page);
    },
    SLOW,
  );

  it(
    "shows the 429 Error message once the key's quota is used up (?perMinute=2)",
    async () => {
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
    },
    SLOW,
  );

  describe('the fault panel: every state the page must render, without writing code', () => {
    /** Saves what the page shows now, for the docs, and checks a picture was really taken. */
    const screenshot = async (page: DemoPageSession, name: string): Promise<void> => {
      const path = join(SCREENSHOTS_DIR, `${name}.png`);
      await page.page.locator('#app').screenshot({ path });
      expect(statSync(path).size).toBeGreaterThan(1_000);
    };

    it(
      'shows the loading state while a slow network delays the list, then the list',
      async () => {
        const page = await open('?persist=0');
        await page.switchFault('slow', async () => {
          expect(await page.page.locator('#loading').isVisible()).toBe(true);
          await screenshot(page, 'slow-network-loading');
        });
        expect(await page.page.locator('#loading').isVisible()).toBe(false);
        expect(await page.categoryNames()).toEqual(['dog', 'cat', 'rabbit']);
        expectAnsweredInTheBrowser(page);
      },
      SLOW,
    );

    it(
      "shows the 503's Error message, and recovers when switched off",
      async () => {
        const page = await open('?persist=0');
        await page.switchFault('unavailable');
        const refused = page.apiResponses.at(-1)!;
        expect(refused.status).toBe(503);
        const body = (await refused.response.json()) as { code: string; message: string };
        expect(body.code).toBe('service_unavailable');
        expect(await page.errorText()).toBe(body.message);
        await screenshot(page, 'service-unavailable');
        await page.switchFault('unavailable');
        expect(await page.errorText()).toBe('');
        expectAnsweredInTheBrowser(page);
      },
      SLOW,
    );

    it(
      'shows the offline banner when the connection drops, with no HTTP answer at all',
      async () => {
        const page = await open('?persist=0');
        const answersBefore = page.apiResponses.length;
        await page.switchFault('offline');
        expect(page.apiResponses.length).toBe(answersBefore); // no response reached the page
        expect(await page.bannerText()).toMatch(/^Offline/);
        await screenshot(page, 'offline');
        await page.switchFault('offline');
        expect(await page.bannerText()).toBe('');
      },
      SLOW,
    );

    it(
      'shows "2" requests left, then the 429 after two more calls',
      async () => {
        const page = await open('?persist=0');
        await page.switchFault('twoLeft');
        expect(await page.quotaLeft()).toBe(2);
        await screenshot(page, 'two-requests-left');
        await page.submitName('hamster');
        await page.submitName('parrot');
        expect(await page.quotaLeft()).toBe(0);
        await page.submitName('gecko');
        expect(page.apiResponses.at(-1)!.status).toBe(429);
        expect(await page.errorText()).toMatch(/limit of 60 requests is used up/);
      },
      SLOW,
    );

    it(
      'shows the banned banner with the wait the fake announced',
      async () => {
        const page = await open('?persist=0');
        await page.switchFault('banned');
        const banned = page.apiResponses.at(-1)!;
        expect(banned.status).toBe(429);
        expect((await banned.response.json()) as { code: string }).toMatchObject({ code: 'temporarily_banned' });
        expect(await page.bannerText()).toBe(
          `This API key is banned for calling on after its quota ran out; retry in ${await banned.response.headerValue('retry-after')} s.`,
        );
        await screenshot(page, 'key-banned');
        await page.switchFault('banned');
        expect(await page.bannerText()).toBe('');
        expect(await page.categoryNames()).toEqual(['dog', 'cat', 'rabbit']);
      },
      SLOW,
    );
  });

  it(
    'switches to a real base URL with one setting (--api): the same page talks to the standalone fake over HTTP',
    async () => {
      const api = await startFakeServer({ port: 0 });
      const realApiDemo = await startDemoServer({
        publicDir: DEMO_PUBLIC_DIR,
        builtAssets: await buildDemoPage({ api: api.baseUrl }),
        port: 0,
      });
      try {
        const page = await open('', { url: realApiDemo.url });
        expect(await page.categoryNames()).toEqual(['dog', 'cat', 'rabbit']);
        await page.submitName('hamster');
        expect(await page.categoryNames()).toEqual(['dog', 'cat', 'rabbit', 'hamster']);
        // Answered by the network this time (no worker), by the fake server and not by the demo server.
        expect(
          page.apiResponses.map((seen) => [seen.response.url().startsWith(api.baseUrl), seen.fromServiceWorker]),
        ).toEqual([
          [true, false],
          [true, false],
        ]);
        const stored = await fetch(`${api.baseUrl}/categories`, { headers: { authorization: 'Bearer free-test-key' } });
        expect(await stored.json()).toContainEqual({ id: 4, name: 'hamster' });
        expect(realApiDemo.apiRequests).toEqual([]);
      } finally {
        await closeSession();
        await realApiDemo.close();
        await api.close();
      }
    },
    2 * SLOW,
  );
  it(
    "through watch in front of the standalone fake: the report counts the page's calls; the HAR Chromium recorded replays against the fake alike",
    async () => {
      const api = await startFakeServer({ port: 0 });
      const proxy = await startWatchProxy({ upstream: api.baseUrl });
      const watchedDemo = await startDemoServer({
        publicDir: DEMO_PUBLIC_DIR,
        builtAssets: await buildDemoPage({ api: proxy.baseUrl }),
        port: 0,
      });
      const harPath = join(mkdtempSync(join(tmpdir(), 'demo-har-')), 'demo.har');
      try {
        const page = await open('', { url: watchedDemo.url, context: { recordHar: { path: harPath } } });
        await page.submitName('hamster');
        expect(await page.categoryNames()).toEqual(['dog', 'cat', 'rabbit', 'hamster']);
        await closeSession(); // writes the HAR
        await proxy.close();
        const { byOperationStatus, violations } = proxy.summary();
        // The page's two calls, and the browser's CORS preflight for its JSON POST, all forwarded and judged.
        expect(byOperationStatus).toEqual({
          'listCategories 200': 1,
          'createCategory 201': 1,
          '(no operation) OPTIONS 204': 1,
        });
        expect(violations).toEqual([]);
        const recorded = readHar(readFileSync(harPath, 'utf8'), harPath);
        expect(recorded.filter(({ url }) => url.startsWith(proxy.baseUrl)).map(({ method }) => method)).toEqual(
          expect.arrayContaining(['GET', 'POST']),
        );
        const fake = await startFakeTarget();
        try {
          const replayed = await replayAgainst(recorded, fake, { writes: true });
          expect(replayed.differences).toEqual([]);
          expect(replayed.traffic.summary.violations).toEqual([]);
          expect(replayed.sent).toBe(2);
          expect(replayed.skipped.map(({ why }) => why)).toEqual(expect.arrayContaining(['not under /v1']));
        } finally {
          await fake.close();
        }
      } finally {
        await closeSession();
        await watchedDemo.close();
        await proxy.close();
        await api.close();
      }
    },
    2 * SLOW,
  );
});
