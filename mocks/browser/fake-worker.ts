import { setupWorker, type SetupWorker, type StartOptions } from 'msw/browser';
import { apiKeysFromConfig, type ApiKeyConfig } from '../domain/plans.js';
import { createFake, type Fake, type FakeOptions } from '../fake.js';

/** Options of {@link createFakeWorker}; every one has a default. */
export interface FakeWorkerOptions extends Omit<FakeOptions, 'baseUrl' | 'keys'> {
  /**
   * Where the fake answers, absolute or relative to the page. Default `/v1` on the page's own origin,
   * so the app can call `/v1/categories` without knowing it is talking to a fake.
   */
  baseUrl?: string;
  /**
   * The API keys the fake accepts and the plan of each, in the format of `npm start -- --keys FILE`,
   * e.g. `[{ key: 'my-dev-key', plan: 'pro' }]` (`perMinute`/`perDay` for `enterprise` only).
   * Default: one key per plan, `free-test-key` ... `enterprise-test-key`.
   */
  keys?: readonly ApiKeyConfig[];
}

/** The fake in a page: the msw worker, the fake behind it, and the two calls an app needs. */
export interface FakeWorker {
  readonly worker: SetupWorker;
  readonly fake: Fake;
  /**
   * Registers `mockServiceWorker.js` and resolves once the fake answers. Await it before the app renders.
   * Requests outside the fake's base URL go to the network untouched (`'bypass'`, under msw 2's and 3's option names).
   */
  start(options?: StartOptions): Promise<void>;
  /** Back to the seed: records, quota counters, bans and the clock offset. */
  reset(): Promise<void>;
  /** Stops answering: the page's requests go to the network again. */
  stop(): void;
}

/**
 * Builds the fake for a browser app, answering under `/v1` of the page's origin by default.
 * @example
 * const { start } = createFakeWorker({ keys: [{ key: 'dev-key', plan: 'pro' }] });
 * await start();
 * renderApp();
 */
export function createFakeWorker(options: FakeWorkerOptions = {}): FakeWorker {
  const { baseUrl, keys, ...fakeOptions } = options;
  const fake = createFake({
    ...fakeOptions,
    baseUrl: new URL(baseUrl ?? '/v1', pageUrl()).href,
    ...(keys ? { keys: apiKeysFromConfig(keys, 'createFakeWorker({ keys })') } : {}),
  });
  const worker = setupWorker(...fake.handlers);
  return {
    worker,
    fake,
    async start(startOptions) {
      // What is not the fake's goes to the network untouched: msw 2 reads onUnhandledRequest, msw 3 onUnhandledFrame.
      const bypass = { onUnhandledRequest: 'bypass', onUnhandledFrame: 'bypass' } as const;
      await worker.start({ ...bypass, ...startOptions });
    },
    reset: () => fake.reset(),
    stop: () => worker.stop(),
  };
}

/** The page's address; relative base URLs are resolved against it. */
function pageUrl(): string {
  if (typeof location === 'undefined') {
    throw new Error(
      '[petstore-fake] createFakeWorker runs in a browser page; in Node use setupFake from the ./node entry.',
    );
  }
  return location.href;
}
