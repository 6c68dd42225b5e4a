/**
 * A request the target never answered: the connection was refused or reset, the answer did not come in
 * time, or (through `watch`) the proxy answered the client 502/504 itself. A gate that passed such a run
 * would pass exactly when the service is down, so every one is a finding.
 */
export interface UnansweredExchange {
  /** `GET /v1/categories`. */
  request: string;
  /** What went wrong, as the system said it (`ECONNREFUSED`, `no answer within 30 s`). */
  why: string;
  /** When it was given up, ISO 8601. */
  at: string;
  /** The status `watch` answered the client in its place (502 bad_gateway, 504 gateway_timeout). */
  answeredByProxy?: 502 | 504;
}

/** Unanswered requests kept in full for the reports; past it they are only counted, so memory stays bounded. */
export const MAX_KEPT_UNANSWERED = 100;

/** The unanswered requests of a run: the first 100 in full, all of them counted. */
export class UnansweredLog {
  readonly #kept: UnansweredExchange[] = [];
  #count = 0;

  /** Records one, stamped with the time it was given up. */
  add(unanswered: Omit<UnansweredExchange, 'at'>): UnansweredExchange {
    const entry = { ...unanswered, at: new Date().toISOString() };
    this.#count += 1;
    if (this.#kept.length < MAX_KEPT_UNANSWERED) this.#kept.push(entry);
    return entry;
  }

  /** How many, whether kept in full or not. */
  get count(): number {
    return this.#count;
  }

  /** The ones kept in full, in the order they came. */
  list(): UnansweredExchange[] {
    return [...this.#kept];
  }
}

/** What a gate concludes from how many requests were answered, before it looks at what the answers said. */
export interface Reachability {
  /** 2: nothing was answered at all; 1: some requests were not; 0: every request was (or `allowed`). */
  exitCode: 0 | 1 | 2;
  /** One sentence for the summary, or undefined when every request was answered. */
  verdict?: string;
}

/**
 * The exit status reachability alone decides. `allowed` (`--allow-upstream-errors`) excuses requests
 * that got no answer, but never a run in which nothing was answered: such a gate judged nothing.
 * @example reachabilityOf(0, 12, false) // { exitCode: 2, verdict: 'The target could not be reached: ...' }
 */
export function reachabilityOf(answered: number, unanswered: number, allowed: boolean): Reachability {
  if (unanswered === 0) return { exitCode: 0 };
  if (answered === 0)
    return {
      exitCode: 2,
      verdict: `The target could not be reached: none of ${unanswered} requests got an answer (exit 2)`,
    };
  if (allowed)
    return {
      exitCode: 0,
      verdict: `${unanswered} of ${answered + unanswered} requests got no answer from the target (excused by --allow-upstream-errors)`,
    };
  return {
    exitCode: 1,
    verdict: `${unanswered} of ${answered + unanswered} requests got no answer from the target (exit 1; --allow-upstream-errors excuses them)`,
  };
}

/**
 * A `watch` or `replay` that judged no exchange: nothing passed, so it is no pass (exit 2) unless the
 * run was told that seeing nothing is fine (`--allow-empty`).
 */
export function nothingSeen(allowed: boolean): Reachability {
  return allowed
    ? { exitCode: 0, verdict: 'Nothing was seen: no exchange was judged (allowed by --allow-empty)' }
    : {
        exitCode: 2,
        verdict: 'Nothing was seen: no exchange was judged, so nothing passed (exit 2; --allow-empty allows it)',
      };
}

/** Why a request failed, as short as the system says it: the error code of the cause when there is one. */
export function whyUnanswered(error: unknown): string {
  const { code, message, cause, timeout } = error as {
    code?: string;
    message?: string;
    cause?: { code?: string };
    timeout?: number;
  };
  if (timeout !== undefined) return `no answer within ${Math.round(timeout / 1000)} s`;
  return code ?? cause?.code ?? message ?? String(error);
}
