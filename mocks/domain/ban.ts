/** When a key is banned: more than `threshold` rejections within one minute window bans it for `seconds`. */
export interface BanPolicy {
  threshold: number;
  seconds: number;
}

/** The defaults of the design (docs/explanation/design.md section 3): more than 10 rejections in a minute window, banned for 300 s. */
export const DEFAULT_BAN_POLICY: BanPolicy = { threshold: 10, seconds: 300 };

const MINUTE_MS = 60_000;

/**
 * Temporary bans of API keys that keep calling after a 429. Keyed by API key only, so its size is
 * bounded by the key table.
 * @example if (bans.recordRejection(key, now) !== undefined) { ... banned from now on }
 */
export class BanList {
  readonly #rejections = new Map<string, { windowStart: number; count: number }>();
  readonly #bannedUntilMs = new Map<string, number>();

  constructor(readonly policy: BanPolicy = DEFAULT_BAN_POLICY) {}

  /** The epoch millisecond the subject's ban ends, or undefined when it is not banned. */
  bannedUntil(subject: string, nowMs: number): number | undefined {
    const until = this.#bannedUntilMs.get(subject);
    if (until === undefined) return undefined;
    if (nowMs < until) return until;
    this.#bannedUntilMs.delete(subject);
    return undefined;
  }

  /** Counts one 429; returns the ban's end when this rejection crossed the threshold. */
  recordRejection(subject: string, nowMs: number): number | undefined {
    const windowStart = Math.floor(nowMs / MINUTE_MS) * MINUTE_MS;
    const tally = this.#rejections.get(subject);
    const current = tally && tally.windowStart === windowStart ? tally : { windowStart, count: 0 };
    current.count += 1;
    this.#rejections.set(subject, current);
    if (current.count <= this.policy.threshold) return undefined;
    this.#rejections.delete(subject);
    const until = nowMs + this.policy.seconds * 1000;
    this.#bannedUntilMs.set(subject, until);
    return until;
  }

  /** Bans a subject now, until `untilMs` (scenario state; the threshold plays no part). */
  ban(subject: string, untilMs: number): void {
    this.#bannedUntilMs.set(subject, untilMs);
  }

  /** Lifts a subject's ban and forgets its rejections. */
  lift(subject: string): void {
    this.#bannedUntilMs.delete(subject);
    this.#rejections.delete(subject);
  }

  /** Lifts every ban and forgets every rejection. */
  clear(): void {
    this.#rejections.clear();
    this.#bannedUntilMs.clear();
  }
}
