/** Response headers a browser may read cross-origin; without this list it sees none of them. */
export const EXPOSED_HEADERS = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'RateLimit',
  'RateLimit-Policy',
  'Retry-After',
  'Deprecation',
  'Sunset',
  'Link',
  'WWW-Authenticate',
  'Allow',
  'Preference-Applied',
].join(', ');

/** CORS headers on every response of the standalone fake: any origin may call it. */
export const CORS_HEADERS: Readonly<Record<string, string>> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': EXPOSED_HEADERS,
};

/** The answer to a preflight `OPTIONS`: no key needed, no quota consumed. */
export const PREFLIGHT_HEADERS: Readonly<Record<string, string>> = {
  ...CORS_HEADERS,
  'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
  // Prefer carries the fake-only per-request faults (docs/explanation/design.md section 5).
  'Access-Control-Allow-Headers': 'Authorization, Content-Type, Prefer',
  'Access-Control-Max-Age': '600',
};
