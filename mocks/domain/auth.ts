import type { ApiKey } from './plans.js';

/** The outcome of reading the `Authorization` header. */
export type Authentication =
  { ok: true; apiKey: ApiKey } | { ok: false; code: 'missing_api_key' | 'invalid_api_key'; message: string };

// Longer than any key we issue by far; refusing early keeps hostile headers out of every map lookup.
const MAX_AUTHORIZATION_LENGTH = 1024;
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/**
 * Resolves the API key of a request from its `Authorization` header.
 * @example authenticate('Bearer free-test-key', keysByToken)
 */
export function authenticate(authorization: string | null, keys: ReadonlyMap<string, ApiKey>): Authentication {
  if (authorization === null || authorization.trim() === '') {
    return { ok: false, code: 'missing_api_key', message: 'No API key: send Authorization: Bearer <API_KEY>.' };
  }
  if (authorization.length > MAX_AUTHORIZATION_LENGTH) {
    return {
      ok: false,
      code: 'invalid_api_key',
      message: `The Authorization header is over ${MAX_AUTHORIZATION_LENGTH} characters.`,
    };
  }
  const token = bearerToken(authorization);
  if (token === undefined) {
    return { ok: false, code: 'invalid_api_key', message: 'The Authorization header must be "Bearer <API_KEY>".' };
  }
  const apiKey = keys.get(token);
  if (!apiKey) return { ok: false, code: 'invalid_api_key', message: 'The API key is not valid.' };
  return { ok: true, apiKey };
}

/** The credential of a well-formed `Authorization: Bearer <token>` header, whether or not the key exists. */
export function bearerToken(authorization: string | null): string | undefined {
  if (authorization === null || authorization.length > MAX_AUTHORIZATION_LENGTH) return undefined;
  return BEARER.exec(authorization)?.[1];
}

/** The `WWW-Authenticate` challenge of a 401: RFC 6750 adds `error` only when a credential was sent. */
export function bearerChallenge(code: 'missing_api_key' | 'invalid_api_key'): string {
  return code === 'missing_api_key' ? 'Bearer realm="petstore"' : 'Bearer realm="petstore", error="invalid_token"';
}
