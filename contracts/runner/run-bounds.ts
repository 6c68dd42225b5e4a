import { TimeBudgetExhausted } from '../checks/check.js';
import { curlCommand } from '../transport/curl-command.js';
import { headerOf, type Exchange } from '../core/exchange.js';

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
