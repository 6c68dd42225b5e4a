import type { Capability } from '../core/capabilities.js';
import type { PlanLimits } from '../core/plan-limits.js';
import { operationOfRequest, pathUnder } from '../core/spec-operations.js';
import type { Exchange } from '../core/exchange.js';
import { answeredBeforeAnyOperation, refusedByParser } from '../core/described-bucket.js';
import { strengthOf, type BrokenPromise, type Observation } from './broken-promise.js';
import { declaredHeaderBreaks } from './declared-headers.js';
import { PROMISES } from './promise-rules.js';
import { QuotaModel } from './quota-model.js';
import { RecordLedger, type CreatedRecord } from './record-ledger.js';
import { errorAnswerBreaks } from './error-answers.js';
import { refusalBreaks } from './refusals.js';
import { serverErrorBreaks } from './server-errors.js';
import { ruleBreaks } from '../rules/rule-judge.js';
import { pathAsSent, unknownAsSpelt } from '../protocol/path-spellings.js';
import { RULES, type Rule, type RuleName } from '../rules/rule-table.js';

/** What the model knows of the target it watches. */
export interface PromiseModelOptions {
  /** The base address requests are relative to; only exchanges under it are judged. */
  baseUrl: string;
  /** What the target supports: a promise whose needs it lacks is not judged (Prism keeps no state). */
  capabilities: readonly Capability[];
  /** The key's plan, when known: its windows' limits are then the plan's. */
  plan?: PlanLimits;
  /** `--strict`: a SHOULD of the rule table fails like a MUST instead of warning. */
  strict?: boolean;
  /** Others use the key too, unseen: quota promises are judged only where unseen traffic cannot explain an answer. */
  sharedKey?: boolean;
}

/** The most answers judged as one burst while requests are still in flight (see {@link PromiseModel.answered}). */
const MAX_BURST = 512;

/** A request on its way: a ticket from {@link PromiseModel.sending}, handed back with its answer. */
export type Ticket = number;

/**
 * One model of what the spec promises across exchanges, fed by every exchange of a run (whichever check
 * sent it, retries and waits included) or of the watching proxy: per key, its windows and what they
 * announced; per collection, the records created and their order; per operation, what the spec declares.
 * Requests in flight together are judged together, as a burst, once the last of them is answered: the
 * outcome must be one some serial order explains.
 * @example const ticket = model.sending(); const broken = model.answered(ticket, exchange, nowSeconds);
 */
export class PromiseModel {
  readonly #options: PromiseModelOptions;
  readonly #quota: QuotaModel;
  readonly #records = new RecordLedger();
  readonly #checksKeys: boolean;
  #clock = 0;
  #inFlight = new Set<Ticket>();
  #burst: Observation[] = [];
  readonly #rulesTried = new Map<RuleName, number>();

  constructor(options: PromiseModelOptions) {
    this.#options = options;
    this.#checksKeys = options.capabilities.includes('realAuth');
    this.#quota = new QuotaModel(options.plan, { sharedKey: options.sharedKey ?? false });
  }

  /** Whether the target can be held to a promise (it has what the promise needs). */
  judges(promise: keyof typeof PROMISES | RuleName): boolean {
    const needs: readonly Capability[] =
      promise in PROMISES
        ? PROMISES[promise as keyof typeof PROMISES].needs
        : ((RULES[promise as RuleName] as Rule).needs ?? []);
    return needs.every((capability) => (this.#options.capabilities as readonly string[]).includes(capability));
  }

  /** The target forgot its state (the fake's reset): records and counters start over. */
  reset(): void {
    this.#quota.reset();
    this.#records.reset();
  }

  /** How many exchanges each rule of the table applied to so far (the run's evidence about the rules). */
  rulesTried(): ReadonlyMap<RuleName, number> {
    return this.#rulesTried;
  }

  /**
   * The target was told what the key `token` has left in its windows (the fake's scenario controls), at
   * the target's `now`: that key's counters start from what was set (the quota model's `windowsSet`).
   */
  windowsSet(token: string, remaining: { minuteRemaining?: number; dayRemaining?: number }, now: number): void {
    this.#quota.windowsSet(token, remaining, now);
  }

  /** What the model could not judge since the last call (each said once a run): notes for the person watching, never failures. */
  takeNotes(): string[] {
    return this.#quota.takeNotes();
  }

  /** Every record the target answered as created since the last reset (on a URL target: what the run left there). */
  created(): CreatedRecord[] {
    return this.#records.created();
  }

  /** A request is about to be sent. */
  sending(): Ticket {
    const ticket = ++this.#clock;
    this.#inFlight.add(ticket);
    return ticket;
  }

  /** The request got no answer (the connection failed): it is forgotten. */
  abandoned(ticket: Ticket): BrokenPromise[] {
    this.#inFlight.delete(ticket);
    this.#quota.forgetFloors();
    return this.#inFlight.size === 0 ? this.#close() : [];
  }

  /**
   * The answer came, at the target's `now` (epoch seconds). Returns what it (or the burst it closes)
   * breaks; answers in a burst are judged when the last one comes.
   */
  answered(ticket: Ticket, exchange: Exchange, now: number): BrokenPromise[] {
    this.#inFlight.delete(ticket);
    // A ticket is the order of sending: the same counter as `answered`, so the two compare.
    this.#burst.push({ exchange, sent: ticket, answered: ++this.#clock, now });
    if (this.#inFlight.size === 0) return this.#close();
    // Traffic that never pauses (a proxy under load) would make one endless burst: judge what came, but
    // not its quota (answers still in flight belong with it), and start the counters afresh.
    return this.#burst.length >= MAX_BURST ? this.#close({ quota: false }) : [];
  }

  #close({ quota } = { quota: true }): BrokenPromise[] {
    const burst = this.#burst.sort((a, b) => a.answered - b.answered);
    this.#burst = [];
    const stateful = this.judges('stored_as_sent');
    const broken: BrokenPromise[] = [];
    for (const observation of burst) {
      const { request } = observation.exchange;
      const path = pathUnder(request.url, this.#options.baseUrl);
      if (path === undefined || refusedByParser(observation.exchange)) continue;
      for (const { rule, severity, title, lines, exchange } of ruleBreaks(
        observation.exchange,
        this.#options.strict ?? false,
        this.#rulesTried,
      ))
        broken.push({ promise: rule, title, lines, exchange, ...(severity === 'warning' && { severity }) });
      // A path spelt another way RFC 3986 makes the same, answered as an unknown path: a reading allowed too.
      const asUnknown = unknownAsSpelt(observation.exchange, this.#options.baseUrl);
      const operation = asUnknown ? undefined : operationOfRequest(request.method, request.url, this.#options.baseUrl);
      // An answer before any operation is no routing answer: the check that sent it warns of it.
      if (!answeredBeforeAnyOperation(observation.exchange))
        broken.push(
          ...refusalBreaks(
            operation,
            observation.exchange,
            asUnknown ? pathAsSent(request.url, this.#options.baseUrl)! : path,
            {
              exactStatuses: this.judges('earliest_refusal_answered'),
              checksKeys: this.#checksKeys,
            },
          ),
        );
      broken.push(...serverErrorBreaks(observation.exchange));
      if (this.judges('errors_are_error_bodies')) broken.push(...errorAnswerBreaks(observation.exchange, path));
      if (!operation) continue;
      broken.push(
        ...declaredHeaderBreaks(operation, observation.exchange, this.judges('deprecation_headers_as_declared')),
      );
      broken.push(...this.#records.judge(operation, observation, stateful, path));
    }
    const underBase = burst.filter(
      ({ exchange }) => exchange.request.url.startsWith(this.#options.baseUrl) && !refusedByParser(exchange),
    );
    if (!quota) this.#quota.reset();
    else if (this.judges('charged_once_per_admitted_request')) broken.push(...this.#quota.judge(underBase));
    const strict = this.#options.strict ?? false;
    return broken
      .filter(({ promise }) => this.judges(promise))
      .map((found) => {
        const strength = strengthOf(found.promise);
        const warns = strength === 'MAY' || (strength === 'SHOULD' && !strict);
        return warns ? { ...found, severity: 'warning' as const } : found;
      });
  }
}
