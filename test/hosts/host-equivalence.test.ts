import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { CHROMIUM_PATH, chromiumIsInstalled } from '../../demo/e2e/chromium.js';
import type { FaultRule } from '../../mocks/domain/faults.js';
import type { Fake } from '../../mocks/fake.js';
import type { JournalEntry } from '../../mocks/handlers/journal.js';
import { setupFake } from '../../mocks/node/index.js';
import { startFakeServer } from '../../mocks/server/index.js';
import { startPageInChromium, type PageInChromium } from '../support/page-in-chromium.js';
import { FROZEN_CLOCK, NAMED_OVERRIDES, type OverrideName } from './named-overrides.js';

// One way through the fake: the same requests through the three hosts (msw's setupServer in Node, msw's
// setupWorker in Chromium, the standalone node:http server) give the same statuses, bodies and headers,
// in the guard order of docs/explanation/design.md ("The request pipeline"), and the same journal.

interface Sent {
  method: string;
  path: string;
  /** null: no Authorization. */
  key?: string | null;
  headers?: Record<string, string>;
  body?: string;
}
interface Seen {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}
interface Host {
  send(sent: Sent): Promise<Seen>;
  addFault(rule: FaultRule): Promise<void>;
  useOverride(name: OverrideName): Promise<void>;
  journal(): Promise<JournalEntry[]>;
  close(): Promise<void>;
}

// What a transport adds on its own (connection management, the date): not the fake's answer.
const TRANSPORT_HEADERS = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

function requestInit({ method, key = 'free-test-key', headers = {}, body }: Sent): RequestInit {
  return {
    method,
    headers: { ...(key !== null && { authorization: `Bearer ${key}` }), ...headers },
    ...(body !== undefined && { body }),
  };
}

function withoutTransportHeaders(answer: Seen): Seen {
  const headers = Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !TRANSPORT_HEADERS.has(name)));
  return { ...answer, headers };
}

async function seen(response: Response): Promise<Seen> {
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    // Not JSON: compared as text.
  }
  return withoutTransportHeaders({ status: response.status, headers: Object.fromEntries(response.headers), body });
}

function inProcess(fake: Fake, url: string, close: () => Promise<void>): Host {
  return {
    send: async (sent) => seen(await fetch(`${url}${sent.path}`, requestInit(sent))),
    addFault: async (rule) => void (await fake.faults.add(rule)),
    useOverride: async (name) => void fake.overrides.use(NAMED_OVERRIDES[name]()),
    journal: async () => fake.requests.all(),
    close,
  };
}

async function nodeHost(): Promise<Host> {
  const baseUrl = 'http://hosts.test/v1';
  const { server, fake } = setupFake({ baseUrl, clock: FROZEN_CLOCK });
  server.listen({ onUnhandledRequest: 'error' });
  return inProcess(fake, baseUrl, async () => server.close());
}

async function standaloneHost(): Promise<Host> {
  const running = await startFakeServer({ port: 0, clock: FROZEN_CLOCK });
  return inProcess(running.fake, running.baseUrl, () => running.close());
}

type PageWindow = { petstoreFake: Fake; useOverride(name: OverrideName): void };

async function browserHost(browser: Browser, pageUrl: string): Promise<Host> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(pageUrl);
  await page.locator('#app[data-state="ready"]').waitFor();
  return {
    send: async (sent) =>
      withoutTransportHeaders(
        await page.evaluate(
          async ({ path, init }) => {
            const response = await fetch(`/v1${path}`, init);
            const text = await response.text();
            let body: unknown = text;
            try {
              body = text === '' ? undefined : JSON.parse(text);
            } catch {
              // Not JSON: compared as text.
            }
            return { status: response.status, headers: Object.fromEntries(response.headers), body };
          },
          { path: sent.path, init: requestInit(sent) },
        ),
      ),
    addFault: (rule) =>
      page.evaluate(
        async (added) => void (await (window as unknown as PageWindow).petstoreFake.faults.add(added)),
        rule,
      ),
    useOverride: (name) => page.evaluate((named) => (window as unknown as PageWindow).useOverride(named), name),
    journal: () => page.evaluate(() => (window as unknown as PageWindow).petstoreFake.requests.all()),
    close: () => context.close(),
  };
}

const json = { 'content-type': 'application/json' };
// In the order of the guards: auth before routing, routing before validation, faults and overrides after auth.
const SCENARIO: (Sent | { fault: FaultRule } | { override: OverrideName })[] = [
  { method: 'GET', path: '/categories', key: null },
  { method: 'GET', path: '/categories', key: 'not-a-key' },
  { method: 'GET', path: '/nowhere', key: null },
  { method: 'GET', path: '/nowhere' },
  { method: 'DELETE', path: '/categories' },
  { method: 'POST', path: '/categories', key: null, headers: json, body: '{"name":' },
  { method: 'POST', path: '/categories', headers: { 'content-type': 'text/plain' }, body: '{"name":"x"}' },
  { method: 'POST', path: '/categories', headers: json, body: '{"name":' },
  { method: 'POST', path: '/categories', headers: json, body: '{"name":"hamster"}' },
  { method: 'GET', path: '/categories?tag=a' },
  { method: 'GET', path: '/pets/abc' },
  { method: 'GET', path: '/pets/1', headers: { prefer: 'code=503' } },
  { fault: { id: 'gateway', match: { path: '/store/orders' }, effect: { status: 502 }, times: 1, beforeAuth: true } },
  { method: 'GET', path: '/store/orders', key: null },
  { override: 'ghostPet' },
  { method: 'GET', path: '/pets/4242' },
  { method: 'GET', path: '/pets/4242', key: null },
  { override: 'ordersDown' },
  { method: 'GET', path: '/store/orders' },
  // The free plan's minute is 60 requests: past it, 429 with Retry-After.
  ...Array.from({ length: 55 }, (): Sent => ({ method: 'GET', path: '/categories' })),
  { method: 'GET', path: '/categories' },
];

async function run(host: Host): Promise<{ answers: Seen[]; journal: Omit<JournalEntry, 'at'>[] }> {
  const answers: Seen[] = [];
  try {
    for (const step of SCENARIO) {
      if ('fault' in step) await host.addFault(step.fault);
      else if ('override' in step) await host.useOverride(step.override);
      else answers.push(await host.send(step));
    }
    const journal = (await host.journal()).map(({ at: _at, ...entry }) => entry);
    return { answers, journal };
  } finally {
    await host.close();
  }
}

const withBrowser = chromiumIsInstalled();
let hosted: PageInChromium | undefined;
beforeAll(async () => {
  if (withBrowser) hosted = await startPageInChromium(fileURLToPath(new URL('./host-page.ts', import.meta.url)));
}, 120_000);
afterAll(() => hosted?.close());

describe('the three hosts answer alike', () => {
  it('Node (setupServer) and standalone: the same statuses, bodies, headers and journal, request by request', async () => {
    const [node, standalone] = [await run(await nodeHost()), await run(await standaloneHost())];
    expect(node.answers.map(({ status }) => status).slice(0, 16)).toEqual([
      401, 401, 401, 404, 405, 401, 415, 400, 201, 200, 400, 503, 502, 200, 401, 401,
    ]);
    expect(node.answers.at(-1)?.status).toBe(429);
    // Node's fetch sends no Origin, so no answer carries CORS (a browser's cross-origin request would).
    expect(node.answers.filter((answer) => 'access-control-allow-origin' in answer.headers)).toEqual([]);
    standalone.answers.forEach((answer, i) => expect({ i, ...answer }).toEqual({ i, ...node.answers[i] }));
    expect(standalone.journal).toEqual(node.journal);
  }, 60_000);

  (withBrowser ? it : it.skip)(
    `browser (setupWorker in ${CHROMIUM_PATH}) and standalone: the same`,
    async () => {
      const [inPage, standalone] = [
        await run(await browserHost(hosted!.browser, hosted!.url)),
        await run(await standaloneHost()),
      ];
      // The one difference, the host's documented exception: a service worker sees no Origin, so in a page
      // every answer carries CORS (spec/ASSUMPTIONS.md row 37); the standalone fake's, to Node's fetch, none.
      for (const answer of inPage.answers.filter((each) => each.status !== 0)) {
        expect(answer.headers['access-control-allow-origin']).toBe('*');
        delete answer.headers['access-control-allow-origin'];
        delete answer.headers['access-control-expose-headers'];
      }
      inPage.answers.forEach((answer, i) => expect({ i, ...answer }).toEqual({ i, ...standalone.answers[i] }));
      expect(inPage.journal).toEqual(standalone.journal);
    },
    120_000,
  );
});
