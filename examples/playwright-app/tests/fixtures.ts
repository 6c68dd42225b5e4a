// The fake for Playwright: one standalone fake per worker on a free loopback port, reset after every test.
// A test gets `fake` (faults, key scenarios, the clock: the same controls as in Node tests) and `openApp`,
// which opens the app with this worker's fake as its API.
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join } from 'node:path';
import { test as base, type Page } from '@playwright/test';
import { startFakeServer, type RunningFakeServer } from 'petstore-harness/server';

interface PetStoreFixtures {
  /** This worker's fake: `fake.faults.add(...)`, `fake.keys.setQuota(...)`, `fake.clock.advance(...)`. */
  fake: RunningFakeServer['fake'];
  /** Opens the app against this worker's fake, with `key` as its API key (default `free-test-key`). */
  openApp: (key?: string) => Promise<Page>;
}

interface WorkerFixtures {
  fakeServer: RunningFakeServer;
  /** Where this worker serves the app's files (app/), on loopback as a dev server would. */
  appUrl: string;
}

export const test = base.extend<PetStoreFixtures, WorkerFixtures>({
  fakeServer: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern
    async ({}, use) => {
      // The fake's time stands still at the start of a minute, so no quota window rolls over during a test
      // (a 429's Retry-After is 60); `fake.clock.advance(60)` moves it on, and a reset brings it back.
      const clock = { now: () => Date.UTC(2026, 0, 1, 12, 0, 0) };
      const server = await startFakeServer({ port: 0, clock }); // 127.0.0.1, a free port
      await use(server);
      await server.close();
    },
    { scope: 'worker' },
  ],
  appUrl: [
    // eslint-disable-next-line no-empty-pattern -- as above
    async ({}, use) => {
      const app = join(import.meta.dirname, '..', 'app');
      const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript' };
      const server: Server = createServer(async (request, response) => {
        const name = new URL(request.url ?? '/', 'http://app').pathname === '/' ? 'index.html' : 'app.js';
        response.writeHead(200, { 'content-type': types[extname(name)]! }).end(await readFile(join(app, name)));
      });
      await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
      await use(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
      server.close();
    },
    { scope: 'worker' },
  ],
  fake: async ({ fakeServer }, use) => {
    await use(fakeServer.fake);
    await fakeServer.fake.reset(); // the next test starts from the seed: records, quotas, bans, faults
  },
  // Through `fake`, so that every test that opens the app resets the fake after it.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- `fake` is asked for its reset
  openApp: async ({ page, fake, fakeServer, appUrl }, use) => {
    await use(async (key = 'free-test-key') => {
      await page.goto(`${appUrl}/?api=${encodeURIComponent(fakeServer.baseUrl)}&key=${key}`);
      return page;
    });
  },
});

export { expect } from '@playwright/test';
