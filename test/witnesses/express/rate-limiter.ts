/**
 * Per-key quotas in two fixed UTC windows (a minute and a day), kept in memory.
 *
 * Spec rules implemented here:
 * - "Each request with a key the service accepts, admitted by both of the key's windows, counts one
 *   request in each window, whatever its outcome."
 * - "A request that a used-up window refuses answers `429` ... and counts in no window."
 * - "Requests repeated after a `429` may get the key banned for a time": a key refused more than
 *   BAN_AFTER_REFUSALS times in a row (no admitted request in between) is banned; a banned request
 *   counts in no window either.
 * - The X-RateLimit-* headers describe "the window (minute or day) with the lower remaining count
 *   after the request".
 */

export type Plan = 'free' | 'pro' | 'business' | 'enterprise';

export interface Limits {
  readonly perMinute: number;
  readonly perDay: number;
}

/** "free (60 requests a minute, 1,000 a day), pro (300 and 10,000), business (1,000 and 100,000)". */
export const PLAN_LIMITS: Readonly<Record<Exclude<Plan, 'enterprise'>, Limits>> = {
  free: { perMinute: 60, perDay: 1_000 },
  pro: { perMinute: 300, perDay: 10_000 },
  business: { perMinute: 1_000, perDay: 100_000 },
};

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;

/** Refusals in a row a key may collect before the next one bans it (the spec leaves this open). */
export const BAN_AFTER_REFUSALS = 10;
/** Shortest ban; a ban never ends before the used-up window does, so it never shortens a wait. */
export const BAN_MS = 5 * MINUTE_MS;

/** What the X-RateLimit-* headers report. */
export interface WindowReport {
  readonly limit: number;
  readonly remaining: number;
  /** Unix epoch second, rounded up, at which the window ends. */
  readonly reset: number;
}

/** Which windows an admitted request was counted in, so that it can be taken back. */
export interface QuotaTicket {
  readonly keyId: string;
  readonly minute: number;
  readonly day: number;
}

export type Decision =
  | { readonly kind: 'admitted'; readonly report: WindowReport; readonly ticket: QuotaTicket }
  | {
      readonly kind: 'limited';
      readonly report: WindowReport;
      readonly window: 'minute' | 'day';
      readonly limit: number;
      readonly retryAfter: number;
    }
  | { readonly kind: 'banned'; readonly report: WindowReport; readonly retryAfter: number };

interface Counter {
  minute: number; // index of the current UTC minute since the epoch
  minuteCount: number;
  day: number; // index of the current UTC day since the epoch
  dayCount: number;
  refusals: number; // refusals in a row
  bannedUntil: number; // epoch ms; 0 when not banned
}

/** Whole seconds (at least 1) from `now` until `end`, for Retry-After. */
export function secondsUntil(end: number, now: number): number {
  return Math.max(1, Math.ceil((end - now) / 1000));
}

/** The UTC minute that `now` falls in, as a window with nothing used (for requests without a key). */
export function fullMinuteWindow(limit: number, now: number): WindowReport {
  const end = (Math.floor(now / MINUTE_MS) + 1) * MINUTE_MS;
  return { limit, remaining: limit, reset: Math.ceil(end / 1000) };
}

export class RateLimiter {
  private readonly counters = new Map<string, Counter>();

  constructor(private readonly now: () => number) {}

  /** Decides on one request of `keyId` and, if it is admitted, counts it in both windows. */
  check(keyId: string, limits: Limits): Decision {
    const now = this.now();
    const counter = this.counterAt(keyId, now);
    const minuteEnd = (counter.minute + 1) * MINUTE_MS;
    const dayEnd = (counter.day + 1) * DAY_MS;

    if (counter.bannedUntil > now) {
      return {
        kind: 'banned',
        report: this.report(counter, limits),
        retryAfter: secondsUntil(counter.bannedUntil, now),
      };
    }
    if (counter.bannedUntil !== 0) {
      counter.bannedUntil = 0;
      counter.refusals = 0;
    }

    const dayUsedUp = counter.dayCount >= limits.perDay;
    const minuteUsedUp = counter.minuteCount >= limits.perMinute;
    if (dayUsedUp || minuteUsedUp) {
      // A used-up day outlasts the minute: the request is admitted again only when the day ends.
      const windowEnd = dayUsedUp ? dayEnd : minuteEnd;
      counter.refusals += 1;
      if (counter.refusals > BAN_AFTER_REFUSALS) {
        counter.bannedUntil = Math.max(windowEnd, now + BAN_MS);
        return {
          kind: 'banned',
          report: this.report(counter, limits),
          retryAfter: secondsUntil(counter.bannedUntil, now),
        };
      }
      return {
        kind: 'limited',
        report: this.report(counter, limits),
        window: dayUsedUp ? 'day' : 'minute',
        limit: dayUsedUp ? limits.perDay : limits.perMinute,
        retryAfter: secondsUntil(windowEnd, now),
      };
    }

    counter.minuteCount += 1;
    counter.dayCount += 1;
    counter.refusals = 0;
    const ticket = { keyId, minute: counter.minute, day: counter.day };
    return { kind: 'admitted', report: this.report(counter, limits), ticket };
  }

  /**
   * Takes back an admitted request that turned out never to be a well-formed HTTP request (its
   * body broke the message framing): such an answer "counts in no key's window". A window that
   * has ended since is left alone.
   */
  uncount(ticket: QuotaTicket): void {
    const counter = this.counters.get(ticket.keyId);
    if (counter === undefined) return;
    if (counter.minute === ticket.minute && counter.minuteCount > 0) counter.minuteCount -= 1;
    if (counter.day === ticket.day && counter.dayCount > 0) counter.dayCount -= 1;
  }

  /** The key's counter, with any window that has ended since its last request started afresh. */
  private counterAt(keyId: string, now: number): Counter {
    const minute = Math.floor(now / MINUTE_MS);
    const day = Math.floor(now / DAY_MS);
    let counter = this.counters.get(keyId);
    if (counter === undefined) {
      counter = { minute, minuteCount: 0, day, dayCount: 0, refusals: 0, bannedUntil: 0 };
      this.counters.set(keyId, counter);
    }
    if (counter.minute !== minute) {
      counter.minute = minute;
      counter.minuteCount = 0;
    }
    if (counter.day !== day) {
      counter.day = day;
      counter.dayCount = 0;
    }
    return counter;
  }

  /**
   * The window with fewer requests left. On a tie the day is reported: it ends later, so its
   * reset is never earlier than the moment the client can count on that many requests.
   */
  private report(counter: Counter, limits: Limits): WindowReport {
    const minuteLeft = Math.max(0, limits.perMinute - counter.minuteCount);
    const dayLeft = Math.max(0, limits.perDay - counter.dayCount);
    if (minuteLeft < dayLeft) {
      return {
        limit: limits.perMinute,
        remaining: minuteLeft,
        reset: ((counter.minute + 1) * MINUTE_MS) / 1000,
      };
    }
    return {
      limit: limits.perDay,
      remaining: dayLeft,
      reset: ((counter.day + 1) * DAY_MS) / 1000,
    };
  }
}
