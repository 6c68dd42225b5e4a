import { afterAll, beforeAll, describe } from '@jest/globals';
import { fileURLToPath } from 'node:url';
import { CHROMIUM_INSTALL_COMMAND, CHROMIUM_PATH, chromiumIsInstalled } from '../../demo/e2e/chromium.js';
import type { Fake } from '../../mocks/fake.js';
import { startPageInChromium, type PageInChromium } from '../support/page-in-chromium.js';
import type { FaultHost, HostStart, Sent } from './fault-host.js';
import { describeFaultControls } from './fault-scenarios.js';

// The browser host: the fake in a page's service worker in headless Chromium; the controls are
// `fake.faults` and `fake.keys` of the page, driven through page.evaluate.
const installed = chromiumIsInstalled();
if (!installed)
  console.warn(
    `[faults in the browser] skipped: ${CHROMIUM_PATH} not found; install it with: ${CHROMIUM_INSTALL_COMMAND}`,
  );

let hosted: PageInChromium | undefined;
beforeAll(async () => {
  if (installed) hosted = await startPageInChromium(fileURLToPath(new URL('./browser-page.ts', import.meta.url)));
}, 120_000);
afterAll(() => hosted?.close());

type Control = 'state' | 'setQuota' | 'ban' | 'unban' | 'revoke' | 'restore';
type PageWindow = { petstoreFake: Fake };

async function startBrowserHost(config: HostStart): Promise<FaultHost> {
  const context = await hosted!.browser.newContext();
  const page = await context.newPage();
  await page.goto(`${hosted!.url}?config=${encodeURIComponent(JSON.stringify(config))}`);
  await page.locator('#app[data-state="ready"]').waitFor();

  // Runs `fake.keys[name](...args)` in the page; a rejection comes back as a refusal.
  const keyControl = (name: Control, ...args: unknown[]) =>
    page.evaluate(
      async ([control, values]) => {
        const { keys } = (window as unknown as PageWindow).petstoreFake;
        try {
          return await (keys[control] as (...a: unknown[]) => Promise<unknown>).apply(keys, values);
        } catch (error) {
          return { refused: (error as Error).message };
        }
      },
      [name, args] as const,
    ) as never;

  return {
    send: (method, path, { key = 'free-test-key', headers = {}, body } = {}) =>
      page.evaluate(
        async ({ method, path, key, headers, body }): Promise<Sent> => {
          const started = performance.now();
          try {
            const response = await fetch(`/v1${path}`, {
              method,
              headers: { ...(key !== null && { authorization: `Bearer ${key}` }), ...headers },
              ...(body !== undefined && { body }),
            });
            const text = await response.text();
            return {
              status: response.status,
              headers: Object.fromEntries(response.headers),
              text,
              elapsedMs: performance.now() - started,
            };
          } catch (error) {
            return { networkError: String(error), elapsedMs: performance.now() - started };
          }
        },
        { method, path, key, headers, body },
      ),
    addFault: (rule) =>
      page.evaluate(async (added) => {
        try {
          return { id: (await (window as unknown as PageWindow).petstoreFake.faults.add(added)).id };
        } catch (error) {
          return { refused: (error as Error).message };
        }
      }, rule),
    removeFault: (id) =>
      page.evaluate((removed) => (window as unknown as PageWindow).petstoreFake.faults.remove(removed), id),
    listFaults: () => page.evaluate(() => (window as unknown as PageWindow).petstoreFake.faults.list()),
    keys: {
      state: (key) => keyControl('state', key),
      setQuota: (key, remaining) => keyControl('setQuota', key, remaining),
      ban: (key, seconds) => keyControl('ban', key, seconds === undefined ? {} : { seconds }),
      unban: (key) => keyControl('unban', key),
      revoke: (key) => keyControl('revoke', key),
      restore: (key) => keyControl('restore', key),
    },
    setClock: (epochSeconds) =>
      page.evaluate((s) => (window as unknown as PageWindow).petstoreFake.clock.setEpochSeconds(s), epochSeconds),
    advanceClock: (seconds) =>
      page.evaluate((s) => (window as unknown as PageWindow).petstoreFake.clock.advance(s), seconds),
    reset: () => page.evaluate(() => (window as unknown as PageWindow).petstoreFake.reset()),
    close: () => context.close(),
  };
}

if (installed) describeFaultControls('browser (service worker in Chromium)', startBrowserHost);
else
  describe.skip(`faults and scenarios: browser (skipped: no ${CHROMIUM_PATH}; install it with \`${CHROMIUM_INSTALL_COMMAND}\`)`, () =>
    undefined);
