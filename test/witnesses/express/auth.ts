import { createHash } from 'node:crypto';
import type { RequestHandler, Response } from 'express';
import { sendError } from './errors.js';
import { PLAN_LIMITS, type Limits, type Plan, type RateLimiter, type WindowReport } from './rate-limiter.js';

export interface KeyConfig {
  key: string;
  plan: Plan;
  perMinute?: number;
  perDay?: number;
}

interface KeyRecord {
  /** The key's SHA-256, used as its identity so the key itself is kept in one place only. */
  readonly id: string;
  readonly limits: Limits;
}

function digest(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

function isPositiveInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}

function limitsOf(config: KeyConfig): Limits {
  if (config.plan === 'enterprise') {
    // "enterprise (limits agreed per key)"
    if (!isPositiveInteger(config.perMinute) || !isPositiveInteger(config.perDay)) {
      throw new TypeError('an enterprise key needs positive integer perMinute and perDay');
    }
    return { perMinute: config.perMinute, perDay: config.perDay };
  }
  const limits = PLAN_LIMITS[config.plan] as Limits | undefined;
  if (limits === undefined) throw new TypeError(`unknown plan ${JSON.stringify(config.plan)}`);
  const overridden =
    (config.perMinute !== undefined && config.perMinute !== limits.perMinute) ||
    (config.perDay !== undefined && config.perDay !== limits.perDay);
  if (overridden) throw new TypeError(`the ${config.plan} plan's limits are fixed by the spec`);
  return limits;
}

/** The keys the service accepts, looked up by digest (no early-exit comparison of secrets). */
export class KeyRegistry {
  private readonly records = new Map<string, KeyRecord>();

  constructor(keys: readonly KeyConfig[]) {
    for (const config of keys) {
      if (!B64TOKEN.test(config.key)) {
        throw new TypeError('an API key must be a bearer token (RFC 6750 b64token)');
      }
      const id = digest(config.key);
      if (this.records.has(id)) throw new TypeError('the same API key is configured twice');
      this.records.set(id, { id, limits: limitsOf(config) });
    }
  }

  find(token: string): KeyRecord | undefined {
    return this.records.get(digest(token));
  }
}

/** RFC 6750 §2.1: b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"=" */
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

export type Credentials =
  { readonly kind: 'none'; readonly scheme?: string } | { readonly kind: 'token'; readonly token: string };

/**
 * Reads `Authorization: Bearer <token>`. The scheme name is case-insensitive (RFC 9110 §11.1).
 * Another scheme, or "Bearer" with nothing after it, sends no API key: RFC 6750 §3.1 treats an
 * unsupported authentication method like a request that "lacks any authentication information".
 */
export function readCredentials(header: string | undefined): Credentials {
  // Node already strips the field's OWS (SP, HTAB); String#trim would also strip U+00A0 and other
  // Unicode spaces, admitting `Bearer <key>\u00a0` as the key (RFC 6750 §2.1: b64token has no such character).
  const value = header?.replace(/^[ \t]+|[ \t]+$/g, '') ?? '';
  if (value === '') return { kind: 'none' };
  const scheme = value.split(/\s/, 1)[0]!;
  if (scheme.toLowerCase() !== 'bearer') return { kind: 'none', scheme };
  const token = value.slice(scheme.length).replace(/^\s+/, '');
  return token === '' ? { kind: 'none' } : { kind: 'token', token };
}

const REALM = 'Bearer realm="petstore"';

/** The gate's dependencies: the keys, their quotas, and what a 401 reports in X-RateLimit-*. */
export interface GateOptions {
  readonly keys: KeyRegistry;
  readonly limiter: RateLimiter;
  readonly keylessWindow: () => WindowReport;
}

export function setRateLimitHeaders(res: Response, report: WindowReport): void {
  res.set({
    'X-RateLimit-Limit': String(report.limit),
    'X-RateLimit-Remaining': String(report.remaining),
    'X-RateLimit-Reset': String(report.reset),
  });
}

/**
 * "Authentication and quota are evaluated first, then routing, then validation." Mounted before
 * every route, so unknown paths and unsupported methods are counted like any other request.
 */
export function authAndQuota(options: GateOptions): RequestHandler {
  const { keys, limiter, keylessWindow } = options;
  return (req, res, next) => {
    const credentials = readCredentials(req.headers.authorization);
    if (credentials.kind === 'none') {
      // "A `401` counts in no key's window": X-RateLimit-* describe the keyless allowance.
      setRateLimitHeaders(res, keylessWindow());
      res.set('WWW-Authenticate', REALM);
      // Never the scheme's text: a key sent without "Bearer " stands where the scheme would (the
      // contract suite's credential_never_echoed found our first message echoing it).
      const other =
        credentials.scheme !== undefined && credentials.scheme.toLowerCase() !== 'bearer'
          ? ' (only the Bearer scheme is accepted)'
          : '';
      sendError(res, 401, 'missing_api_key', `No API key${other}: send Authorization: Bearer <API_KEY>.`);
      return;
    }
    const record = B64TOKEN.test(credentials.token) ? keys.find(credentials.token) : undefined;
    if (record === undefined) {
      setRateLimitHeaders(res, keylessWindow());
      // The spec: WWW-Authenticate "carries `error="invalid_token"` when a key was sent".
      res.set('WWW-Authenticate', `${REALM}, error="invalid_token"`);
      sendError(res, 401, 'invalid_api_key', 'The API key is not valid.');
      return;
    }

    const decision = limiter.check(record.id, record.limits);
    setRateLimitHeaders(res, decision.report);
    if (decision.kind === 'admitted') {
      res.locals.quotaTicket = decision.ticket;
      next();
      return;
    }
    res.set('Retry-After', String(decision.retryAfter));
    if (decision.kind === 'banned') {
      sendError(
        res,
        429,
        'temporarily_banned',
        `The API key is temporarily banned for requests repeated after 429; retry after ${decision.retryAfter} s.`,
      );
      return;
    }
    sendError(
      res,
      429,
      'rate_limit_exceeded',
      `The per-${decision.window} limit of ${decision.limit} requests is used up; retry after ${decision.retryAfter} s.`,
    );
  };
}
