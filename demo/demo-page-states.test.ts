import { describe, expect, it } from '@jest/globals';
import type { DemoPageSession } from './e2e/demo-page-session.js';
import { describeDemoPage, SLOW } from './e2e/demo-page-suite.js';

// Issue 47, item 3: the page shows each state truthfully. A list that could not be reloaded is marked out
// of date with the error beside it; the counter follows every answer, in the order the calls were sent, and
// says when the last call told it nothing; a 400 shows the Error body's message once.
const KEY = 'free-test-key';

/** The page's fake, as `main.ts` puts it on `globalThis` for devtools. */
type PageFake = {
  faults: { add(rule: unknown): Promise<unknown> };
  keys: { state(key: string): Promise<{ minute: { remaining: number } }>; revoke(key: string): Promise<unknown> };
};

describeDemoPage('the demo page renders every answer truthfully (headless Chromium)', '?persist=0', ({ open }) => {
  /** What the page says about its list, read without waiting for elements (an older page lacks some). */
  const listState = (page: DemoPageSession) =>
    page.page.evaluate(() => ({
      stale: document.getElementById('categories')?.dataset.stale === 'true',
      status: document.getElementById('list-status')?.textContent ?? '',
    }));
  const quotaState = (page: DemoPageSession) =>
    page.page.evaluate(() => ({
      stale: document.getElementById('quota')?.dataset.stale === 'true',
      note: document.getElementById('quota-note')?.textContent ?? '',
    }));
  const answers = async (page: DemoPageSession) => Number(await page.page.locator('#app').getAttribute('data-answers'));
  const waitForAnswers = (page: DemoPageSession, count: number) =>
    page.page.locator(`#app[data-answers="${count}"]`).waitFor();

  describe('a list that could not be reloaded is marked out of date, with the error', () => {
    it(
      "under a 503: the old list stays, marked out of date, beside the 503's message; switched off, it is current again",
      async () => {
        const page = await open();
        await page.switchFault('unavailable');
        const refused = page.apiResponses.at(-1)!;
        expect(refused.status).toBe(503);
        const { message } = (await refused.response.json()) as { message: string };
        expect(await page.errorText()).toBe(message);
        expect(await page.categoryNames()).toEqual(['dog', 'cat', 'rabbit']);
        expect(await listState(page)).toEqual({ stale: true, status: expect.stringMatching(/^Out of date/) });
        await page.switchFault('unavailable');
        expect(await listState(page)).toEqual({ stale: false, status: '' });
        expect(await page.errorText()).toBe('');
      },
      SLOW,
    );

    it(
      'offline: the old list stays, marked out of date, under the offline banner',
      async () => {
        const page = await open();
        await page.switchFault('offline');
        expect(await page.bannerText()).toMatch(/^Offline/);
        expect(await listState(page)).toEqual({ stale: true, status: expect.stringMatching(/^Out of date/) });
        await page.switchFault('offline');
        expect(await listState(page)).toEqual({ stale: false, status: '' });
        expect(await page.bannerText()).toBe('');
      },
      SLOW,
    );

    it(
      'a 401 (the key revoked): the old list is marked out of date beside the 401 message',
      async () => {
        const page = await open();
        await page.page.evaluate(
          (key) => (globalThis as unknown as { petstoreFake: PageFake }).petstoreFake.keys.revoke(key),
          KEY,
        );
        await page.switchFault('slow'); // any switch reloads the list
        const refused = page.apiResponses.at(-1)!;
        expect(refused.status).toBe(401);
        expect(await page.errorText()).toBe(((await refused.response.json()) as { message: string }).message);
        expect((await listState(page)).stale).toBe(true);
      },
      SLOW,
    );

    it(
      'a 200 whose body is not JSON is an error too, not an empty or broken list',
      async () => {
        const page = await open();
        await page.page.evaluate(() =>
          (globalThis as unknown as { petstoreFake: PageFake }).petstoreFake.faults.add({
            match: { method: 'GET', path: '/categories' },
            effect: { body: 'malformed' },
            times: 1,
          }),
        );
        await page.switchFault('slow');
        expect(page.apiResponses.at(-1)!.status).toBe(200);
        expect(await page.errorText()).toMatch(/not JSON/);
        expect(await page.categoryNames()).toEqual(['dog', 'cat', 'rabbit']);
        expect((await listState(page)).stale).toBe(true);
      },
      SLOW,
    );
  });

  describe('the quota counter follows every answer', () => {
    it(
      'a list answer that comes late does not put back "2": the counter and the list show the call sent last',
      async () => {
        const page = await open();
        const fake = (rule: unknown) =>
          page.page.evaluate(
            (r) => (globalThis as unknown as { petstoreFake: PageFake }).petstoreFake.faults.add(r),
            rule as never,
          );
        // Only the next list is slow: the reload "2 requests left" starts comes back after the create sent next.
        await fake({ match: { method: 'GET', path: '/categories' }, effect: { delayMs: 6_000 }, times: 1 });
        const before = await answers(page);
        await page.page.locator('input[name="fault"][value="twoLeft"]').click();
        await page.page.waitForFunction(
          async (key) =>
            (await (globalThis as unknown as { petstoreFake: PageFake }).petstoreFake.keys.state(key)).minute
              .remaining === 2,
          KEY,
        );
        await page.submitName('hamster'); // answered at once: 1 left
        expect(await page.quotaLeft()).toBe(1);
        expect(await page.page.locator('#loading').isVisible()).toBe(true); // the list is still on its way
        await waitForAnswers(page, before + 2);
        const late = page.apiResponses.at(-1)!; // the list, answered after the create
        expect([late.method, await late.response.headerValue('x-ratelimit-remaining')]).toEqual(['GET', '2']);
        expect(await page.quotaLeft()).toBe(1);
        expect(await page.categoryNames()).toEqual(['dog', 'cat', 'rabbit', 'hamster']);
        expect(await page.page.locator('#loading').isVisible()).toBe(false);
      },
      SLOW,
    );

    it(
      'after "2 requests left", a reload that gets no answer marks the counter as the last known value',
      async () => {
        const page = await open();
        await page.switchFault('twoLeft');
        expect(await page.quotaLeft()).toBe(2);
        expect(await quotaState(page)).toEqual({ stale: false, note: '' });
        await page.switchFault('offline');
        expect(await quotaState(page)).toEqual({ stale: true, note: expect.stringMatching(/last known/) });
        await page.switchFault('offline');
        expect(await page.quotaLeft()).toBe(0); // the call that got no answer was counted by the fake
        expect(await quotaState(page)).toEqual({ stale: false, note: '' });
      },
      SLOW,
    );

    it(
      'an answer without X-RateLimit-Remaining (a gateway in front of the service) marks the counter as unknown',
      async () => {
        const page = await open();
        await page.page.evaluate(() =>
          (globalThis as unknown as { petstoreFake: PageFake }).petstoreFake.faults.add({
            effect: { status: 502 },
            beforeAuth: true,
            times: 1,
          }),
        );
        await page.switchFault('slow');
        const refused = page.apiResponses.at(-1)!;
        expect(refused.status).toBe(502);
        expect(await refused.response.headerValue('x-ratelimit-remaining')).toBeNull();
        expect(await quotaState(page)).toEqual({ stale: true, note: expect.stringMatching(/last known/) });
      },
      SLOW,
    );

    it(
      'a 429: the counter reads 0 with the Retry-After the answer carried',
      async () => {
        const page = await open('?persist=0&key=tight-key&perMinute=1');
        expect(await page.quotaLeft()).toBe(0);
        await page.submitName('hamster');
        const refused = page.apiResponses.at(-1)!;
        expect(refused.status).toBe(429);
        expect(await page.quotaLeft()).toBe(0);
        expect(await quotaState(page)).toEqual({
          stale: false,
          note: `Retry-After: ${await refused.response.headerValue('retry-after')} s`,
        });
      },
      SLOW,
    );
    it(
      'banned: the wait is said once, in the banner, not again beside the counter',
      async () => {
        const page = await open();
        await page.switchFault('banned');
        expect(await page.bannerText()).toMatch(/retry in \d+ s/);
        expect(await page.quotaLeft()).toBe(0);
        expect(await quotaState(page)).toEqual({ stale: false, note: '' });
        expect(await page.errorText()).toBe('');
      },
      SLOW,
    );
  });

  describe('a 400 shows its message once', () => {
    it(
      'the Error body of an empty name: its message, once, and nothing else',
      async () => {
        const page = await open();
        await page.submitName('');
        const refused = page.apiResponses.at(-1)!;
        expect(refused.status).toBe(400);
        const { message } = (await refused.response.json()) as { message: string };
        expect(await page.errorText()).toBe(message);
        expect(await page.bannerText()).toBe('');
        expect(await listState(page)).toEqual({ stale: false, status: '' });
      },
      SLOW,
    );

    // "" breaks both minLength and `\S`: the fake says one reason per field (spec/schema-errors.ts).
    it(
      "the fake's message for an empty name names the problem once",
      async () => {
        const page = await open();
        await page.submitName('');
        expect((await page.errorText()).match(/\bname\b/g)).toHaveLength(1);
      },
      SLOW,
    );
  });

  it(
    'an empty list says so, rather than showing nothing',
    async () => {
      const page = await open();
      await page.page.evaluate(() =>
        (
          globalThis as unknown as { petstoreFake: { overrides: { use(o: unknown): unknown } } }
        ).petstoreFake.overrides.use({
          operation: { method: 'GET', path: '/categories' },
          resolve: ({ headers }: { headers: Record<string, string> }) => ({ status: 200, headers, body: [] }),
        }),
      );
      await page.switchFault('slow');
      expect(await page.categoryNames()).toEqual([]);
      expect(await listState(page)).toEqual({ stale: false, status: 'No categories yet.' });
    },
    SLOW,
  );
});
