import type { FastifyReply } from 'fastify';

/** Request limits of the two fixed UTC windows. */
export interface Limits {
  readonly perMinute: number;
  readonly perDay: number;
}

export type WindowName = 'minute' | 'day';

/** One window as the X-RateLimit-* headers describe it. */
export interface RateWindow {
  readonly name: WindowName;
  readonly limit: number;
  /** Requests left in the window after this request. */
  readonly remaining: number;
  /** Unix epoch second at which the window ends. */
  readonly resetAt: number;
}

export interface Decision {
  /** True when both windows had room; the request was then counted (unless peeked). */
  readonly admitted: boolean;
  /** The window with fewer requests left (the later-ending one on a tie). */
  readonly window: RateWindow;
  /** When refused: the used-up window that keeps refusing longest. */
  readonly refusedBy?: RateWindow;
  /** When refused: whole seconds (at least 1) until `refusedBy` ends. */
  readonly retryAfter?: number;
}

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

interface Counter {
  minute: number;
  minuteCount: number;
  day: number;
  dayCount: number;
}

/**
 * Fixed-window counters for a per-minute and a per-day quota. Windows are aligned on the UTC
 * clock: Unix time has no leap seconds, so every multiple of 60 s starts a UTC minute and every
 * multiple of 86,400 s a UTC day. State is in memory, per instance.
 */
export class TwoWindowLimiter {
  readonly #now: () => number;
  readonly #counters = new Map<string, Counter>();
  #prunedDay = Number.NEGATIVE_INFINITY;

  constructor(now: () => number) {
    this.#now = now;
  }

  /** Admits and counts the request in both windows, or refuses it without counting. */
  consume(id: string, limits: Limits): Decision {
    return this.#decide(id, limits, true);
  }

  /** Describes the windows without counting anything. */
  peek(id: string, limits: Limits): Decision {
    return this.#decide(id, limits, false);
  }

  #decide(id: string, limits: Limits, count: boolean): Decision {
    const nowMs = this.#now();
    const minute = Math.floor(nowMs / MINUTE_MS);
    const day = Math.floor(nowMs / DAY_MS);
    this.#prune(day);

    const counter = this.#counters.get(id);
    let minuteCount = counter?.minute === minute ? counter.minuteCount : 0;
    let dayCount = counter?.day === day ? counter.dayCount : 0;
    const minuteFull = minuteCount >= limits.perMinute;
    const dayFull = dayCount >= limits.perDay;
    const admitted = !minuteFull && !dayFull;
    if (admitted && count) {
      minuteCount += 1;
      dayCount += 1;
      this.#counters.set(id, { minute, minuteCount, day, dayCount });
    }

    const minuteWindow = describe('minute', limits.perMinute, minuteCount, ((minute + 1) * MINUTE_MS) / 1000);
    const dayWindow = describe('day', limits.perDay, dayCount, ((day + 1) * DAY_MS) / 1000);
    const window = minuteWindow.remaining < dayWindow.remaining ? minuteWindow : dayWindow;
    if (admitted) return { admitted, window };

    const refusedBy = dayFull ? dayWindow : minuteWindow;
    const retryAfter = Math.max(1, Math.ceil(refusedBy.resetAt - nowMs / 1000));
    return { admitted, window, refusedBy, retryAfter };
  }

  /** Once per UTC day, forgets the counters of earlier days so the map cannot grow without end. */
  #prune(day: number): void {
    if (day <= this.#prunedDay) return;
    this.#prunedDay = day;
    for (const [id, counter] of this.#counters) {
      if (counter.day < day) this.#counters.delete(id);
    }
  }
}

function describe(name: WindowName, limit: number, used: number, resetAt: number): RateWindow {
  return { name, limit, remaining: Math.max(0, limit - used), resetAt };
}

export function rateLimitHeaders(window: RateWindow): Record<string, string> {
  return {
    'x-ratelimit-limit': String(window.limit),
    'x-ratelimit-remaining': String(window.remaining),
    'x-ratelimit-reset': String(window.resetAt),
  };
}

export function setRateLimitHeaders(reply: FastifyReply, window: RateWindow): void {
  reply.headers(rateLimitHeaders(window));
}

/** The `rate_limit_exceeded` message, as in the spec's example. */
export function quotaMessage(decision: Decision, prefix = 'The'): string {
  const refused = decision.refusedBy ?? decision.window;
  return `${prefix} per-${refused.name} limit of ${refused.limit} requests is used up; retry after ${decision.retryAfter ?? 1} s.`;
}
