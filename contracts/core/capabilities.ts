/**
 * What a target permits or supports. A check lists the capabilities it needs; a target that lacks one
 * skips the check with the target's reason for lacking it.
 */
export const CAPABILITIES = {
  stateful: 'remembers created categories and counts requests against the key',
  writes: 'may create categories',
  quota: 'may be driven to one 429 (never to a ban)',
  clock: 'has a clock the suite can move (/__admin/clock)',
  realAuth: 'rejects keys it does not know',
  deprecationHeaders: 'sends its own Deprecation, Sunset and Link values',
  uniformErrors: "answers routing and parsing errors (unknown path, other method, bad JSON) with the spec's Error",
  bodyLimit: 'refuses bodies over 16 KiB',
  hostChecked: 'answers 400 to an HTTP/1.1 request without Host or with two Host fields (RFC 9112 §3.2)',
  httpEquivalences:
    'answers requests that HTTP says are the same (scheme and header-name case, spacing, media type spellings) alike',
  exactParameters: 'reads integer path parameters exactly: the whole int64 range, no hexadecimal or exponent coercion',
  preferredStatus:
    "answers `Prefer: code=500` with the 500 the spec declares (the fake's and Prism's test control), so the declared failure can be checked",
  closedCors:
    'serves CORS as a service behind a key must: credentials only to origins it trusts, and where it grants an origin, the key’s header allowed and the spec’s headers exposed',
} as const;

export type Capability = keyof typeof CAPABILITIES;
