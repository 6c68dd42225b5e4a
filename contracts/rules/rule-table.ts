/**
 * The rules the spec stands on without restating them: HTTP (RFC 9110, RFC 9111), the bearer scheme
 * (RFC 6750), JSON (RFC 8259) and the security norms of an API behind a key (OWASP API Security Top 10,
 * 2023). What `spec/openapi.yaml` says wins; where it is silent a MUST fails a run and a SHOULD warns
 * (`--strict` makes it fail). OWASP items: a leak or a credential misused is a MUST, hardening no RFC
 * requires a SHOULD (docs/explanation/robustness-and-security.md).
 *
 * `model: true` rows are judged by the run's one model on every exchange, whichever check (or `watch`)
 * saw it; `checks` are the checks that send the requests which put the rule to the test.
 */
import type { Capability } from '../core/capabilities.js';

export type Strength = 'MUST' | 'SHOULD';

/** Where a rule applies. */
export type RuleScope =
  | 'every answer'
  | 'answers to credentialed requests'
  | 'a header when present'
  | 'a status'
  | 'a method'
  | 'every request';

export interface Rule {
  source: string;
  /** What a target must support for the rule to be judged there (a development mock is not held to production CORS). */
  needs?: readonly Capability[];
  strength: Strength;
  appliesTo: RuleScope;
  says: string;
  model: boolean;
  checks: readonly string[];
}

export const RULES = {
  content_type_on_content: {
    source: 'RFC 9110 §8.3',
    strength: 'SHOULD',
    appliesTo: 'every answer',
    says: 'an answer with content carries Content-Type',
    model: true,
    checks: ['answers_keep_the_protocol'],
  },
  content_type_syntax: {
    source: 'RFC 9110 §8.3, §8.3.1, §5.3',
    strength: 'MUST',
    appliesTo: 'a header when present',
    says: 'Content-Type is one media type (type/subtype and parameters), in one field: a list or a second Content-Type names no type a client can read',
    model: true,
    checks: ['answers_keep_the_protocol'],
  },
  date_on_answers: {
    source: 'RFC 9110 §6.6.1, §5.6.7',
    strength: 'MUST',
    appliesTo: 'every answer',
    says: 'an origin server with a clock sends Date on every 2xx, 3xx and 4xx answer, as an IMF-fixdate (Sun, 06 Nov 1994 08:49:37 GMT), the one form a sender generates',
    model: true,
    checks: ['answers_keep_the_protocol'],
  },
  location_names_this_interface: {
    source: 'RFC 9110 §10.2.2, §15.3.2; OWASP API8:2023',
    strength: 'MUST',
    appliesTo: 'a header when present',
    says: 'Location is a URI-reference naming a resource of the interface that answered (its origin): a 201’s Location is the record created, never another host a client would follow',
    model: true,
    checks: ['create_category_conforms', 'valid_bodies_stored_as_sent'],
  },
  content_is_its_media_type: {
    source: 'RFC 9110 §8.3; RFC 8259 §2',
    strength: 'MUST',
    appliesTo: 'a header when present',
    says: 'content labelled application/json (or +json) is one JSON text',
    model: true,
    checks: ['answers_keep_the_protocol'],
  },
  content_length_matches: {
    source: 'RFC 9110 §8.6; RFC 9112 §6.3',
    strength: 'MUST',
    appliesTo: 'a header when present',
    says: 'Content-Length is the number of bytes of the content (none after HEAD or in a 304)',
    model: true,
    checks: ['answers_keep_the_protocol'],
  },
  json_is_utf8_without_bom: {
    source: 'RFC 8259 §8.1',
    strength: 'MUST',
    appliesTo: 'a header when present',
    says: 'JSON content is UTF-8 without a byte order mark, and a charset parameter, if any, says utf-8',
    model: true,
    checks: ['answers_keep_the_protocol'],
  },
  json_media_type_parameters: {
    source: 'RFC 8259 §11; RFC 9110 §8.3.1',
    strength: 'SHOULD',
    appliesTo: 'a header when present',
    says: 'application/json defines no parameters: at most charset=utf-8, which has no effect',
    model: true,
    checks: ['answers_keep_the_protocol'],
  },
  json_numbers_interoperable: {
    source: 'RFC 8259 §6; RFC 7493 §2.2',
    strength: 'SHOULD',
    appliesTo: 'every answer',
    says: 'integers in answers stay within ±(2^53−1), what an IEEE 754 double holds exactly: the spec’s int64 ids allow more, but a JavaScript client reads 9007199254740993 as 9007199254740992 and asks for another record',
    model: true,
    checks: ['answers_keep_the_protocol'],
  },
  json_member_names_unique: {
    source: "RFC 8259 §4; the spec's schemas",
    strength: 'MUST',
    appliesTo: 'every answer',
    says: "no object of an answer repeats a member name (RFC 8259: SHOULD; the spec's schemas give each property one value, and a repeated one reads differently in each client)",
    model: true,
    checks: ['answers_keep_the_protocol'],
  },
  entity_tag_syntax: {
    source: 'RFC 9110 §8.8.3',
    strength: 'MUST',
    appliesTo: 'a header when present',
    says: 'ETag is one entity-tag: an optional W/ and a double-quoted opaque tag',
    model: true,
    checks: ['conditional_requests_honoured'],
  },
  last_modified_syntax: {
    source: 'RFC 9110 §8.8.2, §5.6.7',
    strength: 'MUST',
    appliesTo: 'a header when present',
    says: 'Last-Modified is an IMF-fixdate no later than the answer’s Date',
    model: true,
    checks: ['conditional_requests_honoured'],
  },
  no_content_where_none_can_be: {
    source: 'RFC 9110 §9.3.2, §15.3.5, §15.4.5',
    strength: 'MUST',
    appliesTo: 'a status',
    says: 'an answer to HEAD, a 204 and a 304 carry no content',
    model: true,
    checks: ['every_method_routed', 'conditional_requests_honoured'],
  },
  allow_lists_the_methods: {
    source: 'RFC 9110 §15.5.6, §10.2.1',
    strength: 'MUST',
    appliesTo: 'a status',
    says: 'a 405 carries Allow, a comma list of method tokens; Allow (on any answer) lists only methods the path supports, none that answers 405',
    model: true,
    checks: ['every_method_routed', 'method_not_allowed'],
  },
  bearer_challenge_on_401: {
    source: 'RFC 9110 §15.5.2, §11.3, §11.6.1; RFC 6750 §3',
    strength: 'MUST',
    appliesTo: 'a status',
    says: 'a 401 carries WWW-Authenticate with a well-formed Bearer challenge: auth-param syntax, each parameter once, error one of invalid_request, invalid_token, insufficient_scope, error_description in printable ASCII without " or \\',
    model: true,
    checks: ['missing_api_key_rejected', 'invalid_api_key_rejected', 'malformed_credentials_refused'],
  },
  no_error_code_without_credentials: {
    source: 'RFC 6750 §3.1',
    strength: 'SHOULD',
    appliesTo: 'a status',
    says: 'a 401 to a request that carried no credential has no error attribute in its challenge',
    model: true,
    checks: ['missing_api_key_rejected'],
  },
  retry_after_syntax: {
    source: 'RFC 9110 §10.2.3',
    strength: 'MUST',
    appliesTo: 'a header when present',
    says: 'Retry-After is delay-seconds (digits) or an HTTP-date',
    model: true,
    checks: ['rate_limit_exceeded_answer', 'rate_limit_promises_kept'],
  },
  cache_control_syntax: {
    source: 'RFC 9111 §5.2',
    strength: 'MUST',
    appliesTo: 'a header when present',
    says: 'Cache-Control is a list of directives, token [= token / quoted-string]; max-age and s-maxage are digits',
    model: true,
    checks: ['answers_keep_the_protocol'],
  },
  keyed_answers_not_shared: {
    source: 'RFC 9111 §3.5; OWASP API8:2023',
    strength: 'MUST',
    appliesTo: 'answers to credentialed requests',
    says: "an answer to a request with Authorization is not made storable by shared caches (public, s-maxage or must-revalidate without private or no-store): a cache would hand one key's answer, and its quota, to other clients",
    model: true,
    checks: ['answers_keep_the_protocol'],
  },
  keyed_answers_not_stored: {
    source: 'OWASP API8:2023 (hardening)',
    strength: 'SHOULD',
    appliesTo: 'answers to credentialed requests',
    says: 'an answer to a request with Authorization says Cache-Control: no-store (or private)',
    model: true,
    checks: ['answers_keep_the_protocol'],
  },
  vary_names_what_selects: {
    source: 'RFC 9110 §12.5.5',
    strength: 'SHOULD',
    appliesTo: 'a header when present',
    says: 'an answer that echoes the request’s Origin in Access-Control-Allow-Origin lists Origin in Vary; Vary is * or a list of field names',
    model: true,
    checks: ['answers_keep_the_protocol'],
  },
  no_sniffing: {
    source: 'OWASP API8:2023 (hardening)',
    strength: 'SHOULD',
    appliesTo: 'every answer',
    says: 'X-Content-Type-Options: nosniff, so a browser never reads JSON as something else',
    model: true,
    checks: ['answers_keep_the_protocol'],
  },
  credential_never_echoed: {
    source: 'OWASP API2:2023, API8:2023; RFC 6750 §5.3',
    strength: 'MUST',
    appliesTo: 'answers to credentialed requests',
    says: 'no answer carries the credential its request sent (valid or not), in its body, its headers or its error message',
    model: true,
    checks: ['answers_leak_nothing', 'invalid_api_key_rejected'],
  },
  no_internals_in_answers: {
    source: 'OWASP API8:2023',
    strength: 'MUST',
    appliesTo: 'every answer',
    says: 'no error answer shows internals: a stack trace, a file path of the server, a database error, a server or framework named with its version',
    model: true,
    checks: ['answers_leak_nothing', 'malformed_json_rejected'],
  },
  server_version_hidden: {
    source: 'OWASP API8:2023',
    strength: 'MUST',
    appliesTo: 'a header when present',
    says: 'Server, X-Powered-By and X-AspNet-Version name no version: like a version in an error body, it tells an attacker which known flaws to try (what a reviewer flags on a staging deploy)',
    model: true,
    checks: ['answers_keep_the_protocol'],
  },
  no_cookies: {
    source: 'OWASP API8:2023; RFC 6750 §5.3',
    strength: 'MUST',
    appliesTo: 'every answer',
    says: 'an API behind a bearer key sets no cookie: a cookie is an ambient credential the spec does not declare',
    model: true,
    checks: ['answers_leak_nothing'],
  },
  cors_not_open_with_credentials: {
    source: 'OWASP API8:2023; Fetch standard (CORS protocol)',
    needs: ['closedCors'],
    strength: 'MUST',
    appliesTo: 'a header when present',
    says: 'Access-Control-Allow-Credentials: true never comes with whatever Origin the request named (an origin nobody trusts, or `null`, which any page can make a browser send): any site could then read keyed answers through a browser',
    model: true,
    checks: ['answers_leak_nothing'],
  },
  storable_answers_vary_by_credential: {
    source: 'RFC 9111 §4.1; RFC 9110 §12.5.5; OWASP API8:2023',
    strength: 'MUST',
    appliesTo: 'every answer',
    says: 'an answer to a request without a key that a shared cache may keep (public, max-age, s-maxage or Expires, without no-store, private or no-cache) says Vary: Authorization: every answer of this interface depends on the key, and a cached 401 or 404 would be handed to keyed clients',
    model: true,
    checks: ['answers_keep_the_protocol', 'missing_api_key_rejected'],
  },
  cors_lets_the_key_through: {
    needs: ['closedCors'],
    source: 'Fetch standard (CORS protocol); the spec’s bearer scheme',
    strength: 'MUST',
    appliesTo: 'a method',
    says: 'a preflight the target grants allows the Authorization header by name (* never covers it), every other header it asked for, and the method it asked for: else no browser can send the key the spec requires',
    model: true,
    checks: ['every_method_routed'],
  },
  cors_exposes_the_spec_headers: {
    needs: ['closedCors'],
    source: 'Fetch standard (CORS protocol); the spec’s response headers',
    strength: 'MUST',
    appliesTo: 'a header when present',
    says: 'an answer that grants an Origin lists in Access-Control-Expose-Headers every header the spec declares that it carries (X-RateLimit-*, Retry-After, WWW-Authenticate, Deprecation...): else a browser client cannot read them',
    model: true,
    checks: ['every_method_routed', 'answers_leak_nothing'],
  },
  malformed_credentials_refused: {
    source: 'RFC 6750 §2.1; RFC 9110 §11.4, §5.3; OWASP API2:2023',
    strength: 'MUST',
    appliesTo: 'every request',
    says: 'a request whose Authorization is not `Bearer 1*SP b64token` (a comma list, auth-params, a quoted or second token, a tab, two Authorization fields) is refused with 401, never admitted',
    model: true,
    checks: ['malformed_credentials_refused', 'invalid_api_key_rejected'],
  },
  credential_only_where_declared: {
    source: 'OWASP API2:2023; RFC 6750 §2',
    strength: 'MUST',
    appliesTo: 'every request',
    says: 'the key counts only in the scheme the spec declares (Authorization: Bearer): never in a query, a cookie, another header or another scheme',
    model: false,
    checks: ['missing_api_key_rejected', 'invalid_api_key_rejected'],
  },
  undefined_methods_refused: {
    source: 'RFC 9110 §9.1, §15.5.6; the spec',
    strength: 'MUST',
    appliesTo: 'a method',
    says: 'every method token the spec does not define on a path (standard, extension, lower-case: methods are case-sensitive) goes through the key first, then answers 405 with Allow, never 2xx; a bare 400/408/431/501 or a closed connection from the HTTP parser is a warning',
    model: false,
    checks: ['every_method_routed'],
  },
  head_is_get_without_content: {
    source: 'RFC 9110 §9.3.2',
    strength: 'MUST',
    appliesTo: 'a method',
    says: 'HEAD on a path with GET answers 405 with Allow, or the GET’s status and header fields without content',
    model: false,
    checks: ['every_method_routed'],
  },
  head_fields_as_get: {
    source: 'RFC 9110 §9.3.2',
    strength: 'SHOULD',
    appliesTo: 'a method',
    says: 'a HEAD answered as its GET carries the GET’s header fields (those set by the content or the moment aside); one the spec declares on the GET’s answer (X-RateLimit-*, Deprecation) missing is a failure',
    model: false,
    checks: ['every_method_routed'],
  },
  method_overrides_ignored: {
    source: 'RFC 9110 §9.1; OWASP API5:2023',
    strength: 'MUST',
    appliesTo: 'a method',
    says: 'the method is the request line’s: X-HTTP-Method-Override, X-HTTP-Method, X-Method-Override and a _method parameter change nothing (a gateway’s per-method rules would be bypassed)',
    model: false,
    checks: ['every_method_routed'],
  },
  preflight_needs_no_key: {
    source: 'Fetch standard (CORS protocol); the spec’s design',
    strength: 'MUST',
    appliesTo: 'a method',
    says: 'an OPTIONS preflight (Origin and Access-Control-Request-Method) needs no key, costs no quota and answers 2xx without content',
    model: false,
    checks: ['every_method_routed'],
  },
  if_none_match_honoured: {
    source: 'RFC 9110 §13.1.2',
    strength: 'MUST',
    appliesTo: 'a header when present',
    says: 'a GET whose If-None-Match lists the ETag the answer offered, or is `*` where a representation exists, gets 304 without content and that ETag; a tag that matches nothing gets the full answer',
    model: false,
    checks: ['conditional_requests_honoured'],
  },
  not_modified_only_when_unchanged: {
    source: 'RFC 9110 §13.1.3, §13.2.2, §15.4.5',
    strength: 'MUST',
    appliesTo: 'a header when present',
    says: 'a 304 answers only a condition the client’s copy meets: If-Modified-Since with a date before the resource existed gets the full answer (a target with no Last-Modified ignores the field)',
    model: false,
    checks: ['conditional_requests_honoured'],
  },
  if_modified_since_honoured: {
    source: 'RFC 9110 §13.1.3',
    strength: 'SHOULD',
    appliesTo: 'a header when present',
    says: 'a GET whose If-Modified-Since is the Last-Modified the answer offered gets 304',
    model: false,
    checks: ['conditional_requests_honoured'],
  },
  repeated_members_handled: {
    source: 'RFC 8259 §4; OWASP API8:2023',
    strength: 'MUST',
    appliesTo: 'every request',
    says: 'a request body repeating a member name is refused with 400, or answered and stored with one of the values sent, never a 5xx or a value nobody sent',
    model: false,
    checks: ['repeated_members_handled'],
  },
  property_names_exact: {
    source: 'RFC 8259 §7, §8.3; the spec’s closed schemas',
    strength: 'MUST',
    appliesTo: 'every request',
    says: 'a member name is compared code unit by code unit: `Name` or `NAME` is not `name`, and is refused as an unknown property',
    model: false,
    checks: ['invalid_body_rejected'],
  },
  no_mass_assignment: {
    source: 'OWASP API3:2023',
    strength: 'MUST',
    appliesTo: 'every request',
    says: 'a create carrying a property the client may not set (`id`, any property its schema lacks) is refused and stores nothing; each field the answer has and the request schema lacks is tried on every write, with a valid value',
    model: false,
    checks: ['server_fields_not_assignable', 'invalid_body_rejected', 'invalid_body_not_stored'],
  },
  guessing_throttled: {
    source: 'OWASP API2:2023, API4:2023',
    strength: 'MUST',
    appliesTo: 'every request',
    says: 'requests with unknown keys count in a window of their own, and past it are refused with 429, never answered 401 without end: guessing keys is throttled',
    model: false,
    checks: ['key_guessing_throttled'],
  },
  bounded_consumption: {
    source: 'OWASP API4:2023',
    strength: 'MUST',
    appliesTo: 'every request',
    says: 'a body past the size limit is refused with 413, nesting past any depth with 400, a page size nobody declared is ignored, and every request costs quota',
    model: false,
    checks: ['payload_too_large_rejected', 'malformed_json_rejected', 'unknown_query_ignored', 'every_outcome_charged'],
  },
} as const satisfies Record<string, Rule>;

/** The name of one rule of {@link RULES}. */
export type RuleName = keyof typeof RULES;

/** Every rule's name, in the order of the table. */
export const RULE_NAMES = Object.keys(RULES) as RuleName[];

/** Whether a broken rule fails the run or warns: a SHOULD warns unless the run is strict. */
export function severityOf(rule: RuleName, strict: boolean): 'failure' | 'warning' {
  return RULES[rule].strength === 'MUST' || strict ? 'failure' : 'warning';
}
