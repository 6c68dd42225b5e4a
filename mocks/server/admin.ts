import { timingSafeEqual } from 'node:crypto';
import { apiError, type ApiError } from '../domain/errors.js';
import { payloadTooLargeError } from '../domain/request-body.js';
import type { Fake } from '../fake.js';

/** Who may use `/__admin`: anyone on a loopback-bound fake, else only holders of the token. */
export interface AdminAccess {
  loopback: boolean;
  token?: string;
}

/** An answer of the admin API. */
export interface AdminAnswer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

// The clock stays where every header the fake derives from it is still what the spec allows: before 1970
// X-RateLimit-Reset turns negative; past Date's range (year 275760) it is not a number at all.
const EARLIEST_EPOCH_SECONDS = 0;
const LATEST_EPOCH_SECONDS = Date.UTC(9999, 11, 31, 23, 59, 59) / 1000;

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|::1|\[::1\])$/;

/** Whether a host name or address is loopback-only. */
export function isLoopbackHost(host: string): boolean {
  return LOOPBACK.test(host);
}

/** Whether an `Origin` header names a page served from this machine (`null` and garbage do not). */
export function isLoopbackOrigin(origin: string): boolean {
  try {
    return isLoopbackHost(new URL(origin).hostname);
  } catch {
    return false;
  }
}

function error(failure: ApiError, headers?: Record<string, string>): AdminAnswer {
  return { status: failure.status, body: failure, ...(headers && { headers }) };
}

function tokenMatches(authorization: string | undefined, token: string): boolean {
  const expected = Buffer.from(`Bearer ${token}`);
  const given = Buffer.from(authorization ?? '');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * `POST /__admin/reset` and `POST /__admin/clock` ({ advanceSeconds } or { epochSeconds }).
 * Off when bound beyond loopback without a token; the token, when set, is always required.
 * Without a token it is also off for browser pages of other origins: any site the developer visits
 * can send a request to 127.0.0.1 (or rebind its own name to it), and browsers name that site in `Origin`.
 */
export async function answerAdmin(
  fake: Fake,
  access: AdminAccess,
  request: { method: string; path: string; authorization?: string; origin?: string; body: () => unknown; bodyOverLimit?: boolean },
): Promise<AdminAnswer> {
  if (access.token === undefined && !access.loopback) {
    return error(apiError('not_found', `No operation at ${request.method} ${request.path}.`));
  }
  if (access.token === undefined && request.origin !== undefined && !isLoopbackOrigin(request.origin)) {
    return error(apiError('not_found', `No operation at ${request.method} ${request.path} for a page of another origin; the admin API needs --admin-token for that.`));
  }
  if (access.token !== undefined && !tokenMatches(request.authorization, access.token)) {
    return error(apiError('invalid_api_key', 'The admin API needs Authorization: Bearer <admin token>.'), { 'WWW-Authenticate': 'Bearer realm="petstore-admin"' });
  }
  const route = ['/__admin/reset', '/__admin/clock'].find((path) => path === request.path);
  if (!route) return error(apiError('not_found', `No operation at ${request.method} ${request.path}.`));
  if (request.method !== 'POST') return error(apiError('method_not_allowed', `${request.method} is not allowed on ${route}; use POST.`), { Allow: 'POST' });
  if (route === '/__admin/reset') {
    await fake.reset();
    return { status: 204 };
  }
  if (request.bodyOverLimit) return error(payloadTooLargeError());
  const body = request.body() as { advanceSeconds?: unknown; epochSeconds?: unknown } | undefined;
  const keys = body && typeof body === 'object' ? Object.keys(body) : [];
  const [field] = keys;
  const value = field === undefined ? undefined : (body as Record<string, unknown>)[field];
  if (keys.length !== 1 || (field !== 'advanceSeconds' && field !== 'epochSeconds') || typeof value !== 'number' || !Number.isFinite(value)) {
    return error(apiError('invalid_request', 'body: send exactly one of {"advanceSeconds": n} or {"epochSeconds": n}, n a finite number.'));
  }
  const target = field === 'advanceSeconds' ? fake.clock.now() / 1000 + value : value;
  if (!(target >= EARLIEST_EPOCH_SECONDS && target <= LATEST_EPOCH_SECONDS)) {
    return error(apiError('invalid_request', `body: ${field} would move the clock outside 1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z.`));
  }
  if (field === 'advanceSeconds') fake.clock.advance(value);
  else fake.clock.setEpochSeconds(value);
  return { status: 200, body: { epochSeconds: Math.floor(fake.clock.now() / 1000) } };
}
