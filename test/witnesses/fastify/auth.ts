import { createHash } from 'node:crypto';
import type { Limits } from './rate-limiter.js';

/** A key the service accepts, and its plan (enterprise keys carry their own limits). */
export interface WitnessKey {
  key: string;
  plan: 'free' | 'pro' | 'business' | 'enterprise';
  perMinute?: number;
  perDay?: number;
}

/** Per-plan quotas from the spec; enterprise limits are agreed per key. */
export const PLAN_LIMITS: Readonly<Record<Exclude<WitnessKey['plan'], 'enterprise'>, Limits>> = {
  free: { perMinute: 60, perDay: 1_000 },
  pro: { perMinute: 300, perDay: 10_000 },
  business: { perMinute: 1_000, perDay: 100_000 },
};

/** RFC 6750 §2.1: b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"=" */
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

export interface AcceptedKey {
  /** Stable id for the key's counters: a digest, so raw keys are kept in one place only. */
  readonly id: string;
  readonly plan: WitnessKey['plan'];
  readonly limits: Limits;
}

function digest(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

function isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

function limitsOf(key: WitnessKey): Limits {
  if (key.plan === 'enterprise') {
    if (!isCount(key.perMinute) || !isCount(key.perDay)) {
      throw new TypeError(`Enterprise key ${key.key.slice(0, 4)}… needs integer perMinute and perDay.`);
    }
    return { perMinute: key.perMinute, perDay: key.perDay };
  }
  const limits = PLAN_LIMITS[key.plan];
  if ((key.perMinute ?? limits.perMinute) !== limits.perMinute || (key.perDay ?? limits.perDay) !== limits.perDay) {
    throw new TypeError(`Only enterprise keys have their own limits; a ${key.plan} key has the plan's.`);
  }
  return limits;
}

/** The API keys the service accepts. Lookups go by SHA-256 digest, so they take the same time for any key. */
export class KeyRegistry {
  readonly #byDigest = new Map<string, AcceptedKey>();

  constructor(keys: readonly WitnessKey[]) {
    for (const key of keys) {
      if (!B64TOKEN.test(key.key)) throw new TypeError('An API key must be an RFC 6750 b64token.');
      if (!(key.plan in PLAN_LIMITS) && key.plan !== 'enterprise')
        throw new TypeError(`Unknown plan ${String(key.plan)}.`);
      const id = digest(key.key);
      if (this.#byDigest.has(id)) throw new TypeError('The same API key is configured twice.');
      this.#byDigest.set(id, { id, plan: key.plan, limits: limitsOf(key) });
    }
  }

  lookup(token: string): AcceptedKey | undefined {
    return this.#byDigest.get(digest(token));
  }
}

/** What the Authorization header carries, as far as bearer authentication is concerned. */
export type Credentials =
  | { readonly kind: 'none'; readonly message: string }
  | { readonly kind: 'malformed' }
  | { readonly kind: 'token'; readonly token: string };

const NO_KEY = 'No API key: send Authorization: Bearer <API_KEY>.';

/**
 * Reads `Authorization: Bearer <token>` (RFC 6750 §2.1, RFC 9110 §11.4: the scheme is
 * case-insensitive and separated from the credentials by one or more spaces).
 * Another scheme is no bearer credential at all, so it is treated as a missing key
 * (RFC 6750 §3.1: a request that "attempted using an unsupported authentication method"
 * lacks authentication information).
 */
export function readCredentials(header: string | undefined): Credentials {
  // Only HTTP's own whitespace (SP, HTAB) is trimmed: String#trim also takes U+00A0, which admitted
  // `Bearer <key>\u00a0` as the key (the contract suite's malformed_credentials_refused found it).
  const value = (header ?? '').replace(/^[ \t]+|[ \t]+$/g, '');
  if (value === '') return { kind: 'none', message: NO_KEY };
  const space = value.indexOf(' ');
  const scheme = space === -1 ? value : value.slice(0, space);
  if (scheme.toLowerCase() !== 'bearer') {
    return {
      kind: 'none',
      message:
        'No API key: the Authorization header does not use the Bearer scheme; send Authorization: Bearer <API_KEY>.',
    };
  }
  const token = space === -1 ? '' : value.slice(space).replace(/^ +/, '');
  if (token === '') return { kind: 'none', message: NO_KEY };
  if (!B64TOKEN.test(token)) return { kind: 'malformed' };
  return { kind: 'token', token };
}

const REALM = 'realm="petstore"';

/** RFC 6750 §3: no error code when no key was sent; `invalid_token` when one was. */
export function challenge(credentials: Credentials): string {
  if (credentials.kind === 'none') return `Bearer ${REALM}`;
  return `Bearer ${REALM}, error="invalid_token", error_description="The API key is not valid"`;
}
