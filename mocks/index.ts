/** The host-agnostic core of the fake. Hosts: `./node` (setupServer), `./browser` (setupWorker), `./server` (HTTP). */
export { createFake, DEFAULT_BASE_URL, type Fake, type FakeOptions, type FaultControls } from './fake.js';
/** The temporary ban's configuration. */
export type { BanPolicy } from './domain/ban.js';
/** One request and its answer as the pipeline sees them (`Fake.answer`). */
export type { Answer, ApiCall } from './handlers/api-call.js';
/** Typed per-test overrides (`fake.overrides.use(override.get(...))`) and the journal (`fake.requests`). */
export {
  override,
  type AnswerInit,
  type OverrideOptions,
  type TypedOverrideContext,
  type TypedResponse,
} from './handlers/typed-override.js';
export type {
  Override,
  OverrideContext,
  OverrideControls,
  OverrideHandle,
  OverrideRequest,
  RequestChanges,
} from './handlers/overrides.js';
export { DEFAULT_JOURNAL_SIZE, type JournalEntry, type RequestJournal } from './handlers/journal.js';
/** Plans, their limits, the default keys, and the `--keys` parser. */
export {
  DEFAULT_KEYS,
  PLAN_LIMITS,
  PLANS,
  apiKeysFromConfig,
  type ApiKey,
  type ApiKeyConfig,
  type Limits,
  type Plan,
} from './domain/plans.js';
/** The default and empty seeds, and the `--seed` parser. */
export {
  DEFAULT_SEED,
  EMPTY_SEED,
  seedFromConfig,
  type SeedData,
  type Category,
  type NewCategory,
  type Pet,
  type Order,
} from './domain/seed.js';
/** The error catalogue. */
export { ERROR_STATUS, apiError, type ApiError, type ErrorCode } from './domain/errors.js';
/** Startup configuration errors. */
export { ConfigError, isConfigError } from './domain/config-error.js';
/** Injected time. */
export { AdjustableClock, systemClock, type Clock } from './domain/clock.js';
/** Test control (docs/explanation/design.md section 5): fault rules, the `Prefer` faults' model, and key scenarios. */
export {
  FaultRules,
  parseFaultRules,
  type ActiveFault,
  type FaultEffect,
  type FaultMatch,
  type FaultRule,
  type FaultStore,
  type FaultSubject,
  type FiredFault,
  type FaultOutcome,
  type RuleHandle,
} from './domain/faults.js';
export {
  KeyControls,
  UnknownKeyError,
  type KeyState,
  type KeyWindow,
  type RemainingQuota,
} from './domain/key-controls.js';
