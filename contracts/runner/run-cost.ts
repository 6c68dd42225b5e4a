import type { Capability } from '../core/capabilities.js';
import { CHECKS } from '../checks/registry.js';
import { REFUSED_UP_FRONT } from './run-bounds.js';

/**
 * The checks that drive the key's window to a 429 on a live target (`drivesWindow`), one window each:
 * each costs the key's whole per-minute limit, so their cost grows with the plan (an enterprise key:
 * 5,000 each).
 */
export const WINDOW_DRIVING_CHECKS: ReadonlySet<string> = new Set(
  CHECKS.filter((check) => check.drivesWindow).map((check) => check.name),
);

// Measured against the standalone fake with a key that never waits (667 requests at --runs 5, 791 at
// --runs 20, on 2026-11-26; contracts/cli/run-bounds.test.ts compares a run with its estimate): the
// requests of every other check, fixed and per generated case. Records are those of a free key's
// budgeted run (every live run is budgeted: evidence first, then repetition): 116 at --runs 20 on
// 2026-11-28, where the unbudgeted run of 2026-11-26 left 70.
const FIXED_REQUESTS = 626;
const REQUESTS_PER_RUN = 8.3;
const FIXED_RECORDS = 66;
const RECORDS_PER_RUN = 2.5;
// How fast a run goes on a key, in requests per minute per request the key allows a minute: many of a
// run's requests cost the key nothing (401s, 429s, preflights). A free key's whole run: 857 requests in
// 597 s (--seed 2026) and 864 in 578 s (--seed 7), 1.47 on average; its first five minutes, evidence
// first: 552 requests in 276 s (1.84). Measured on 2026-11-28 against the standalone fake.
const PACE = 1.47;
const EARLY_PACE = 1.84;

/** What a check's fixed cases cost in the rehearsal of a budgeted run (evidence-plan.ts), in the run's order. */
export interface RehearsedCost {
  requests: number;
  records: number;
}

/**
 * The records a run creates in its first `sent` requests: the fixed cases come first, each check's as
 * its rehearsal measured them (most of a run's records are its boundary bodies, made early); past them,
 * the rest of the records in proportion to the rest of the requests.
 */
function recordsWithin(sent: number, rehearsal: readonly RehearsedCost[], whole: RunCost): number {
  let before = 0;
  let made = 0;
  for (const step of rehearsal) {
    if (before + step.requests >= sent) return made + (step.records * (sent - before)) / Math.max(1, step.requests);
    before += step.requests;
    made += step.records;
  }
  const rest = whole.requests - before;
  return made + (rest > 0 ? Math.max(0, whole.records - made) * Math.min(1, (sent - before) / rest) : 0);
}

/** Requests one window-driving check sends: the key's limit, the probe before it and the 429 after. */
export const windowRequests = (keyLimit: number) => keyLimit + 3;

/** What a run on one live target will cost, stated before it drives any window. */
export interface RunCost {
  /** Every request, window-driving checks included. */
  requests: number;
  /** Of which the window-driving checks send. */
  windowRequests: number;
  /** Seconds, most of them waits for the key's windows to end. */
  seconds: number;
  /** Records the run creates (and cannot delete: the interface has no delete), with `--allow writes`. */
  records: number;
  /**
   * What the run's bounds hold of it, when they hold less than the whole run (the rest is left out):
   * `--max-minutes` at the key's pace, `--max-requests` without the windows it cannot afford.
   */
  bounded?: { by: string; requests: number; records: number };
}

/**
 * The cost of a run on a live target, from the key's per-minute limit its first answers stated: the
 * requests of the other checks (by `--runs`), one window per window-driving check it is allowed to run,
 * the minutes those requests take at the key's pace, and the records its writes leave.
 * @example estimateRunCost({ runs: 20, keyLimit: 60, capabilities: ['writes', 'quota'], checks: ['rate_limit_promises_kept'] })
 */
export function estimateRunCost(options: {
  runs: number;
  keyLimit: number;
  capabilities: readonly Capability[];
  /** The names of the checks the run will run. */
  checks: readonly string[];
  /** `--max-minutes`: the run stops there, and costs what fits. */
  maxMinutes?: number;
  /** `--max-requests`: a window-driving check that would go past it is refused before its first request. */
  maxRequests?: number;
  /** The fixed cases' cost per check, from the rehearsal of a budgeted run, in the run's order. */
  rehearsal?: readonly RehearsedCost[];
}): RunCost {
  const quota = options.capabilities.includes('quota');
  const windows = quota ? options.checks.filter((name) => WINDOW_DRIVING_CHECKS.has(name)).length : 0;
  const window = windows * windowRequests(options.keyLimit);
  const requests = Math.round(FIXED_REQUESTS + REQUESTS_PER_RUN * options.runs) + window;
  // Every window used up is waited out to its end, and the requests that cost the key nothing go between.
  const seconds = Math.round((requests / (options.keyLimit * PACE)) * 60);
  const writes = options.capabilities.includes('writes');
  const rehearsal = options.rehearsal ?? [];
  const early = rehearsal.reduce((sum, step) => sum + step.records, 0);
  const records = writes ? Math.max(early, Math.round(FIXED_RECORDS + RECORDS_PER_RUN * options.runs)) : 0;
  const cost = { requests, windowRequests: window, seconds, records };
  const { maxMinutes, maxRequests } = options;
  // The windows --max-requests affords, after the other checks' requests (each is refused when it cannot fit).
  const others = requests - window;
  const affordable =
    maxRequests === undefined
      ? windows
      : Math.min(windows, Math.max(0, Math.floor((maxRequests - others) / windowRequests(options.keyLimit))));
  const byRequests = others + affordable * windowRequests(options.keyLimit);
  // Evidence first: the checks that fit in the minutes are the cheap, keyless-heavy ones, so the early pace is quicker.
  const byMinutes =
    maxMinutes === undefined || maxMinutes * 60 >= seconds
      ? requests
      : Math.round(EARLY_PACE * options.keyLimit * maxMinutes);
  const fits = Math.min(requests, byRequests, byMinutes);
  if (fits >= requests) return cost;
  const byTime = byMinutes <= byRequests;
  const by = byTime ? `--max-minutes ${maxMinutes}` : `--max-requests ${maxRequests}`;
  // --max-requests leaves out windows only (they create nothing); --max-minutes, everything after its end.
  const fitRecords = !writes
    ? 0
    : byTime
      ? Math.min(records, Math.round(recordsWithin(fits, rehearsal, cost)))
      : records;
  return { ...cost, bounded: { by, requests: fits, records: fitRecords } };
}

/** The requests a run is expected to send: what its time bound holds, or the whole run. */
export const expectedRequests = (cost: RunCost): number => cost.bounded?.requests ?? cost.requests;

/** The line the suite prints once the key's limit is known. */
export function runCostText(cost: RunCost, bounds: { maxRequests?: number; maxMinutes?: number }): string {
  const minutes = cost.seconds < 60 ? `under a minute` : `about ${Math.round(cost.seconds / 60)} min`;
  const windows = cost.windowRequests > 0 ? ` (${cost.windowRequests} of them to drive windows to a 429)` : '';
  const records =
    cost.records > 0 ? `, about ${cost.records} records created (they cannot be deleted)` : ', no records created';
  const bound = [
    bounds.maxRequests !== undefined && `--max-requests ${bounds.maxRequests}`,
    bounds.maxMinutes !== undefined && `--max-minutes ${bounds.maxMinutes}`,
  ].filter(Boolean);
  const held = cost.bounded
    ? `; ${cost.bounded.by} holds about ${cost.bounded.requests} requests of it${cost.records > 0 ? ` and ${cost.bounded.records} records` : ''}, and leaves the rest out`
    : '';
  return `Cost of this run: about ${cost.requests} requests${windows}, ${minutes}${records}${held}${bound.length > 0 ? `; bounded by ${bound.join(' and ')}` : ''}`;
}

/**
 * Why a window-driving check is refused before its first request: driving the window would take the
 * run past `--max-requests`. The message names the flag and the value that would let it run.
 */
export function windowRefusal(keyLimit: number, sent: number, maxRequests: number): string | undefined {
  const needed = windowRequests(keyLimit);
  if (sent + needed <= maxRequests) return undefined;
  const enough = Math.ceil((sent + needed * 2 + 500) / 1000) * 1000;
  return `${REFUSED_UP_FRONT}: driving the key's window (X-RateLimit-Limit ${keyLimit}) to a 429 takes about ${needed} requests, past --max-requests ${maxRequests} with ${sent} sent; pass --max-requests ${enough} to run it`;
}
