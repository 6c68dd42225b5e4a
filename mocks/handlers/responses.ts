import type { RateLimitView } from '../domain/access.js';
import type { WindowState } from '../domain/quota.js';

/**
 * On every answer under the base address: an answer to a keyed request is never stored by a cache, and
 * a browser never reads JSON as another type (OWASP API8:2023 hardening; spec/ASSUMPTIONS.md).
 */
export const HARDENING_HEADERS: Readonly<Record<string, string>> = {
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
};

/**
 * The headers a request earns at admission, granted or refused: the `X-RateLimit-*` fields, the
 * hardening pair, and the IETF draft `RateLimit-Policy` / `RateLimit` fields when both windows are known
 * (CORS is the pipeline's last stage). Written as one object literal: one hidden class and one allocation
 * per request, where spreading objects together and adding keys one by one was a third of the pipeline's
 * own time.
 * @example guardHeaders(access.rateLimit, clock.now())['X-RateLimit-Remaining'] // '59'
 */
export function guardHeaders(view: RateLimitView, nowMs: number): Record<string, string> {
  const headers: Record<string, string> = {
    'X-RateLimit-Limit': String(view.limit),
    'X-RateLimit-Remaining': String(view.remaining),
    'X-RateLimit-Reset': String(view.resetEpochSeconds),
    'Cache-Control': HARDENING_HEADERS['Cache-Control']!,
    'X-Content-Type-Options': HARDENING_HEADERS['X-Content-Type-Options']!,
  };
  const { windows } = view;
  if (windows) {
    headers['RateLimit-Policy'] = policyOf(windows);
    const secondsLeft = Math.max(0, Math.ceil(view.resetEpochSeconds - nowMs / 1000));
    const described = windows.find((w) => w.resetEpochSeconds === view.resetEpochSeconds && w.limit === view.limit);
    if (described) headers.RateLimit = `"${described.name}";r=${view.remaining};t=${secondsLeft}`;
  }
  return headers;
}

// `RateLimit-Policy` names the windows and their limits: the same text for every request of a key, so
// the last one is kept (a busy key is asked again and again) instead of being joined anew.
let lastPolicy: { windows: readonly WindowState[]; policy: string } | undefined;

function policyOf(windows: readonly WindowState[]): string {
  if (lastPolicy && samePolicy(lastPolicy.windows, windows)) return lastPolicy.policy;
  const policy = windows.map((w) => `"${w.name}";q=${w.limit};w=${w.seconds}`).join(', ');
  lastPolicy = { windows, policy };
  return policy;
}

function samePolicy(a: readonly WindowState[], b: readonly WindowState[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1)
    if (a[i]!.name !== b[i]!.name || a[i]!.limit !== b[i]!.limit || a[i]!.seconds !== b[i]!.seconds) return false;
  return true;
}
