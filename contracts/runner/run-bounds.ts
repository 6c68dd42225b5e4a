import { TimeBudgetExhausted } from '../checks/check.js';
import { curlCommand } from '../transport/curl-command.js';
import { headerOf, type Exchange } from '../core/exchange.js';
import type { Waiter } from '../transport/paced-sender.js';

/** How the reason of a check the time budget left out begins. */
export const LEFT_OUT = 'left out to fit --max-minutes';

/** How the reason of a check the request budget refused up front begins (it drives a window it cannot afford). */
export const REFUSED_UP_FRONT = 'refused before its first request';

/** How the reason of a check stopped by the request budget begins. */
export const BUDGET_USED_UP = 'the request budget is used up';

/** What the reason of a check says that needed the key after a 429 no run can wait out (a used-up day). */
export const KEY_SPENT = 'no request with the key is sent';

/** How the reason of a check a signal stopped begins. */
export const INTERRUPTED = 'not completed: interrupted';

/**
 * The most minutes the suite spends on one live target when `--max-minutes` is not given: a CI job's
 * usual slot, far past a free key's measured run (4 min 13 s), far short of a day window.
 */
export const DEFAULT_MAX_MINUTES = 30;

/**
 * The most requests the suite sends to one live target when `--max-requests` is not given: a free,
 * pro or business key's whole run fits (376 for a free key; each window driven to a 429 costs the
 * key's per-minute limit), an enterprise key's quota checks (5,000 a minute: two windows, 10,000 and
 * more) do not, and are refused before their first request.
 */
export const DEFAULT_MAX_REQUESTS = 5_000;

/** A wait the target asked for (Retry-After, Reset) that the run's whole budget could never hold: a finding. */
export interface WaitPastBudget {
  check: string;
  /** What the wait was for (`Retry-After of the 429 in window 1`). */
  why: string;
  seconds: number;
  /** The run's whole bound, in seconds (`--max-minutes`, or the default). */
  budgetSeconds: number;
  /** The answer that asked for it: its status, Retry-After and Reset, and the request as curl. */
  exchange?: { status: number; retryAfter?: string; reset?: string; curl: string };
}

/** One wait of the run, for the report's time line. */
export interface WaitRecord {
  check: string;
  why: string;
  /** Seconds from the target's first request. */
  startedAfter: number;
  seconds: number;
  /** Waited, or refused because the budget could not hold it. */
  outcome: 'waited' | 'refused';
}

/** How the reason of a check a wait past the whole budget stopped begins. */
export const NOT_COMPLETED = 'not completed';

/**
 * The finding and the error for a wait longer than the run's whole budget: the check that needed it
 * ends as not completed (a skip, so the run goes on), and the run fails with the finding.
 */
export function waitPastBudget(
  check: string,
  why: string,
  seconds: number,
  budgetSeconds: number,
  lastAnswer: Exchange | undefined,
  apiKey: string,
): { finding: WaitPastBudget; error: TimeBudgetExhausted } {
  const retryAfter = lastAnswer && headerOf(lastAnswer, 'retry-after');
  const reset = lastAnswer && headerOf(lastAnswer, 'x-ratelimit-reset');
  const finding: WaitPastBudget = {
    check,
    why,
    seconds,
    budgetSeconds,
    ...(lastAnswer && {
      exchange: {
        status: lastAnswer.status,
        ...(retryAfter !== undefined && { retryAfter }),
        ...(reset !== undefined && { reset }),
        curl: curlCommand(lastAnswer.request, apiKey),
      },
    }),
  };
  const error = new TimeBudgetExhausted(
    `${NOT_COMPLETED}: the target asked for a ${seconds} s wait (${why}), past the run's whole bound of ${budgetSeconds} s (--max-minutes)`,
  );
  return { finding, error };
}

/** The summary's lines on waits past the budget: none when there were none. */
export function waitsPastBudgetText(findings: readonly WaitPastBudget[]): string[] {
  return findings.flatMap((finding) => [
    `Wait past the run's bound: ${finding.check} needed ${finding.seconds} s (${finding.why}); the run allows ${finding.budgetSeconds} s, so it is not completed`,
    ...(finding.exchange
      ? [
          `  the answer that asked for it: ${finding.exchange.status}, Retry-After ${finding.exchange.retryAfter ?? '(none)'}, X-RateLimit-Reset ${finding.exchange.reset ?? '(none)'}`,
          `  ${finding.exchange.curl}`,
        ]
      : []),
  ]);
}

/**
 * The run's time on one target (`--max-minutes`, counted from its first request) and a signal that
 * stops it: every request and every real wait asks it first. A wait the whole budget could never
 * hold is a finding; one that only does not fit what is left leaves the check out; both are recorded
 * for the report's time line.
 */
export class TimeBudget {
  /** Every real wait of the run, waited or refused, for the report's time line. */
  readonly waits: WaitRecord[] = [];
  /** Waits the target asked for that the run's whole bound could never hold: findings. */
  readonly waitsPastBudget: WaitPastBudget[] = [];
  readonly #maxMinutes: number | undefined;
  readonly #signal: AbortSignal | undefined;
  readonly #onWait: ((seconds: number, why: string) => () => void) | undefined;
  readonly #apiKey: string;
  readonly #createdAt = performance.now();
  #startedAt: number | undefined;

  constructor(
    bounds: { maxMinutes?: number; signal?: AbortSignal; onWait?: (seconds: number, why: string) => () => void },
    apiKey: string,
  ) {
    this.#maxMinutes = bounds.maxMinutes;
    this.#signal = bounds.signal;
    this.#onWait = bounds.onWait;
    this.#apiKey = apiKey;
  }

  /** Seconds left of `--max-minutes`, counted from the run's first request; undefined without one. */
  secondsLeft(): number | undefined {
    if (this.#maxMinutes === undefined) return undefined;
    this.#startedAt ??= performance.now();
    return this.#maxMinutes * 60 - (performance.now() - this.#startedAt) / 1000;
  }

  /** Throws (the check is left out, or interrupted) when no request may start any more. */
  beforeRequest(): void {
    const left = this.secondsLeft();
    if (left !== undefined && left <= 0)
      throw new TimeBudgetExhausted(`${LEFT_OUT} ${this.#maxMinutes}: the time was used up`);
    if (this.#signal?.aborted) throw new TimeBudgetExhausted(`${INTERRUPTED}: the run was stopped before this request`);
  }

  /** Waits `seconds` with `waiter` if the budget holds it (`why` and `check` for the record), ending early on the signal. */
  async wait(
    waiter: Waiter,
    seconds: number,
    why: string,
    by: { check: string; lastAnswer: Exchange | undefined },
  ): Promise<void> {
    this.#afford(seconds, why, by);
    const signal = this.#signal;
    if (signal?.aborted)
      throw new TimeBudgetExhausted(`${INTERRUPTED}: the run was stopped before a ${seconds} s wait`);
    let stop: () => void = () => undefined;
    const aborted = new Promise<'aborted'>((resolve) => {
      stop = () => resolve('aborted');
      signal?.addEventListener('abort', stop, { once: true });
    });
    const waited = this.#onWait?.(seconds, why);
    const outcome = await Promise.race([waiter.wait(seconds), aborted]).finally(() => waited?.());
    signal?.removeEventListener('abort', stop);
    if (outcome === 'aborted')
      throw new TimeBudgetExhausted(`${INTERRUPTED}: the run was stopped during a ${seconds} s wait (${why})`);
  }

  /**
   * Refuses to start a wait the time budget cannot hold: one the whole budget could never hold is a
   * finding (the check is not completed); one that only does not fit what is left is left out.
   */
  #afford(seconds: number, why: string, by: { check: string; lastAnswer: Exchange | undefined }): void {
    const left = this.secondsLeft();
    const startedAfter = (performance.now() - this.#createdAt) / 1000;
    const record = (outcome: WaitRecord['outcome']) =>
      this.waits.push({ check: by.check, why, startedAfter: Math.round(startedAfter), seconds, outcome });
    if (left === undefined || seconds <= left) {
      record('waited');
      return;
    }
    record('refused');
    const budget = this.#maxMinutes! * 60;
    if (seconds > budget) {
      const { finding, error } = waitPastBudget(by.check, why, seconds, budget, by.lastAnswer, this.#apiKey);
      this.waitsPastBudget.push(finding);
      throw error;
    }
    throw new TimeBudgetExhausted(
      `${LEFT_OUT} ${this.#maxMinutes}: it needed a ${seconds} s wait with ${Math.max(0, Math.floor(left))} s left`,
    );
  }
}
