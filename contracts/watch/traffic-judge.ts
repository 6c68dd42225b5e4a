import { DEPRECATION_HEADERS } from '../core/deprecation-headers.js';
import { DAY, serverEpochSeconds } from '../core/quota-windows.js';
import { coverageOf, observedItems, type Coverage } from '../coverage/coverage.js';
import { operationOfRequest, pathUnder } from '../core/spec-operations.js';
import { responseViolations } from '../conformance/response-conformance.js';
import type { BrokenPromise } from '../model/broken-promise.js';
import { PromiseModel, type Ticket } from '../model/promise-model.js';
import { LIVE_CAPABILITIES, LIVE_LACKING } from '../targets/url-target.js';
import { curlCommand } from '../transport/curl-command.js';
import { bearerTokenOf, requestHeaderOf, type Exchange } from '../core/exchange.js';

/** One way an exchange of real traffic departs from the spec: a response rule or a promise of the model. */
export interface TrafficViolation {
  /** The rule: a response conformance kind (`body_schema`, `missing_header`, ...) or a promise's name. */
  rule: string;
  /** `listCategories`, or `METHOD /path` for a path no operation has. */
  operation: string;
  title: string;
  /** `Received: ... / Expected: ...` lines. */
  lines: string[];
  /** The request as `curl`, its key replaced by `${PETSTORE_API_KEY}`. */
  curl: string;
  status: number;
  at: string;
}

/** Calls to one deprecated operation: how many, from which clients, and how long until its sunset. */
export interface DeprecatedCalls {
  operation: string;
  calls: number;
  sunset?: string;
  /** Whole days from the last call to the sunset (negative once past). */
  daysLeft?: number;
  /** `User-Agent` and `Origin` of the callers, with their counts. */
  clients: Array<{ userAgent: string; origin?: string; calls: number }>;
}

/** What the traffic showed: exchanges per operation x status, coverage, violations grouped by rule, deprecated calls. */
export interface TrafficSummary {
  exchanges: number;
  /** `listCategories 200` (or `(no operation) GET 404`) and how many times. */
  byOperationStatus: Record<string, number>;
  coverage: Coverage;
  violations: TrafficViolation[];
  /** Each rule broken and how many times. */
  byRule: Record<string, number>;
  /** Violations not kept (past the first {@link MAX_KEPT_VIOLATIONS}): counted in byRule only. */
  violationsNotKept: number;
  deprecated: DeprecatedCalls[];
  /** Answers whose body was over the size limit: judged by status and headers only. */
  judgedBySizeOnly: number;
  /**
   * SHOULDs of the rule table the traffic broke (outside `--strict`, where they are violations): the
   * first five of each rule, reported without failing the run.
   */
  warnings: TrafficViolation[];
  /** Each SHOULD broken and how many times. */
  warningsByRule: Record<string, number>;
}

/** Violations kept in full for the report; past it only counted, so memory stays bounded. */
export const MAX_KEPT_VIOLATIONS = 1_000;
/** A warning repeats on every answer that breaks its SHOULD; a few of each say enough. */
export const MAX_KEPT_WARNINGS_PER_RULE = 5;
const MAX_CLIENTS = 50;

/**
 * Judges real traffic (the proxy's, a replay's) exactly as the suite judges its own: every answer with
 * the suite's response conformance, every exchange fed to the one {@link PromiseModel} of the spec's
 * promises. Keeps what a report needs, bounded whatever the traffic.
 * @example const judge = new TrafficJudge('https://staging.example.com/v1'); const ticket = judge.sending(); judge.answered(ticket, exchange);
 */
export class TrafficJudge {
  readonly #baseUrl: string;
  readonly #model: PromiseModel;
  readonly #byOperationStatus = new Map<string, number>();
  readonly #observed = new Set<string>();
  readonly #violations: TrafficViolation[] = [];
  readonly #byRule = new Map<string, number>();
  readonly #warnings: TrafficViolation[] = [];
  readonly #warningsByRule = new Map<string, number>();
  readonly #deprecated = new Map<
    string,
    {
      calls: number;
      sunset?: string;
      lastNow: number;
      clients: Map<string, { userAgent: string; origin?: string; calls: number }>;
    }
  >();
  #exchanges = 0;
  #notKept = 0;
  #bySizeOnly = 0;

  /**
   * `sharedKey`: the keys are used beside the proxy too, so only what unseen traffic cannot explain is
   * judged. `strict`: a SHOULD of the rule table is a violation, as in the suite's `--strict`.
   */
  constructor(baseUrl: string, { sharedKey = false, strict = false } = {}) {
    this.#baseUrl = baseUrl;
    // Real traffic is held to every promise a live service makes; its plan is read from its answers.
    this.#model = new PromiseModel({ baseUrl, capabilities: LIVE_CAPABILITIES, sharedKey, strict });
  }

  /** A request is on its way to the upstream. */
  sending(): Ticket {
    return this.#model.sending();
  }

  /** The request got no answer (the upstream was unreachable, the client went away). */
  abandoned(ticket: Ticket): TrafficViolation[] {
    return this.#keep(this.#model.abandoned(ticket).map((broken) => this.#fromPromise(broken)));
  }

  /**
   * The answer came in full. `bySizeOnly`: its body was over the size limit and is not in `exchange`,
   * so only its status and headers are judged. Returns the violations it showed (or the burst it closed).
   */
  answered(ticket: Ticket, exchange: Exchange, { bySizeOnly = false } = {}): TrafficViolation[] {
    return this.record(exchange, this.#model.answered(ticket, exchange, serverEpochSeconds(exchange)), { bySizeOnly });
  }

  /**
   * Judges an exchange whose promises a model elsewhere already judged (a replay sends through the
   * suite's own session, whose model that is): its conformance, counts and coverage, and `broken`.
   */
  record(exchange: Exchange, broken: readonly BrokenPromise[], { bySizeOnly = false } = {}): TrafficViolation[] {
    this.#exchanges += 1;
    if (bySizeOnly) this.#bySizeOnly += 1;
    const { method, url } = exchange.request;
    const operation = operationOfRequest(method, url, this.#baseUrl);
    const name = operation?.operationId ?? `${method} ${pathUnder(url, this.#baseUrl) ?? url}`;
    const observed = observedItems(exchange, this.#baseUrl);
    for (const item of observed) this.#observed.add(item);
    // `listCategories 200` is the first item observed; paths no operation has are counted together (their number is unbounded).
    this.#count(this.#byOperationStatus, observed[0] ?? `(no operation) ${method} ${exchange.status}`);
    const found: TrafficViolation[] = [];
    if (operation) {
      if (operation.deprecated) this.#deprecatedCall(operation.operationId, operation.sunset, exchange);
      const conformance = responseViolations(operation.operationId, exchange, {
        ignoreHeaders: DEPRECATION_HEADERS,
      }).filter(({ kind }) => !bySizeOnly || (kind !== 'body_not_json' && kind !== 'body_schema'));
      found.push(
        ...conformance.map((violation) =>
          this.#violation(violation.kind, name, violation.title, violation.lines, exchange),
        ),
      );
    }
    // A SHOULD of the rule table warns, as in the suite's default run; under --strict the model calls it a failure.
    for (const each of broken) {
      if (each.severity === 'warning') this.#warn(this.#fromPromise(each));
      else found.push(this.#fromPromise(each));
    }
    return this.#keep(found);
  }

  /** Everything the traffic showed so far. */
  summary(): TrafficSummary {
    return {
      exchanges: this.#exchanges,
      byOperationStatus: Object.fromEntries([...this.#byOperationStatus].sort(([a], [b]) => a.localeCompare(b))),
      // Traffic asks for no injected failure: a declared 500 it never met is not a gap in it.
      coverage: coverageOf([...this.#observed], LIVE_LACKING),
      violations: [...this.#violations],
      byRule: Object.fromEntries(this.#byRule),
      violationsNotKept: this.#notKept,
      deprecated: [...this.#deprecated].map(([operation, { calls, sunset, lastNow, clients }]) => ({
        operation,
        calls,
        ...(sunset && { sunset, daysLeft: Math.floor((Date.parse(sunset) / 1000 - lastNow) / DAY) }),
        clients: [...clients.values()].sort((a, b) => b.calls - a.calls),
      })),
      judgedBySizeOnly: this.#bySizeOnly,
      warnings: [...this.#warnings],
      warningsByRule: Object.fromEntries(this.#warningsByRule),
    };
  }

  #warn(warning: TrafficViolation): void {
    const seen = this.#warningsByRule.get(warning.rule) ?? 0;
    this.#warningsByRule.set(warning.rule, seen + 1);
    if (seen < MAX_KEPT_WARNINGS_PER_RULE) this.#warnings.push(warning);
  }

  #deprecatedCall(operationId: string, sunset: string | undefined, exchange: Exchange): void {
    const entry = this.#deprecated.get(operationId) ?? {
      calls: 0,
      ...(sunset && { sunset }),
      lastNow: 0,
      clients: new Map(),
    };
    entry.calls += 1;
    entry.lastNow = serverEpochSeconds(exchange);
    const userAgent = requestHeaderOf(exchange, 'user-agent') ?? '(no User-Agent)';
    const origin = requestHeaderOf(exchange, 'origin');
    const client = `${userAgent}\n${origin ?? ''}`;
    const known = entry.clients.get(client);
    if (known) known.calls += 1;
    else if (entry.clients.size < MAX_CLIENTS)
      entry.clients.set(client, { userAgent, ...(origin && { origin }), calls: 1 });
    this.#deprecated.set(operationId, entry);
  }

  #fromPromise(broken: BrokenPromise): TrafficViolation {
    const { method, url } = broken.exchange.request;
    const operation =
      operationOfRequest(method, url, this.#baseUrl)?.operationId ??
      `${method} ${pathUnder(url, this.#baseUrl) ?? url}`;
    const involved = (broken.involved ?? [])
      .filter((exchange) => exchange !== broken.exchange)
      .map((exchange) => `also involved (${exchange.status}): ${this.#curl(exchange)}`);
    return this.#violation(broken.promise, operation, broken.title, [...broken.lines, ...involved], broken.exchange);
  }

  #violation(rule: string, operation: string, title: string, lines: string[], exchange: Exchange): TrafficViolation {
    return {
      rule,
      operation,
      title,
      lines,
      curl: this.#curl(exchange),
      status: exchange.status,
      at: new Date(serverEpochSeconds(exchange) * 1000).toISOString(),
    };
  }

  #curl(exchange: Exchange): string {
    return curlCommand(exchange.request, bearerTokenOf(exchange) || undefined);
  }

  #keep(found: TrafficViolation[]): TrafficViolation[] {
    for (const violation of found) {
      this.#count(this.#byRule, violation.rule);
      if (this.#violations.length < MAX_KEPT_VIOLATIONS) this.#violations.push(violation);
      else this.#notKept += 1;
    }
    return found;
  }

  #count(map: Map<string, number>, key: string): void {
    map.set(key, (map.get(key) ?? 0) + 1);
  }
}
