import { ceilSeconds } from './clock.js';
import type { Limits } from './plans.js';

/** The two fixed windows, aligned to UTC epoch multiples: minutes start at :00, days at 00:00 UTC. */
export const QUOTA_WINDOWS = [
  { name: 'minute', seconds: 60, limitOf: (limits: Limits) => limits.perMinute },
  { name: 'day', seconds: 86_400, limitOf: (limits: Limits) => limits.perDay },
] as const;

export type WindowName = (typeof QUOTA_WINDOWS)[number]['name'];

/** One window's state after a request. */
export interface WindowState {
  name: WindowName;
  seconds: number;
  limit: number;
  remaining: number;
  /** Epoch second at which the window ends. */
  resetEpochSeconds: number;
}

/** What the quota said about one request. */
export interface QuotaDecision {
  admitted: boolean;
  /** The window the `X-RateLimit-*` headers describe. */
  described: WindowState;
  /** Both windows, for the IETF draft `RateLimit-Policy` and `RateLimit` fields. */
  windows: WindowState[];
  /** Whole seconds (>= 1) until the exhausted window ends; only when not admitted. */
  retryAfterSeconds?: number;
}

interface Bucket {
  starts: number[];
  counts: number[];
  lastSeenMs: number;
}

/**
 * Per-subject counters for the two fixed windows. A subject is an API key or a client address.
 * Buckets are kept in least-recently-seen order, so expired ones are swept from the front and,
 * past `capacity`, the idlest is evicted: memory is bounded whatever the number of subjects.
 * @example new QuotaCounters().consume('free-test-key', PLAN_LIMITS.free, clock.now())
 */
export class QuotaCounters {
  readonly #buckets = new Map<string, Bucket>();
  /** The subject seen last, already at the map's end: one busy key skips the re-insert. */
  #latest: string | undefined;

  constructor(readonly capacity = Number.POSITIVE_INFINITY) {}

  /** How many subjects are tracked now. */
  get size(): number {
    return this.#buckets.size;
  }

  /** Counts one request if both windows admit it; a refused request consumes nothing. */
  consume(subject: string, limits: Limits, nowMs: number): QuotaDecision {
    const bucket = this.#touch(subject, nowMs);
    rollWindows(bucket, nowMs);
    let exhausted = -1;
    for (let i = 0; i < QUOTA_WINDOWS.length; i += 1)
      if (bucket.counts[i]! >= QUOTA_WINDOWS[i]!.limitOf(limits)) exhausted = i;
    if (exhausted === -1) for (let i = 0; i < QUOTA_WINDOWS.length; i += 1) bucket.counts[i]! += 1;

    return quotaDecision(windowStates(bucket, limits), exhausted, nowMs);
  }

  /** Both windows of a subject now, without counting a request. */
  peek(subject: string, limits: Limits, nowMs: number): WindowState[] {
    const bucket = { ...(this.#buckets.get(subject) ?? { starts: [], counts: [], lastSeenMs: nowMs }) };
    bucket.starts = [...bucket.starts];
    bucket.counts = [...bucket.counts];
    rollWindows(bucket, nowMs);
    return windowStates(bucket, limits);
  }

  /** Sets what is left in the current windows (docs/explanation/design.md section 5, scenario state); absent ones stay. */
  setRemaining(
    subject: string,
    limits: Limits,
    nowMs: number,
    remaining: Partial<Record<WindowName, number>>,
  ): WindowState[] {
    const bucket = this.#touch(subject, nowMs);
    rollWindows(bucket, nowMs);
    QUOTA_WINDOWS.forEach((window, i) => {
      const left = remaining[window.name];
      if (left !== undefined) bucket.counts[i] = window.limitOf(limits) - left;
    });
    return windowStates(bucket, limits);
  }

  /** Forgets every subject. */
  clear(): void {
    this.#buckets.clear();
    this.#latest = undefined;
  }

  #touch(subject: string, nowMs: number): Bucket {
    const latest = subject === this.#latest ? this.#buckets.get(subject) : undefined;
    if (latest) {
      latest.lastSeenMs = nowMs;
      return latest;
    }
    const bucket = this.#buckets.get(subject) ?? { starts: [], counts: [], lastSeenMs: nowMs };
    // Re-inserting keeps the map in least-recently-seen order.
    this.#buckets.delete(subject);
    bucket.lastSeenMs = nowMs;
    this.#buckets.set(subject, bucket);
    this.#latest = subject;
    this.#evict(nowMs);
    return bucket;
  }

  #evict(nowMs: number): void {
    const longest = QUOTA_WINDOWS[QUOTA_WINDOWS.length - 1]!.seconds * 1000;
    const currentLongStart = Math.floor(nowMs / longest) * longest;
    for (const [subject, bucket] of this.#buckets) {
      const expired = bucket.lastSeenMs < currentLongStart;
      if (!expired && this.#buckets.size <= this.capacity) return;
      this.#buckets.delete(subject);
    }
  }
}

/**
 * What the windows after a request say: admitted unless `exhausted` (the index of the last window
 * that was full, or -1), and which window the headers describe. Shared by every store.
 */
export function quotaDecision(windows: WindowState[], exhausted: number, nowMs: number): QuotaDecision {
  if (exhausted !== -1) {
    // Windows are ordered shortest first, so the last exhausted one is the one that ends later.
    const described = { ...windows[exhausted]!, remaining: 0 };
    const retryAfterSeconds = Math.max(1, ceilSeconds(described.resetEpochSeconds * 1000 - nowMs));
    return { admitted: false, described, windows, retryAfterSeconds };
  }
  // The lower remaining count wins; on a tie, the longer window (later in the list).
  const described = windows.reduce((best, window) => (window.remaining <= best.remaining ? window : best));
  return { admitted: true, described, windows };
}

/** The two windows from their starts (epoch seconds) and counts. */
export function windowsOfCounts(starts: readonly number[], counts: readonly number[], limits: Limits): WindowState[] {
  return windowStates({ starts: [...starts], counts: [...counts], lastSeenMs: 0 }, limits);
}

/** Starts a window afresh when the bucket's one has ended. */
function rollWindows(bucket: Bucket, nowMs: number): void {
  for (let i = 0; i < QUOTA_WINDOWS.length; i += 1) {
    const { seconds } = QUOTA_WINDOWS[i]!;
    const start = Math.floor(nowMs / 1000 / seconds) * seconds;
    if (bucket.starts[i] !== start) {
      bucket.starts[i] = start;
      bucket.counts[i] = 0;
    }
  }
}

function windowStates(bucket: Bucket, limits: Limits): WindowState[] {
  return QUOTA_WINDOWS.map((window, i): WindowState => {
    const limit = window.limitOf(limits);
    return {
      name: window.name,
      seconds: window.seconds,
      limit,
      remaining: Math.max(0, limit - bucket.counts[i]!),
      resetEpochSeconds: bucket.starts[i]! + window.seconds,
    };
  });
}
