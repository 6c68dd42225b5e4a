/**
 * The fake in Storybook, under msw-storybook-addon: each story gets a fresh fake built from its
 * `parameters.petstore` (records, fault rules, latency, key scenarios), so a story is one state of the UI.
 * @example
 * // .storybook/preview.ts
 * const petstore = createStorybookFake();
 * const msw = createPreviewAnnotations(petstore.startWorker); // from 'msw-storybook-addon/preview'
 * export default { beforeEach: [msw.beforeEach, petstore.beforeEach] };
 */
import type { SetupWorker } from 'msw/browser';
import { createFakeWorker, type FakeWorkerOptions } from '../browser/fake-worker.js';
import type { FaultRule } from '../domain/faults.js';
import type { RemainingQuota } from '../domain/key-controls.js';
import { apiKeysFromConfig } from '../domain/plans.js';
import type { SeedData } from '../domain/seed.js';
import { createFake } from '../fake.js';

/** A key's state at the start of a story: what is left of its windows, a ban, a revocation. */
export interface KeyScenario {
  /** What is left of the current minute and day windows; `{ minuteRemaining: 0 }` makes the next call a 429. */
  quota?: RemainingQuota;
  /** Banned from the story's start, for `seconds` (default: the fake's ban length). */
  ban?: { seconds?: number };
  /** Answers 401 `invalid_api_key`. */
  revoked?: boolean;
}

/** `parameters.petstore` of a story: the fake's state when it renders. Everything is optional. */
export interface PetstoreParameters {
  /** The records (categories, pets, orders); e.g. `EMPTY_SEED` from `petstore-harness` for an empty list. */
  seed?: SeedData;
  /** Fault rules from the story's start, as `fake.faults.add` takes them. */
  faults?: readonly FaultRule[];
  /** A delay on every answer in milliseconds, fixed or `[min, max]`: the loading state. */
  latency?: number | readonly [number, number];
  /** Key scenarios by key, e.g. `{ 'free-test-key': { quota: { minuteRemaining: 0 } } }`. */
  keys?: Readonly<Record<string, KeyScenario>>;
}

/** What {@link createStorybookFake} gives `.storybook/preview.ts`. */
export interface StorybookFake {
  /** msw-storybook-addon's setup function: starts the page's worker once (the fake's handlers first). */
  startWorker(): Promise<SetupWorker>;
  /** A project `beforeEach`: a fresh fake from the story's `parameters.petstore` answers the story. */
  beforeEach(context: { parameters: { petstore?: PetstoreParameters } }): Promise<void>;
}

/**
 * The fake for Storybook's preview: the options are the browser host's (`baseUrl` default `/v1` on the
 * page's origin, `keys`, `clock`: a clock that stands still makes every render of a story the same), the
 * rest comes per story from `parameters.petstore`.
 * @example const petstore = createStorybookFake({ keys: [{ key: 'my-dev-key', plan: 'pro' }] });
 */
export function createStorybookFake(
  options: Pick<FakeWorkerOptions, 'baseUrl' | 'keys' | 'clock'> = {},
): StorybookFake {
  let started: Promise<SetupWorker> | undefined;
  const startWorker = () =>
    (started ??= (async () => {
      const { worker } = createFakeWorker(options);
      // Storybook's own files pass untouched: msw 2 reads onUnhandledRequest, msw 3 onUnhandledFrame.
      const unhandled = { onUnhandledRequest: 'bypass', onUnhandledFrame: 'bypass', quiet: true } as const;
      await worker.start(unhandled);
      return worker;
    })());
  return {
    startWorker,
    async beforeEach({ parameters }) {
      const story = parameters.petstore ?? {};
      const fake = createFake({
        baseUrl: new URL(options.baseUrl ?? '/v1', location.href).href,
        ...(options.keys ? { keys: apiKeysFromConfig(options.keys, 'createStorybookFake({ keys })') } : {}),
        ...(options.clock ? { clock: options.clock } : {}),
        ...(story.seed ? { seed: story.seed } : {}),
        ...(story.faults ? { faults: story.faults } : {}),
        ...(story.latency !== undefined ? { latency: story.latency } : {}),
      });
      await fake.ready();
      for (const [key, scenario] of Object.entries(story.keys ?? {})) {
        const source = `parameters.petstore.keys['${key}']`;
        if (scenario.quota) await fake.keys.setQuota(key, scenario.quota, source);
        if (scenario.ban) await fake.keys.ban(key, scenario.ban, source);
        if (scenario.revoked) await fake.keys.revoke(key);
      }
      // The story's fake replaces the last one's; handlers a story adds with `msw.use()` come before it.
      (await startWorker()).resetHandlers(...fake.handlers);
    },
  };
}
