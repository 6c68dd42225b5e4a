import { setupServer, type SetupServer } from 'msw/node';
import { createFake, type Fake, type FakeOptions } from '../fake.js';

/** Options of {@link setupFake}: the fake's. */
export type NodeFakeOptions = FakeOptions;

/**
 * The fake for Node test suites: an msw `setupServer` whose handlers are the fake's.
 * @example
 * const { server, fake } = setupFake({ baseUrl: 'http://localhost:4010/v1' });
 * beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
 * afterEach(async () => { server.resetHandlers(); await fake.reset(); });
 * afterAll(() => server.close());
 */
export function setupFake(options: NodeFakeOptions = {}): { server: SetupServer; fake: Fake } {
  const fake = createFake(options);
  return { server: setupServer(...fake.handlers), fake };
}

export type { Fake, FakeOptions } from '../fake.js';
export { DEFAULT_BASE_URL } from '../fake.js';
export { DEFAULT_KEYS, PLAN_LIMITS, type ApiKey, type Plan } from '../domain/plans.js';
export type { ActiveFault, FaultEffect, FaultMatch, FaultRule } from '../domain/faults.js';
export type { KeyState, KeyWindow, RemainingQuota } from '../domain/key-controls.js';
/** Typed per-test overrides and the journal of what was sent. */
export { override } from '../handlers/typed-override.js';
export type { Override, OverrideControls, RequestChanges } from '../handlers/overrides.js';
export type { JournalEntry, RequestJournal } from '../handlers/journal.js';
