import type { SchemaValidators } from '../../spec/schema-registry.js';
import type { Access, AccessControlOptions } from './access.js';
import type { AdjustableClock } from './clock.js';
import { apiError, type ApiError } from './errors.js';
import type { FaultRule, FaultStore, FaultSubject, FiredFault } from './faults.js';
import type { ApiKey } from './plans.js';
import type { WindowName, WindowState } from './quota.js';
import type { RecordStep, StepResult } from './record-step.js';
import type { SeedData } from './seed.js';

// The store boundary of docs/explanation/design.md section 6: every piece of a fake's state that several instances must
// share. Two implementations: `MemoryStore` (the default, every host) and `RedisStore` (the standalone
// server with `--store redis://...`). The domain and the handlers see only this interface.

/** Quota counters, bans and revocations: admission of a request, and the scenario controls over them. */
export interface AccessStore {
  /** The configured key, or undefined (keys are configuration, the same on every instance). */
  keyOf(key: string): ApiKey | undefined;
  windowsOf(apiKey: ApiKey): Promise<WindowState[]>;
  setRemaining(apiKey: ApiKey, remaining: Partial<Record<WindowName, number>>): Promise<void>;
  /** The epoch millisecond the key's ban ends, or undefined. */
  bannedUntil(key: string): Promise<number | undefined>;
  ban(key: string, seconds?: number): Promise<void>;
  unban(key: string): Promise<void>;
  isRevoked(key: string): Promise<boolean>;
  revoke(key: string): Promise<void>;
  restore(key: string): Promise<void>;
}

/** What a store is built from: the spec's validators, the quota's configuration, the seed, the start-up rules. */
export interface StoreParts {
  schemas: SchemaValidators;
  access: AccessControlOptions & { clock: AdjustableClock };
  seed: SeedData;
  /** Fault rules from the start, already validated. */
  faults: readonly FaultRule[];
}

/** One request as {@link FakeStore.admit} takes it. */
export interface AdmissionRequest {
  authorization: string | null;
  clientAddress: string;
  /** What the fault rules match on (the same object the request's `beforeAuth` stage was given). */
  subject: FaultSubject;
  /** The record step to take once admitted, when nothing may come between admission and the step. */
  step?: RecordStep | undefined;
  /** Whether the first matching `afterAuth` fault rule is taken (not when a `Prefer` fault ends the request). */
  takeRule: boolean;
}

/**
 * What admission decided: the access, then the `afterAuth` rule that fired (the step not taken), or the
 * step's result. `early`: a `beforeAuth` rule another instance added while the request passed that
 * stage, found at admission; nothing was consumed.
 */
export type Admission =
  { early: FiredFault } | { access: Access; fault?: FiredFault | undefined; stepTaken?: boolean; result?: unknown };

/** The whole state of one fake, wherever it lives. */
export interface FakeStore {
  readonly access: AccessStore;
  readonly faults: FaultStore;
  /**
   * A request past its `beforeAuth` stage: auth, quota and ban, then (admitted) the first `afterAuth`
   * fault rule that applies, then, when none fired and the request names one, its record step: one
   * atomic step of the store (one Redis round trip) when no rule applies, the order of
   * docs/explanation/design.md section 5 always.
   */
  admit(request: AdmissionRequest): Promise<Admission>;
  /** A record step on its own: for a request an override changed, or one a fault rule delayed. */
  takeStep<S extends RecordStep>(step: S): Promise<StepResult<S>>;
  /** Persists the fake clock's offset (ms), so every instance reads the same time. */
  setClockOffset(offsetMs: number): Promise<void>;
  /** Takes the shared offset into this instance's clock (another instance may have moved it). */
  syncClock(): Promise<void>;
  /** Back to the seed: records, id sequence, counters, bans, revocations, the clock offset, the start-up fault rules. */
  reset(seed: SeedData): Promise<void>;
  /** Settles when the state is usable (the seed loaded, or the shared state found). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** The store is out of reach (Redis gone): answered 503 `store_unavailable`, never a wrong answer. */
export class StoreUnavailableError extends Error {
  override readonly name = 'StoreUnavailableError';
}

/** The `Error` of a request the store could not serve. */
export function storeUnavailable(): ApiError {
  return apiError(
    'store_unavailable',
    'The fake cannot reach its shared store (Redis); nothing was changed. Retry shortly.',
  );
}
