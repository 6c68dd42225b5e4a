import { headerOf, type Exchange } from './exchange.js';
import { integerHeaderVerdict, type HeaderProblem } from './header-value.js';

/** The names of the `X-RateLimit-*` triple. */
export const RATE_LIMIT_FIELDS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'] as const;

/**
 * Whether an answer carries none of the triple: what the spec lets a `401` do when the service keeps no
 * limit on requests without a valid key ("A service that keeps no such limit may leave them out").
 */
export function carriesNoRateLimitFields(exchange: Exchange): boolean {
  return RATE_LIMIT_FIELDS.every((name) => headerOf(exchange, name) === undefined);
}

/** The `X-RateLimit-*` triple of one answer. */
export interface RateLimitHeaders {
  limit: number;
  remaining: number;
  reset: number;
}

/** The triple an answer announces, or the first of its headers that is missing or not plain digits. */
export type RateLimitVerdict = { ok: true; headers: RateLimitHeaders } | { ok: false; problem: HeaderProblem };

/**
 * Reads the `X-RateLimit-*` triple. Pure: a check throws the problem, the run's model judges only the
 * answers that announce a whole triple.
 * @example rateLimitVerdict(exchange, 'request 1 of 3') // { ok: true, headers: { limit: 60, remaining: 59, reset: 1767225660 } }
 */
export function rateLimitVerdict(exchange: Exchange, context?: string): RateLimitVerdict {
  const limit = integerHeaderVerdict(exchange, 'X-RateLimit-Limit', context);
  if (!limit.ok) return limit;
  const remaining = integerHeaderVerdict(exchange, 'X-RateLimit-Remaining', context);
  if (!remaining.ok) return remaining;
  const reset = integerHeaderVerdict(exchange, 'X-RateLimit-Reset', context);
  if (!reset.ok) return reset;
  return { ok: true, headers: { limit: limit.value, remaining: remaining.value, reset: reset.value } };
}
