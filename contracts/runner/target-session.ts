import type { TargetClock } from '../core/target-clock.js';
import { bucketDescribed } from '../core/described-bucket.js';
import { TimeBudgetExhausted, type CheckContext } from '../checks/check.js';
import { serverEpochSeconds } from '../core/quota-windows.js';
import { observedItems } from '../coverage/coverage.js';
import { operationOfRequest } from '../core/spec-operations.js';
import { markedBody, runMarker } from '../generate/run-marker.js';
import type { BrokenPromise } from '../model/broken-promise.js';
import { PromiseModel } from '../model/promise-model.js';
import { QUOTA_PROMISES } from '../model/quota-model.js';
import type { TargetDescriptor } from '../targets/target.js';
import { errorCodeOf, headerOf, type ContractRequest, type Exchange } from '../core/exchange.js';
import {
  LONGEST_WAIT_SECONDS,
  pacedSender,
  realTimeWaiter,
  type PacedSend,
  type Waiter,
} from '../transport/paced-sender.js';
import { sendCountedConnection } from './connection-requests.js';
import { admitRequests } from './request-admission.js';
import { sendRequest } from '../transport/send-request.js';
import { NoAnswer } from '../transport/raw-request.js';
import type { SuiteSettings } from './suite-settings.js';
import { UnansweredLog, whyUnanswered } from '../transport/unanswered.js';
import {
  BUDGET_USED_UP,
  INTERRUPTED,
  KEY_SPENT,
  LEFT_OUT,
  NOT_COMPLETED,
  REFUSED_UP_FRONT,
  TimeBudget,
  waitPastBudget,
  type WaitPastBudget,
  type WaitRecord,
} from './run-bounds.js';
import { EvidenceLedger } from './evidence-ledger.js';
import { FakeControls } from './fake-controls.js';
import type { EvidencePlan } from './evidence-catalogue.js';

type Send = CheckContext['send'];

// The settings and the reasons' openings are named from here by the CLI, replay and the jest suite.
export { BUDGET_USED_UP, INTERRUPTED, KEY_SPENT, LEFT_OUT, REFUSED_UP_FRONT };
export { DEFAULT_MAX_CONCURRENCY, DEFAULT_RUNS, suiteSettings, type SuiteSettings } from './suite-settings.js';

/** What one check did to the target: requests sent, coverage items exercised, promises its exchanges broke. */
export interface CheckTally {
  requests: number;
  observed: Set<string>;
  /** Each operation's status with its error code, as its answers showed them (with `observed`, what the check has seen). */
  answerKinds: Set<string>;
  broken: BrokenPromise[];
  /** SHOULDs of the rule table the check's exchanges broke (outside --strict): the first of each rule. */
  warnings: BrokenPromise[];
  /** Requests of the check the target did not answer. */
  unanswered: number;
  /** Entries of the evidence catalogue its requests tried (new to the run or not). */
  tried: Set<string>;
}

/** A key's per-minute limit affords one generated case in a row that shows nothing new per 20 requests; at least {@link LEAST_PATIENCE}. */
const PATIENCE_PER_MINUTE_LIMIT = 1 / 20;
const LEAST_PATIENCE = 3;

/**
 * Everything the suite keeps about one target across its checks: one pacer (the window one check used
 * up is the next one's to wait for), the request count against `--max-requests`, and the tally of the
 * check that is running, where its notes go.
 */
export class TargetSession {
  readonly #descriptor: TargetDescriptor;
  readonly #settings: SuiteSettings;
  readonly waiter: Waiter;
  /** The one model of the spec's promises for this target, fed by every exchange of every check. */
  readonly model: PromiseModel;
  /** The fake's clock (only targets with the `clock` capability); moving it keeps {@link targetNow} true. */
  readonly clock: TargetClock | undefined;
  /** The fake's scenario controls; none on other targets. */
  readonly #fake: FakeControls | undefined;
  /** What every record the run creates carries, on a target the suite cannot reset (a URL: staging has no delete). */
  readonly marker: string | undefined;
  readonly #paced: PacedSend;
  #realWaiter: Waiter;
  #sent = 0;
  #tally: CheckTally = {
    requests: 0,
    observed: new Set(),
    answerKinds: new Set(),
    broken: [],
    warnings: [],
    unanswered: 0,
    tried: new Set(),
  };
  /** Requests the target did not answer (refused, reset, timed out), by every check. */
  readonly unanswered = new UnansweredLog();
  /** The entries of the evidence catalogue the run's requests tried. */
  readonly evidence: EvidenceLedger;
  /** A budgeted run's plan: which checks try the catalogue first, and which check tried each entry in its rehearsal. */
  evidencePlan: EvidencePlan | undefined;
  readonly #time: TimeBudget;
  #check = '';
  #lastAnswer: Exchange | undefined;
  /** The key's per-minute limit as the target's answers state it (`X-RateLimit-Limit`). */
  #keyLimit: number | undefined;
  readonly #triedKinds = new Set<string>();
  #note: (message: string) => void = () => undefined;
  /** The request each answer was sent for, as the check wrote it: a finding's case, to shrink. */
  readonly #requests = new WeakMap<Exchange, ContractRequest>();
  /** Why no request with the key is sent any more (a 429 no run can wait out), once one came. */
  #spentKey: string | undefined;
  /** Answers whose quota promises broke, with the first: the pacer does not wait on them. */
  readonly #windowsBroken = new WeakMap<Exchange, string>();

  constructor(descriptor: TargetDescriptor, settings: SuiteSettings) {
    this.#descriptor = descriptor;
    this.#settings = settings;
    this.#time = new TimeBudget(settings, descriptor.apiKey);
    this.evidence = new EvidenceLedger(descriptor.baseUrl);
    this.model = new PromiseModel({
      baseUrl: descriptor.baseUrl,
      capabilities: descriptor.capabilities,
      ...(descriptor.plan && { plan: descriptor.plan }),
      ...(settings.strict && { strict: true }),
      sharedKey: settings.sharedKey ?? false,
    });
    this.#fake = descriptor.adminUrl
      ? new FakeControls(descriptor.adminUrl, descriptor.apiKey, descriptor.capabilities.includes('clock'))
      : undefined;
    this.clock = this.#fake?.clock;
    const waiter = this.#fake?.waiter() ?? realTimeWaiter;
    // Moving the fake's clock costs no time; a real wait must fit what is left of --max-minutes.
    const budgeted = (seconds: number) =>
      this.#budgetedWait(waiter, seconds, 'a wait between requests (Retry-After, or a window used up)');
    this.waiter = this.clock ? waiter : { ...waiter, wait: budgeted };
    this.#realWaiter = waiter;
    this.marker = descriptor.kind === 'url' ? runMarker(settings.seed) : undefined;
    this.#paced = pacedSender(
      (request) => this.#sendCounted(request),
      (message) => this.#note(message),
      this.waiter,
      (exchange) => this.#windowsBroken.get(exchange),
      // On the fake a wait is a clock move, free whatever its length; elsewhere a used-up day ends the keyed part.
      ...(this.clock
        ? []
        : [(exchange: Exchange, seconds: number, what: string) => this.#keySpent(exchange, seconds, what)]),
    );
  }

  get settings(): SuiteSettings {
    return this.#settings;
  }

  /** Every real wait of the run, waited or refused, for the report's time line. */
  get waits(): WaitRecord[] {
    return this.#time.waits;
  }

  /** Waits the target asked for that the run's whole bound could never hold: findings. */
  get waitsPastBudget(): WaitPastBudget[] {
    return this.#time.waitsPastBudget;
  }

  /** The key's per-minute limit as its answers stated it (`X-RateLimit-Limit`), once known. */
  get keyLimit(): number | undefined {
    return this.#keyLimit;
  }

  /** Requests sent to the target so far, by every check. */
  get sent(): number {
    return this.#sent;
  }

  /** Whether a kind of generated case was tried in this run (`record`: it is now). */
  triedKind(kind: string, record: boolean): boolean {
    const tried = this.#triedKinds.has(kind);
    if (record) this.#triedKinds.add(kind);
    return tried;
  }

  /** Starts the tally of a check (named `check`); its notes go to `note` from now on. */
  begin(note: (message: string) => void, check = ''): CheckTally {
    this.#note = note;
    this.#check = check;
    this.#tally = {
      requests: 0,
      observed: new Set(),
      answerKinds: new Set(),
      broken: [],
      warnings: [],
      unanswered: 0,
      tried: new Set(),
    };
    return this.#tally;
  }

  /**
   * How many generated cases in a row may show nothing new before a property stops sending (undefined:
   * every case is sent). Only on a paced target, and in proportion to what its key allows a minute, so
   * a free key's run spends its quota where coverage needs it and a key with room runs every case.
   */
  get patience(): number | undefined {
    if (!this.#descriptor.paced || this.#keyLimit === undefined) return undefined;
    return Math.max(LEAST_PATIENCE, Math.round(this.#keyLimit * PATIENCE_PER_MINUTE_LIMIT));
  }

  /** Sets what the session's key has left in its minute window (the fake's `/__admin/keys`); the model starts from it. */
  async setMinuteRemaining(remaining: number): Promise<void> {
    await this.setRemaining({ minuteRemaining: remaining });
  }

  /** Sets what the session's key has left in its minute and/or day window; the model starts the key's windows from it. */
  async setRemaining(remaining: { minuteRemaining?: number; dayRemaining?: number }): Promise<void> {
    if (!this.#fake) throw new Error('only the fake has scenario controls');
    await this.#fake.setRemaining(remaining);
    this.model.windowsSet(this.#descriptor.apiKey, remaining, this.#fake.now() ?? Date.now() / 1000);
  }

  /** Back to the fake's seed (records, counters, clock), and the model with it; nothing on other targets. */
  async resetTarget(): Promise<void> {
    if (!this.#fake) return;
    await this.#fake.reset();
    this.model.reset();
  }

  /** The target's now in epoch seconds when an answer came: the fake's clock, else the answer's Date. */
  targetNow(exchange: Exchange): number {
    return this.#fake?.now() ?? serverEpochSeconds(exchange);
  }

  /**
   * The sender checks use: marked, paced, counted, observed for coverage; once answered, what the
   * request tried (as the check wrote it, before the mark) goes into the evidence ledger.
   */
  readonly send: Send = async (request) => {
    const entries = this.evidence.evidenceOf(request);
    const tally = this.#tally;
    const exchange = await this.#paced(this.marked(request));
    this.#requests.set(exchange, request);
    for (const entry of this.evidence.record(entries, exchange.status)) tally.tried.add(entry);
    return exchange;
  };

  /** The request an answer was sent for, as the check wrote it (before the mark), if this session sent it. */
  requestOf(exchange: Exchange): ContractRequest | undefined {
    return this.#requests.get(exchange);
  }

  /**
   * The request as the run sends it: with a {@link marker}, a valid JSON body of a write carries it
   * ({@link markedBody}); anything else as it is. Every send goes through it; a check that compares
   * an answer with its body, or respells the body itself, marks the request first.
   */
  marked(request: ContractRequest): ContractRequest {
    if (this.marker === undefined || request.json === undefined || request.rawBody !== undefined) return request;
    const { baseUrl } = this.#descriptor;
    const operation = operationOfRequest(request.method, `${baseUrl}${request.path}`, baseUrl);
    const schema = operation?.requestBody?.content['application/json'];
    if (!schema) return request;
    const json = markedBody(schema, request.json, this.marker);
    return json === request.json ? request : { ...request, json };
  }

  /** Seconds left of `--max-minutes`, counted from the run's first request; undefined without one. */
  secondsLeft(): number | undefined {
    return this.#time.secondsLeft();
  }

  /** A wait a check asks for (`why` says what for), within the run's budget; on the fake, its clock moves. */
  async wait(seconds: number, why: string): Promise<void> {
    if (this.clock) return this.#realWaiter.wait(seconds);
    return this.#budgetedWait(this.#realWaiter, seconds, why);
  }

  async #budgetedWait(waiter: Waiter, seconds: number, why: string): Promise<void> {
    try {
      await this.#time.wait(waiter, seconds, why, { check: this.#check, lastAnswer: this.#lastAnswer });
    } catch (error) {
      // The pacer said it was waiting before it asked: say that the budget did not let it.
      this.#note(`not waited: ${error instanceof Error ? error.message : String(error)}`);
      throw error;
    }
  }

  /** What the model or a check found broken: a failure of the running check, or its warning (the first of each rule). */
  report(broken: BrokenPromise): void {
    const tally = this.#tally;
    if (broken.severity !== 'warning') tally.broken.push(broken);
    else if (!tally.warnings.some(({ promise }) => promise === broken.promise)) {
      tally.warnings.push(broken);
      this.#note(`warning ${broken.promise}: ${broken.title}; ${broken.lines.join('; ')}`);
    }
  }

  /**
   * A 429 whose Retry-After no run waits out (a used-up day): reported once, as a wait past the run's
   * bound (a finding), and from now on no request with the key is sent: each check that needs one ends
   * as not completed at once, instead of waiting the longest wait on the same 429.
   */
  #keySpent(exchange: Exchange, seconds: number, what: string): never {
    const { maxMinutes } = this.#settings;
    const bound = Math.min(LONGEST_WAIT_SECONDS, maxMinutes === undefined ? Infinity : maxMinutes * 60);
    const why = `Retry-After of a 429 to ${what}: the key has no quota left for that long`;
    const { finding } = waitPastBudget(this.#check, why, seconds, bound, exchange, this.#descriptor.apiKey);
    this.#time.waitsPastBudget.push(finding);
    this.#spentKey = `${NOT_COMPLETED}: the target asked for a ${seconds} s wait (${why}), past the longest wait a run takes (${bound} s); ${KEY_SPENT} after it`;
    this.#note(`${this.#spentKey} (reported once: the checks after it that need the key end here too)`);
    throw new TimeBudgetExhausted(this.#spentKey);
  }

  /** Requests a check writes on one raw connection: admitted, paced, counted and observed as {@link send}'s. */
  readonly connect: CheckContext['connect'] = (origin, requests, options) => {
    const admit = (contracts: readonly ContractRequest[]) => this.#admit(contracts);
    const session = { ...this.#descriptor, admit, pacer: this.#paced, observe: (got: Exchange) => this.#observe(got) };
    return sendCountedConnection(session, origin, requests, options);
  };

  /** Admits requests into the run and counts them, or throws: the key spent, a budget used up, an operation left out. */
  #admit(requests: readonly ContractRequest[]): void {
    const { baseUrl } = this.#descriptor;
    admitRequests(requests, {
      sent: this.#sent,
      spentKey: this.#spentKey,
      settings: this.#settings,
      time: this.#time,
      baseUrl,
    });
    this.#sent += requests.length;
    this.#tally.requests += requests.length;
  }

  /** What an answer shows the running check: the coverage items it exercised, its operation's status and error code. */
  #observe(exchange: Exchange): void {
    const { baseUrl } = this.#descriptor;
    for (const item of observedItems(exchange, baseUrl)) this.#tally.observed.add(item);
    const operation =
      operationOfRequest(exchange.request.method, exchange.request.url, baseUrl)?.operationId ??
      `${exchange.request.method} undocumented`;
    this.#tally.answerKinds.add(`${operation} ${exchange.status} ${errorCodeOf(exchange) ?? ''}`);
  }

  async #sendCounted(request: ContractRequest): Promise<Exchange> {
    this.#admit([request]);
    const tally = this.#tally;
    const ticket = this.model.sending();
    const onWire = this.evidence.sending(request);
    let exchange: Exchange;
    try {
      exchange = await sendRequest(
        this.#descriptor.baseUrl,
        this.#descriptor.apiKey,
        request,
        this.#settings.extraHeaders,
      );
      for (const entry of onWire(exchange.status)) tally.tried.add(entry);
    } catch (error) {
      onWire();
      tally.broken.push(...this.model.abandoned(ticket));
      // No answer from the raw sender (its only thrower: `CONNECT /categories`, a lower-case method, a
      // field sent twice) is an HTTP parser's refusal, a warning of the check that sent it (design section
      // 7), not a target gone silent.
      if (error instanceof NoAnswer) throw error;
      // A request the target never answered is a finding of its own, whatever the check makes of it.
      tally.unanswered += 1;
      this.unanswered.add({ request: `${request.method} ${request.path.split('?')[0]}`, why: whyUnanswered(error) });
      throw error;
    }
    this.#lastAnswer = exchange;
    for (const broken of this.model.answered(ticket, exchange, this.targetNow(exchange))) {
      // Reported before any wait: a 429 the windows cannot explain is not waited for.
      if (broken.exchange === exchange && QUOTA_PROMISES.has(broken.promise))
        this.#windowsBroken.set(exchange, `it breaks ${broken.promise}: ${broken.title}`);
      this.report(broken);
    }
    for (const note of this.model.takeNotes()) this.#note(note);
    this.#observe(exchange);
    const limit = Number(headerOf(exchange, 'x-ratelimit-limit'));
    if (
      (request.auth ?? 'key') === 'key' &&
      bucketDescribed(exchange).kind === 'key' &&
      Number.isSafeInteger(limit) &&
      limit > 0 &&
      limit !== this.#keyLimit
    ) {
      this.#keyLimit = limit;
      if (this.#descriptor.paced)
        this.#note(
          `the key allows ${limit} requests a minute (X-RateLimit-Limit): generated cases stop after ${this.patience} in a row show nothing new`,
        );
    }
    return exchange;
  }
}
