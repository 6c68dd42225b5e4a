import type { ExtraHeaders } from '../transport/send-request.js';

/** What a run is asked to do, the same for every target of it. */
export interface SuiteSettings {
  /** Seed of every generated case. */
  seed: number;
  /** Generated cases per property, beyond the fixed boundary examples. */
  runs: number;
  /** The most requests sent to one target; past it, checks stop and are reported skipped. */
  maxRequests?: number;
  /** The most requests in flight at once, for checks that act as several clients (default {@link DEFAULT_MAX_CONCURRENCY}). */
  maxConcurrency?: number;
  /** The run's time on one target, from its first request; a check that would not fit is left out and reported. */
  maxMinutes?: number;
  /** `--strict`: a SHOULD of the rule table fails a check instead of warning. */
  strict?: boolean;
  /** Requests the target did not answer do not fail the run: their checks are reported not completed. */
  allowUpstreamErrors?: boolean;
  /** Others use the key too (`--shared-key`): the model judges only what their traffic cannot explain. */
  sharedKey?: boolean;
  /** Aborted by SIGINT/SIGTERM: a wait in progress ends at once and the check is reported not completed. */
  signal?: AbortSignal;
  /** Headers added to every request (`--header`), never judged; in the reports' curl only when `shown`. */
  extraHeaders?: ExtraHeaders;
  /**
   * The only operations the run may send to (`--operations`): a request to another (or to a path no
   * operation has) is never sent, and the check that wanted it is skipped, naming it.
   */
  operations?: ReadonlySet<string>;
  /**
   * Told when a real wait starts (`seconds`, what for), so a person watching sees it count down; the
   * function it returns is called when the wait ends, however it ends. The fake's clock moves are not real waits.
   */
  onWait?: (seconds: number, why: string) => () => void;
}

/** Requests in flight at once when `--max-concurrency` is not given: a few clients, well inside a free key's minute. */
export const DEFAULT_MAX_CONCURRENCY = 4;

/** Generated cases per property when `--runs` is not given: fewer against a live target's quota. */
export const DEFAULT_RUNS = { local: 100, live: 20 } as const;

/** Settings for a run: the given seed, or a fresh one. */
export function suiteSettings(options: Partial<SuiteSettings> & { live: boolean }): SuiteSettings {
  return {
    seed: options.seed ?? Math.floor(Math.random() * 2 ** 31),
    runs: options.runs ?? (options.live ? DEFAULT_RUNS.live : DEFAULT_RUNS.local),
    maxConcurrency: options.maxConcurrency ?? DEFAULT_MAX_CONCURRENCY,
    ...(options.maxRequests !== undefined && { maxRequests: options.maxRequests }),
    ...(options.maxMinutes !== undefined && { maxMinutes: options.maxMinutes }),
    ...(options.strict && { strict: true }),
    ...(options.allowUpstreamErrors && { allowUpstreamErrors: true }),
    ...(options.sharedKey && { sharedKey: true }),
    ...(options.signal && { signal: options.signal }),
    ...(options.extraHeaders && { extraHeaders: options.extraHeaders }),
    ...(options.operations && { operations: options.operations }),
    ...(options.onWait && { onWait: options.onWait }),
  };
}
