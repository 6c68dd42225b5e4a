/** The fake for a browser app: `/v1` on the page's origin, keys and plans to choose, optional persistence, `reset()`. */
export { createFakeWorker, type FakeWorker, type FakeWorkerOptions } from './fake-worker.js';
export type { Fake, FakeOptions } from '../fake.js';
export { DEFAULT_KEYS, PLAN_LIMITS, type ApiKey, type ApiKeyConfig, type Plan } from '../domain/plans.js';
export type { ActiveFault, FaultEffect, FaultMatch, FaultRule } from '../domain/faults.js';
export type { KeyState, KeyWindow, RemainingQuota } from '../domain/key-controls.js';
/** Typed per-test overrides and the journal of what was sent. */
export { override } from '../handlers/typed-override.js';
export type { Override, OverrideControls, RequestChanges } from '../handlers/overrides.js';
export type { JournalEntry, RequestJournal } from '../handlers/journal.js';
