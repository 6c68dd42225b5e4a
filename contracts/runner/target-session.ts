import { RequestBudgetExhausted, type CheckContext } from '../checks/check.js';
import { operationOfRequest } from '../coverage/coverage.js';
import { fakeClock } from '../targets/fake-admin.js';
import type { TargetDescriptor } from '../targets/target.js';
import type { ContractRequest, Exchange } from '../transport/exchange.js';
import { pacedSender, realTimeWaiter, type Waiter } from '../transport/paced-sender.js';
import { sendRequest } from '../transport/send-request.js';

type Send = CheckContext['send'];

/** What a run is asked to do, the same for every target of it. */
export interface SuiteSettings {
  /** Seed of every generated case. */
  seed: number;
  /** Generated cases per property, beyond the fixed boundary examples. */
  runs: number;
  /** The most requests sent to one target; past it, checks stop and are reported skipped. */
  maxRequests?: number;
}

/** Generated cases per property when `--runs` is not given: fewer against a live target's quota. */
export const DEFAULT_RUNS = { local: 100, live: 20 } as const;

/** Settings for a run: the given seed, or a fresh one. */
export function suiteSettings(options: Partial<SuiteSettings> & { live: boolean }): SuiteSettings {
  return {
    seed: options.seed ?? Math.floor(Math.random() * 2 ** 31),
    runs: options.runs ?? (options.live ? DEFAULT_RUNS.live : DEFAULT_RUNS.local),
    ...(options.maxRequests !== undefined && { maxRequests: options.maxRequests }),
  };
}

function waiterFor(descriptor: TargetDescriptor): Waiter {
  if (!descriptor.adminUrl || !descriptor.capabilities.includes('clock')) return realTimeWaiter;
  // The fake's time is its clock: waiting is moving it, at no cost, however long the window.
  const clock = fakeClock(descriptor.adminUrl);
  return {
    now: () => clock.advanceSeconds(0),
    wait: async (seconds) => {
      await clock.advanceSeconds(seconds);
    },
    longestProactiveWaitSeconds: Number.POSITIVE_INFINITY,
    say: (seconds) => `moving the fake's clock ${seconds} s`,
  };
}

/** What one check did to the target: requests sent and coverage items exercised. */
export interface CheckTally {
  requests: number;
  observed: Set<string>;
}

/**
 * Everything the suite keeps about one target across its checks: one pacer (the window one check used
 * up is the next one's to wait for), the request count against `--max-requests`, and the tally of the
 * check that is running, where its notes go.
 */
export class TargetSession {
  readonly #descriptor: TargetDescriptor;
  readonly #settings: SuiteSettings;
  readonly waiter: Waiter;
  readonly #paced: Send;
  #sent = 0;
  #tally: CheckTally = { requests: 0, observed: new Set() };
  #note: (message: string) => void = () => undefined;

  constructor(descriptor: TargetDescriptor, settings: SuiteSettings) {
    this.#descriptor = descriptor;
    this.#settings = settings;
    this.waiter = waiterFor(descriptor);
    this.#paced = pacedSender((request) => this.#sendCounted(request), (message) => this.#note(message), this.waiter);
  }

  get settings(): SuiteSettings {
    return this.#settings;
  }

  /** Requests sent to the target so far, by every check. */
  get sent(): number {
    return this.#sent;
  }

  /** Starts the tally of a check; its notes go to `note` from now on. */
  begin(note: (message: string) => void): CheckTally {
    this.#note = note;
    this.#tally = { requests: 0, observed: new Set() };
    return this.#tally;
  }

  /** The sender checks use: paced, counted, observed for coverage. */
  readonly send: Send = (request) => this.#paced(request);

  async #sendCounted(request: ContractRequest): Promise<Exchange> {
    const { maxRequests } = this.#settings;
    if (maxRequests !== undefined && this.#sent >= maxRequests) {
      throw new RequestBudgetExhausted(`the request budget is used up (--max-requests ${maxRequests})`);
    }
    this.#sent += 1;
    this.#tally.requests += 1;
    const exchange = await sendRequest(this.#descriptor.baseUrl, this.#descriptor.apiKey, request);
    for (const item of observedItems(exchange, this.#descriptor.baseUrl)) this.#tally.observed.add(item);
    return exchange;
  }
}

/** The coverage items an answer exercises: `operation status` and `operation status Header` for each header present. */
function observedItems(exchange: Exchange, baseUrl: string): string[] {
  const operation = operationOfRequest(exchange.request.method, exchange.request.url, baseUrl);
  if (!operation) return [];
  const status = `${operation.operationId} ${exchange.status}`;
  const documented = operation.responses[String(exchange.status)];
  const headers = (documented?.headers ?? []).filter((header) => exchange.headers[header.name.toLowerCase()] !== undefined);
  return [status, ...headers.map((header) => `${status} ${header.name}`)];
}
