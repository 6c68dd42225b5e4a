// The browser entry's sources; examples/vite-app imports the packed package the way an app does.
import { createFakeWorker, type Fake, type FakeWorker } from '../../mocks/browser/index.js';
import type { DemoSettings } from './settings.js';

/** What the page talks to, and the one control it offers. */
export interface DemoBackend {
  /** One line for the page, e.g. `the fake (service worker), key free-test-key`. */
  description: string;
  /** Back to the seed; undefined against a real service, which the page cannot reset. */
  reset?: () => Promise<void>;
  /** The in-page fake, for the fault panel; undefined against a real service. */
  fake?: Fake;
}

/**
 * Starts the fake in this page's service worker, unless the build points the demo at a real service.
 * Resolves once the fake answers, so the app can render and call the API straight away.
 */
export async function startBackend(settings: DemoSettings): Promise<DemoBackend> {
  if (settings.api !== 'fake') return { description: `${settings.api}, key ${maskKey(settings.apiKey)}` };
  const fakeWorker = await startFakeWorker(settings);
  return {
    description: [
      "the fake, in this page's service worker",
      `key ${settings.apiKey}${settings.perMinute ? ` (${settings.perMinute}/min)` : ''}`,
      settings.persist ? 'categories kept across reloads' : 'nothing kept across reloads',
    ].join('; '),
    reset: () => fakeWorker.reset(),
    fake: fakeWorker.fake,
  };
}

async function startFakeWorker(settings: DemoSettings): Promise<FakeWorker> {
  const fakeWorker = createFakeWorker({
    // Categories survive a reload (localStorage); the Reset button is the way back to the seed.
    persist: settings.persist,
    // With ?perMinute=N the page's key gets a tiny custom limit, so a 429 is a few Enters away.
    ...(settings.perMinute
      ? { keys: [{ key: settings.apiKey, plan: 'enterprise' as const, perMinute: settings.perMinute }] }
      : {}),
  });
  await fakeWorker.start({ quiet: true });
  // For devtools: `petstoreFake.faults.add({ effect: { status: 503 } })`, `petstoreFake.keys.ban('free-test-key')`.
  Object.assign(globalThis, { petstoreFake: fakeWorker.fake });
  return fakeWorker;
}

/** Shows the start of a real key only. */
function maskKey(key: string): string {
  return key.length > 4 ? `${key.slice(0, 4)}…` : '…';
}
