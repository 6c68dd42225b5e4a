import { authenticate, bearerChallenge } from './auth.js';
import { BanList, type BanPolicy } from './ban.js';
import { ceilSeconds, type Clock } from './clock.js';
import { apiError, type ApiError } from './errors.js';
import { PLAN_LIMITS, type ApiKey } from './plans.js';
import { QuotaCounters, type QuotaDecision, type WindowName, type WindowState } from './quota.js';

/** What the `X-RateLimit-*` headers of a response say, and the draft fields' windows when known. */
export interface RateLimitView {
  limit: number;
  remaining: number;
  resetEpochSeconds: number;
  windows?: WindowState[];
}

/** The outcome of the auth and quota guards for one request. */
export type Access =
  | { granted: true; apiKey: ApiKey; rateLimit: RateLimitView }
  | {
      granted: false;
      error: ApiError;
      rateLimit: RateLimitView;
      retryAfterSeconds?: number;
      challenge?: string;
      apiKey?: ApiKey;
    };

/** Options of {@link AccessControl}. */
export interface AccessControlOptions {
  keys: readonly ApiKey[];
  clock: Clock;
  ban: BanPolicy;
  /** Most client addresses whose anonymous bucket is kept at once (the idlest go first). */
  anonymousCapacity: number;
}

/**
 * Auth, per-key quota, the anonymous per-address bucket and the ban, evaluated in that order.
 * @example const access = control.check(request.headers.get('authorization'), '127.0.0.1');
 */
export class AccessControl {
  readonly #keys: ReadonlyMap<string, ApiKey>;
  readonly #clock: Clock;
  readonly #keyQuota = new QuotaCounters();
  readonly #anonymousQuota: QuotaCounters;
  readonly #bans: BanList;
  readonly #revoked = new Set<string>();

  constructor(options: AccessControlOptions) {
    this.#keys = new Map(options.keys.map((apiKey) => [apiKey.key, apiKey]));
    this.#clock = options.clock;
    this.#anonymousQuota = new QuotaCounters(options.anonymousCapacity);
    this.#bans = new BanList(options.ban);
  }

  /** Subjects tracked by the quota: keys and anonymous client addresses (for memory tests). */
  get trackedSubjects(): { keys: number; anonymous: number } {
    return { keys: this.#keyQuota.size, anonymous: this.#anonymousQuota.size };
  }

  check(authorization: string | null, clientAddress: string): Access {
    const nowMs = this.#clock.now();
    const auth = authenticate(authorization, this.#keys);
    if (!auth.ok) return this.#anonymous(clientAddress, auth.code, auth.message, nowMs);
    const { apiKey } = auth;
    // A revoked key is refused like any key the service does not know, from the sender's address bucket.
    if (this.#revoked.has(apiKey.key))
      return this.#anonymous(clientAddress, 'invalid_api_key', REVOKED_KEY_MESSAGE, nowMs);
    const bannedUntil = this.#bans.bannedUntil(apiKey.key, nowMs);
    if (bannedUntil !== undefined) return banned(apiKey, bannedUntil, nowMs);

    const quota = this.#keyQuota.consume(apiKey.key, apiKey.limits, nowMs);
    if (!quota.admitted) {
      const banEnd = this.#bans.recordRejection(apiKey.key, nowMs);
      if (banEnd !== undefined) return banned(apiKey, banEnd, nowMs);
    }
    return keyAccess(apiKey, quota);
  }

  /** The key's record, or undefined when no such key is configured. */
  keyOf(key: string): ApiKey | undefined {
    return this.#keys.get(key);
  }

  /** Both windows of a key now, without counting a request. */
  windowsOf(apiKey: ApiKey): WindowState[] {
    return this.#keyQuota.peek(apiKey.key, apiKey.limits, this.#clock.now());
  }

  /** Sets what is left of a key's current windows; what follows is the ordinary quota. */
  setRemaining(apiKey: ApiKey, remaining: Partial<Record<WindowName, number>>): void {
    this.#keyQuota.setRemaining(apiKey.key, apiKey.limits, this.#clock.now(), remaining);
  }

  /** The epoch millisecond a key's ban ends, or undefined when it is not banned. */
  bannedUntil(key: string): number | undefined {
    return this.#bans.bannedUntil(key, this.#clock.now());
  }

  /** Bans a key from now for `seconds` (the policy's length when absent); it ends on the fake's clock. */
  ban(key: string, seconds = this.#bans.policy.seconds): void {
    this.#bans.ban(key, this.#clock.now() + seconds * 1000);
  }

  unban(key: string): void {
    this.#bans.lift(key);
  }

  isRevoked(key: string): boolean {
    return this.#revoked.has(key);
  }

  /** Revoked keys answer 401 `invalid_api_key` until restored. */
  revoke(key: string): void {
    this.#revoked.add(key);
  }

  restore(key: string): void {
    this.#revoked.delete(key);
  }

  /** Clears every counter, ban and revocation. */
  reset(): void {
    this.#keyQuota.clear();
    this.#anonymousQuota.clear();
    this.#bans.clear();
    this.#revoked.clear();
  }

  #anonymous(
    clientAddress: string,
    code: 'missing_api_key' | 'invalid_api_key',
    message: string,
    nowMs: number,
  ): Access {
    return anonymousAccess(this.#anonymousQuota.consume(clientAddress, PLAN_LIMITS.free, nowMs), code, message);
  }
}

/** A key's request after its quota decided: admitted, or 429. (The ban is decided before.) */
export function keyAccess(apiKey: ApiKey, quota: QuotaDecision): Access {
  const rateLimit = rateLimitViewOf(quota);
  if (quota.admitted) return { granted: true, apiKey, rateLimit };
  return {
    granted: false,
    apiKey,
    error: rateLimitError(quota.described, quota.retryAfterSeconds!),
    rateLimit,
    retryAfterSeconds: quota.retryAfterSeconds!,
  };
}

/** A request without a valid key, counted in its address's bucket: 401, or 429 once the bucket is empty. */
export function anonymousAccess(
  quota: QuotaDecision,
  code: 'missing_api_key' | 'invalid_api_key',
  message: string,
): Access {
  const rateLimit = rateLimitViewOf(quota);
  if (!quota.admitted)
    return {
      granted: false,
      error: rateLimitError(quota.described, quota.retryAfterSeconds!),
      rateLimit,
      retryAfterSeconds: quota.retryAfterSeconds!,
    };
  return { granted: false, error: apiError(code, message), rateLimit, challenge: bearerChallenge(code) };
}

// Built field by field: spreading the window state into a new object was most of the access check's
// time in a profile under load.
function rateLimitViewOf({ described, windows }: QuotaDecision): RateLimitView {
  return {
    limit: described.limit,
    remaining: described.remaining,
    resetEpochSeconds: described.resetEpochSeconds,
    windows,
  };
}

/** The message of a revoked key's 401. */
export const REVOKED_KEY_MESSAGE = 'The API key has been revoked.';

function rateLimitError(window: WindowState, retryAfterSeconds: number): ApiError {
  return apiError(
    'rate_limit_exceeded',
    `The per-${window.name} limit of ${window.limit} requests is used up; retry after ${retryAfterSeconds} s.`,
  );
}

/** A banned key's 429 `temporarily_banned`, `Retry-After` the seconds left. */
export function banned(apiKey: ApiKey, untilMs: number, nowMs: number): Access {
  const retryAfterSeconds = Math.max(1, ceilSeconds(untilMs - nowMs));
  const resetEpochSeconds = ceilSeconds(untilMs);
  return {
    granted: false,
    apiKey,
    error: apiError(
      'temporarily_banned',
      `This API key kept calling after 429 responses and is banned until ${new Date(resetEpochSeconds * 1000).toISOString()}; retry after ${retryAfterSeconds} s.`,
    ),
    rateLimit: { limit: apiKey.limits.perMinute, remaining: 0, resetEpochSeconds },
    retryAfterSeconds,
  };
}
