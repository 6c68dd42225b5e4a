import { setupWorker, type SetupWorker } from 'msw/browser';
import { createFake, type Fake, type FakeOptions } from '../fake.js';

/** Options of {@link setupFakeWorker}; `document` is the spec, inlined by the app's bundler. */
export type BrowserFakeOptions = FakeOptions;

/**
 * The fake in the browser: an msw `setupWorker` whose handlers are the fake's.
 * Start it before the app renders; the page needs `mockServiceWorker.js` (`npx msw init <public dir>`).
 * @example
 * const { worker } = setupFakeWorker({ document, baseUrl: `${location.origin}/v1` });
 * await worker.start({ onUnhandledRequest: 'bypass' });
 */
export function setupFakeWorker(options: BrowserFakeOptions): { worker: SetupWorker; fake: Fake } {
  const fake = createFake(options);
  return { worker: setupWorker(...fake.handlers), fake };
}

/** The fake for a browser app: `/v1` on the page's origin, keys and plans to choose, optional persistence, `reset()`. */
export { createFakeWorker, type FakeWorker, type FakeWorkerOptions } from './fake-worker.js';
export type { Fake, FakeOptions } from '../fake.js';
/** The type of the parsed spec that `createFakeWorker({ document })` takes. */
export type { OpenApiDocument } from '../../spec/schema-registry.js';
export { DEFAULT_KEYS, PLAN_LIMITS, type ApiKey, type ApiKeyConfig, type Plan } from '../domain/plans.js';
