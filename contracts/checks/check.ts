import type { Capability } from '../core/capabilities.js';
import type { CheckName, PromiseName } from '../core/contract-ids.js';
import type { RuleName } from '../rules/rule-table.js';
import type { PlanLimits } from '../core/plan-limits.js';
import type { TargetClock } from '../core/target-clock.js';
import type { BrokenPromise } from '../model/broken-promise.js';
import type { SpecValidators } from '../conformance/spec-validators.js';
import type { ContractRequest, Exchange } from '../core/exchange.js';
import type { ConnectionOptions, ConnectionOutcome } from '../transport/raw-connection.js';
import type { RawRequest } from '../transport/request-bytes.js';

/** Test control of the fake, for checks that set a scenario up (only the fake has it). */
export interface FakeScenario {
  /** Back to the seed: records, counters, bans and clock (and the run's model with it). */
  reset(): Promise<void>;
  /** Sets what the key has left in its current minute window. */
  setMinuteRemaining(remaining: number): Promise<void>;
  /** Sets what the key has left in its current day window. */
  setDayRemaining(remaining: number): Promise<void>;
}

/** What a check gets: one way to send requests, the compiled spec, and what is known of the key. */
export interface CheckContext {
  /** Sends a request through the run's session (paced, marked on a URL, fed to the model) and resolves with the exchange. */
  send(request: ContractRequest): Promise<Exchange>;
  /**
   * Writes requests on one raw connection of their own (the connection and framing rules: pipelining,
   * `Connection: close`, two `Host` fields) through the run's session, as {@link send} does: paced,
   * counted against `--max-requests`, seen by coverage; resolves with what the connection showed.
   */
  connect(origin: string, requests: readonly RawRequest[], options?: ConnectionOptions): Promise<ConnectionOutcome>;
  spec: SpecValidators;
  /** The seed of every generated case of the run (the same for every check and target: `--seed` replays it). */
  seed: number;
  /** How many generated cases each property tries, beyond its fixed boundary examples. */
  runs: number;
  /** The target's now in epoch seconds (on the fake, its clock; elsewhere this machine's). */
  now(): Promise<number>;
  /** Lets `seconds` pass for the target: a real wait on a live target, a clock move on the fake; noted with `why`. */
  wait(seconds: number, why: string): Promise<void>;
  /** Limits of the key's plan, when the target knows them. */
  plan?: PlanLimits;
  /** Present exactly when the target has the `clock` capability. */
  clock?: TargetClock;
  /** A note for the person watching (e.g. a wait for Retry-After). */
  note(message: string): void;
  /** What the target supports or permits (a check may do more where it can, e.g. writes). */
  capabilities: readonly Capability[];
  /** The most requests a check may have in flight at once (`--max-concurrency`). */
  maxConcurrency: number;
  /**
   * How many generated cases in a row may show nothing new before a property stops sending; undefined:
   * every case is sent. Set on a live target whose key's quota is what limits the run.
   */
  patience(): number | undefined;
  /**
   * Whether the run already tried a case of this kind (`record`: and count it as tried now): the
   * evidence a budget must buy once whatever the patience (contracts/generate/evidence.ts).
   */
  triedKind(kind: string, record: boolean): boolean;
  /** How many distinct things (coverage items, statuses with their error codes) this check's answers have shown so far. */
  evidence(): number;
  /** `--strict`: a SHOULD of the rule table fails instead of warning. */
  strict: boolean;
  /** A rule of the table the check itself found broken (one the model cannot see alone): a failure, or a warning for a SHOULD outside `--strict`. */
  report(broken: BrokenPromise): void;
  /** Takes the promises this check's exchanges broke so far, for a check that reports them itself (after shrinking). */
  takeBrokenPromises(): BrokenPromise[];
  /** Present on the fake only. */
  scenario?: FakeScenario;
  /** On a target the suite cannot reset, the mark every record the run creates carries (`ct<seed>-`). */
  marker?: string;
  /** The request as {@link send} will send it (its body marked, see `marker`): for a check that compares an answer with what it sent, or respells the body. */
  marked(request: ContractRequest): ContractRequest;
}

/**
 * What a finding, a broken variant or a sentence can name: a check (its own expectation), a rule of the
 * table under the spec, or a promise of the model. Four rules share their name with the check that tries
 * them; a finding's `kind` says which it is.
 */
export type ContractId = CheckName | RuleName | PromiseName;

/** A named check with one signature: it resolves when the target conforms and throws a CheckFailure otherwise. */
export interface Check {
  /** Stable snake_case name; reports, variants and CI refer to it (one of `CHECK_NAMES`, core/contract-ids.ts). */
  name: CheckName;
  /** One line: what a pass guarantees. */
  verifies: string;
  needs: readonly Capability[];
  /**
   * It drives the key's window to a 429 on a live target: it costs the key's whole per-minute limit
   * (runner/run-cost.ts), and it counts every request of the key (as `countsEveryRequestOfTheKey`).
   */
  drivesWindow?: true;
  /**
   * It counts every request of the key (it compares Remaining before and after its own requests), so
   * another client of the key fails it whatever the service does: `--shared-key` skips it.
   */
  countsEveryRequestOfTheKey?: true;
  /**
   * The rule of the table the check exists to hold, when it is one: a failure of its own names that rule
   * (the finding's id), unless it names another (`CheckFailure.broke`).
   */
  holds?: RuleName;
  /** Runs the check against one target; throws a CheckFailure to fail. */
  run(context: CheckContext): Promise<void>;
}

/**
 * A check's verdict against a target: a typed value, never a bare string.
 * `lines` are schemathesis-style, e.g. `Received: 500 / Documented: 200, 404`.
 */
export class CheckFailure extends Error {
  override readonly name = 'CheckFailure';

  constructor(
    readonly title: string,
    readonly lines: readonly string[],
    readonly exchange?: Exchange,
    /** Every request of a failing sequence, in the order sent (reports print each as `curl`). */
    readonly sequence?: ReadonlyArray<{ label: string; exchange: Exchange }>,
    /** What broke, when it is a promise of the model or a rule of the table: the finding's id. */
    readonly broke?: PromiseName | RuleName,
  ) {
    super([title, ...lines].join('\n'));
  }
}

/**
 * Thrown by a check that finds at run time that it cannot proceed without harming the target
 * (e.g. driving a key to a 429 would exhaust its daily quota). Reported as skipped, with the reason.
 */
export class CheckNotApplicable extends Error {
  override readonly name = 'CheckNotApplicable';
}

/** The run's `--max-requests` is used up: the check stops where it is and is reported as skipped. */
export class RequestBudgetExhausted extends Error {
  override readonly name = 'RequestBudgetExhausted';
}

/** The run's `--max-minutes` cannot hold what the check needs next: it is left out, and the report says so. */
export class TimeBudgetExhausted extends Error {
  override readonly name = 'TimeBudgetExhausted';
}

/** Whether a thrown value ends a check as skipped rather than failed: not applicable, or a budget used up. */
export function isSkip(error: unknown): error is Error {
  return (
    error instanceof Error &&
    (error.name === 'CheckNotApplicable' ||
      error.name === 'RequestBudgetExhausted' ||
      error.name === 'TimeBudgetExhausted')
  );
}

/** Whether a thrown value is a {@link CheckFailure}. */
export function isCheckFailure(error: unknown): error is CheckFailure {
  // By name too: jest may load this module twice (one registry per test file).
  return error instanceof CheckFailure || (error instanceof Error && error.name === 'CheckFailure');
}
