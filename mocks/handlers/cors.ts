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

/**
 * Sets the CORS pair on an answer's headers, over any value there: every answer to a request with an
 * Origin, in every host (any origin may call the fake). Two stores by name: a loop over a constant's keys
 * stored by computed key, which costs more on every request.
 */
export function setCorsHeaders(headers: Record<string, string>): Record<string, string> {
  headers['Access-Control-Allow-Origin'] = '*';
  headers['Access-Control-Expose-Headers'] = EXPOSED_HEADERS;
  return headers;
}

/** The answer to a preflight `OPTIONS`: no key needed, no quota consumed. */
export const PREFLIGHT_HEADERS: Readonly<Record<string, string>> = {
  ...setCorsHeaders({}),
  'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
  // Prefer carries the fake-only per-request faults (docs/explanation/design.md section 5).
  'Access-Control-Allow-Headers': 'Authorization, Content-Type, Prefer',
  'Access-Control-Max-Age': '600',
};
