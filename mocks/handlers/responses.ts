import type { RateLimitView } from '../domain/access.js';

/**
 * On every answer under the base address: an answer to a keyed request is never stored by a cache, and
 * a browser never reads JSON as another type (OWASP API8:2023 hardening; spec/ASSUMPTIONS.md).
 */
export const HARDENING_HEADERS: Readonly<Record<string, string>> = {
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
};

/**
 * The `X-RateLimit-*` headers, and the IETF draft `RateLimit-Policy` / `RateLimit` fields when both windows are known.
 * @example rateLimitHeaders(access.rateLimit, clock.now())
 */
export function rateLimitHeaders(view: RateLimitView, nowMs: number): Record<string, string> {
  const headers: Record<string, string> = {
    'X-RateLimit-Limit': String(view.limit),
    'X-RateLimit-Remaining': String(view.remaining),
    'X-RateLimit-Reset': String(view.resetEpochSeconds),
  };
  if (view.windows) {
    headers['RateLimit-Policy'] = view.windows.map((w) => `"${w.name}";q=${w.limit};w=${w.seconds}`).join(', ');
    const secondsLeft = Math.max(0, Math.ceil(view.resetEpochSeconds - nowMs / 1000));
    const described = view.windows.find(
      (w) => w.resetEpochSeconds === view.resetEpochSeconds && w.limit === view.limit,
    );
    if (described) headers.RateLimit = `"${described.name}";r=${view.remaining};t=${secondsLeft}`;
  }
  return headers;
}
