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
import type { CheckName } from '../core/contract-ids.js';
import type { Requirement } from '../core/requirement.js';
import { theSpecSays } from '../sentences/spec-sentences.js';

/**
 * How a broken rule weighs: a MUST fails; a SHOULD warns unless `--strict`; a MAY only ever warns (a
 * leniency a requirement permits, RFC 9110 §2.4's recovery from an invalid construct: worth knowing,
 * never a failure).
 */
export type Strength = 'MUST' | 'SHOULD' | 'MAY';

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
  /** The sentence that binds the server, quoted; only a requirement on the server may be a MUST. */
  requirement: Requirement;
  /** What a target must support for the rule to be judged there (a development mock is not held to production CORS). */
  needs?: readonly Capability[];
  strength: Strength;
  appliesTo: RuleScope;
  says: string;
  model: boolean;
  checks: readonly CheckName[];
}

/** The rule table: each rule under the spec (HTTP, bearer, JSON, OWASP) by its id, with its quote, strength and the checks that test it. */
export const RULES = {
  content_type_on_content: {
    source: 'RFC 9110 §8.3',
    strength: 'SHOULD',
    appliesTo: 'every answer',
    says: 'an answer with content carries Content-Type',
    model: true,
    checks: ['answers_keep_the_protocol'],
    requirement: {
      quote:
        'A sender that generates a message containing content SHOULD generate a Content-Type header field in that message unless the intended media type of the enclosed representation is unknown to the sender.',
      where: 'RFC 9110 §8.3',
      binds: 'server',
    },
  },
  content_type_syntax: {
    source: 'RFC 9110 §8.3, §8.3.1, §5.3',
    strength: 'MUST',
    appliesTo: 'a header when present',
    says: 'Content-Type is one media type (type/subtype and parameters), in one field: a list or a second Content-Type names no type a client can read',
    model: true,
    checks: ['answers_keep_the_protocol'],
    requirement: {
      quote:
        "A sender MUST NOT generate protocol elements that do not match the grammar defined by the corresponding ABNF rules. … This means that, aside from the well-known exception noted below, a sender MUST NOT generate multiple field lines with the same name in a message (whether in the headers or trailers) or append a field line when a field line of the same name already exists in the message, unless that field's definition allows multiple field line values to be recombined as a comma-separated list (i.e., at least one alternative of the field's definition allows a comma-separated list, such as an ABNF rule of #(values) defined in Section 5.6.1).",
      where: 'RFC 9110 §2.2, §5.3 (the server is the sender of its answers)',
      binds: 'server',
    },
  },
  date_on_answers: {
    source: 'RFC 9110 §6.6.1, §5.6.7',
    strength: 'MUST',
    appliesTo: 'every answer',
    says: 'an origin server with a clock sends Date on every 2xx, 3xx and 4xx answer, as an IMF-fixdate (Sun, 06 Nov 1994 08:49:37 GMT), the one form a sender generates',
    model: true,
    checks: ['answers_keep_the_protocol'],
    requirement: {
      quote:
        'An origin server with a clock (as defined in Section 5.6.7) MUST generate a Date header field in all 2xx (Successful), 3xx (Redirection), and 4xx (Client Error) responses, and MAY generate a Date header field in 1xx (Informational) and 5xx (Server Error) responses. … When a sender generates a field that contains one or more timestamps defined as HTTP-date, the sender MUST generate those timestamps in the IMF-fixdate format.',
      where: 'RFC 9110 §6.6.1, §5.6.7 (the server is the sender of its answers)',
      binds: 'server',
    },
  },
  location_names_this_interface: {
    source: 'RFC 9110 §10.2.2, §15.3.2; OWASP API8:2023',
    strength: 'SHOULD',
    appliesTo: 'a header when present',
    says: 'Location is a URI-reference naming a resource of the interface that answered (its origin): a 201’s Location is the record created, never another host a client would follow',
    model: true,
    checks: ['create_category_conforms', 'valid_bodies_stored_as_sent'],
    requirement: {
      quote: 'For 201 (Created) responses, the Location value refers to the primary resource created by the request.',
      where: 'RFC 9110 §10.2.2 (§15.3.2); OWASP API8:2023',
      binds: 'nobody',
    },
  },
  content_is_its_media_type: {
    source: 'RFC 9110 §8.3; RFC 8259 §2',
    strength: 'MUST',
    appliesTo: 'a header when present',
    says: 'content labelled application/json (or +json) is one JSON text',
    model: true,
    checks: ['answers_keep_the_protocol'],
    requirement: {
      quote: 'A JSON generator produces JSON text. The resulting text MUST strictly conform to the JSON grammar.',
      where: 'RFC 8259 §10 (the server generates the JSON of its answers)',
      binds: 'server',
    },
  },
  content_length_matches: {
    source: 'RFC 9110 §8.6; RFC 9112 §6.3',
    strength: 'SHOULD',
    appliesTo: 'a header when present',
    says: 'Content-Length is the number of bytes of the content (none after HEAD or in a 304)',
    model: true,
    // Node's client frames an answer by its Content-Length: only the raw reader (odd methods) reads to the close.
    checks: ['answers_keep_the_protocol', 'every_method_routed'],
    requirement: {
      quote:
        'When transferring a representation as content, Content-Length refers specifically to the amount of data enclosed so that it can be used to delimit framing (e.g., Section 6.2 of [HTTP/1.1]).',
      where: 'RFC 9110 §8.6; RFC 9112 §6.3',
      binds: 'nobody',
    },
  },
  json_is_utf8_without_bom: {
    source: 'RFC 8259 §8.1',
    strength: 'MUST',
    appliesTo: 'a header when present',
    says: 'JSON content is UTF-8 without a byte order mark, and a charset parameter, if any, says utf-8',
    model: true,
    checks: ['answers_keep_the_protocol'],
    requirement: {
      quote:
        'JSON text exchanged between systems that are not part of a closed ecosystem MUST be encoded using UTF-8 [RFC3629]. … Implementations MUST NOT add a byte order mark (U+FEFF) to the beginning of a networked-transmitted JSON text.',
      where: 'RFC 8259 §8.1 (the server is the implementation that transmits its answers)',
      binds: 'server',
    },
  },
  json_media_type_parameters: {
    source: 'RFC 8259 §11; RFC 9110 §8.3.1',
    strength: 'SHOULD',
    appliesTo: 'a header when present',
    says: 'application/json defines no parameters: at most charset=utf-8, which has no effect',
    model: true,
    checks: ['answers_keep_the_protocol'],
    requirement: {
      quote:
        'Note: No "charset" parameter is defined for this registration. Adding one really has no effect on compliant recipients.',
      where: 'RFC 8259 §11; RFC 9110 §8.3.1',
      binds: 'nobody',
    },
  },
  json_numbers_interoperable: {
    source: 'RFC 8259 §6; RFC 7493 §2.2',
    strength: 'SHOULD',
    appliesTo: 'every answer',
    says: 'integers in answers stay within ±(2^53−1), what an IEEE 754 double holds exactly: the spec’s int64 ids allow more, but a JavaScript client reads 9007199254740993 as 9007199254740992 and asks for another record',
    model: true,
    checks: ['answers_keep_the_protocol'],
    requirement: {
      quote:
        'I-JSON messages SHOULD NOT include numbers that express greater magnitude or precision than an IEEE 754 double precision number provides, for example, 1E400 or 3.141592653589793238462643383279. … Note that when such software is used, numbers that are integers and are in the range [-(2**53)+1, (2**53)-1] are interoperable in the sense that implementations will agree exactly on their numeric values.',
      where: 'RFC 7493 §2.2; RFC 8259 §6',
      binds: 'nobody',
    },
  },
  json_member_names_unique: {
    source: "RFC 8259 §4; the spec's schemas",
    strength: 'SHOULD',
    appliesTo: 'every answer',
    says: "no object of an answer repeats a member name (RFC 8259: SHOULD; the spec's schemas give each property one value, and a repeated one reads differently in each client)",
    model: true,
    checks: ['answers_keep_the_protocol'],
    requirement: {
      quote: 'The names within an object SHOULD be unique.',
      where: 'RFC 8259 §4',
      binds: 'nobody',
    },
  },
  entity_tag_syntax: {
    source: 'RFC 9110 §8.8.3',
    strength: 'MUST',
    appliesTo: 'a header when present',
    says: 'ETag is one entity-tag: an optional W/ and a double-quoted opaque tag',
    model: true,
    checks: ['conditional_requests_honoured'],
    requirement: {
      quote:
        'A sender MUST NOT generate protocol elements that do not match the grammar defined by the corresponding ABNF rules. … An entity tag consists of an opaque quoted string, possibly prefixed by a weakness indicator.',
      where: 'RFC 9110 §2.2, §8.8.3 (the server is the sender of its answers)',
      binds: 'server',
    },
  },
  last_modified_syntax: {
    source: 'RFC 9110 §8.8.2, §5.6.7',
    strength: 'MUST',
    appliesTo: 'a header when present',
    says: 'Last-Modified is an IMF-fixdate no later than the answer’s Date',
    model: true,
    checks: ['conditional_requests_honoured'],
    requirement: {
      quote:
        "An origin server with a clock (as defined in Section 5.6.7) MUST NOT generate a Last-Modified date that is later than the server's time of message origination (Date, Section 6.6.1).",
      where: 'RFC 9110 §8.8.2.1 (format: §8.8.2, §5.6.7)',
      binds: 'server',
    },
  },
  no_content_where_none_can_be: {
    source: 'RFC 9110 §9.3.2, §15.3.5, §15.4.5',
    strength: 'MUST',
    appliesTo: 'a status',
    says: 'an answer to HEAD, a 204 and a 304 carry no content',
    model: true,
    checks: ['every_method_routed', 'conditional_requests_honoured'],
    requirement: {
      quote:
        'The HEAD method is identical to GET except that the server MUST NOT send content in the response. … A 204 response is terminated by the end of the header section; it cannot contain content or trailers. … A 304 response is terminated by the end of the header section; it cannot contain content or trailers.',
      where: 'RFC 9110 §9.3.2, §15.3.5, §15.4.5 (RFC 9112 §6.3)',
      binds: 'server',
    },
  },
  allow_lists_the_methods: {
    source: 'RFC 9110 §15.5.6, §10.2.1',
    strength: 'MUST',
    appliesTo: 'a status',
    says: 'a 405 carries Allow, a comma list of method tokens; Allow (on any answer) lists only methods the path supports, none that answers 405',
    model: true,
    checks: ['every_method_routed', 'method_not_allowed'],
    requirement: {
      quote:
        "The origin server MUST generate an Allow header field in a 405 response containing a list of the target resource's currently supported methods.",
      where: 'RFC 9110 §15.5.6 (§10.2.1)',
      binds: 'server',
    },
  },
  bearer_challenge_on_401: {
    source: 'RFC 9110 §15.5.2, §11.3, §11.6.1; RFC 6750 §3',
    strength: 'MUST',
    appliesTo: 'a status',
    says: 'a 401 carries WWW-Authenticate with a well-formed Bearer challenge: auth-param syntax, each parameter once, error one of invalid_request, invalid_token, insufficient_scope, error_description in printable ASCII without " or \\',
    model: true,
    checks: ['missing_api_key_rejected', 'invalid_api_key_rejected', 'malformed_credentials_refused'],
    requirement: {
      quote:
        'The server generating a 401 response MUST send a WWW-Authenticate header field (Section 11.6.1) containing at least one challenge applicable to the target resource. … If the protected resource request does not include authentication credentials or does not contain an access token that enables access to the protected resource, the resource server MUST include the HTTP "WWW-Authenticate" response header field; it MAY include it in response to other conditions as well.',
      where: 'RFC 9110 §15.5.2 (§11.6.1); RFC 6750 §3',
      binds: 'server',
    },
  },
  no_error_code_without_credentials: {
    source: 'RFC 6750 §3.1',
    strength: 'SHOULD',
    appliesTo: 'a status',
    says: 'a 401 to a request that carried no credential has no error attribute in its challenge',
    model: true,
    checks: ['missing_api_key_rejected'],
    requirement: {
      quote:
        'If the request lacks any authentication information (e.g., the client was unaware that authentication is necessary or attempted using an unsupported authentication method), the resource server SHOULD NOT include an error code or other error information.',
      where: 'RFC 6750 §3.1',
      binds: 'server',
    },
  },
  retry_after_syntax: {
    source: 'RFC 9110 §10.2.3',
    strength: 'MUST',
    appliesTo: 'a header when present',
    says: 'Retry-After is delay-seconds (digits) or an HTTP-date',
    model: true,
    checks: ['rate_limit_exceeded_answer', 'rate_limit_promises_kept'],
    requirement: {
      quote:
        'The Retry-After field value can be either an HTTP-date or a number of seconds to delay after receiving the response. … A sender MUST NOT generate protocol elements that do not match the grammar defined by the corresponding ABNF rules.',
      where: 'RFC 9110 §10.2.3, §2.2 (the server is the sender of its answers)',
      binds: 'server',
    },
  },
  cache_control_syntax: {
    source: 'RFC 9111 §5.2',
    strength: 'MUST',
    appliesTo: 'a header when present',
    says: 'Cache-Control is a list of directives, token [= token / quoted-string]; max-age and s-maxage are digits',
    model: true,
    checks: ['answers_keep_the_protocol'],
    requirement: {
      quote:
        "This directive uses the token form of the argument syntax: e.g., 'max-age=5' not 'max-age=\"5\"'. A sender MUST NOT generate the quoted-string form. … A sender MUST NOT generate protocol elements that do not match the grammar defined by the corresponding ABNF rules.",
      where: 'RFC 9111 §5.2.2.1, RFC 9110 §2.2 (the server is the sender of its answers)',
      binds: 'server',
    },
  },
  keyed_answers_not_shared: {
    source: 'RFC 9111 §3.5; OWASP API8:2023',
    strength: 'SHOULD',
    appliesTo: 'answers to credentialed requests',
    says: "an answer to a request with Authorization is not made storable by shared caches (public, s-maxage or must-revalidate without private or no-store): a cache would hand one key's answer, and its quota, to other clients",
    model: true,
    checks: ['answers_keep_the_protocol'],
    requirement: {
      quote:
        'A shared cache MUST NOT use a cached response to a request with an Authorization header field (Section 11.6.2 of [HTTP]) to satisfy any subsequent request unless the response contains a Cache-Control field with a response directive (Section 5.2.2) that allows it to be stored by a shared cache, and the cache conforms to the requirements of that directive for that response.',
      where: 'RFC 9111 §3.5; OWASP API8:2023',
      binds: 'nobody',
    },
  },
  keyed_answers_not_stored: {
    source: 'OWASP API8:2023 (hardening)',
    strength: 'SHOULD',
    appliesTo: 'answers to credentialed requests',
    says: 'an answer to a request with Authorization says Cache-Control: no-store (or private)',
    model: true,
    checks: ['answers_keep_the_protocol'],
    requirement: {
      quote: 'Security or cache control directives are not sent to clients',
      where: 'OWASP API Security Top 10 2023, API8:2023 Security Misconfiguration (Is the API Vulnerable?)',
      binds: 'nobody',
    },
  },
  vary_names_what_selects: {
    source: 'RFC 9110 §12.5.5',
    strength: 'SHOULD',
    appliesTo: 'a header when present',
    says: 'an answer that echoes the request’s Origin in Access-Control-Allow-Origin lists Origin in Vary; Vary is * or a list of field names',
    model: true,
    checks: ['answers_keep_the_protocol'],
    requirement: {
      quote:
        'An origin server SHOULD generate a Vary header field on a cacheable response when it wishes that response to be selectively reused for subsequent requests. … If CORS protocol requirements are more complicated than setting `Access-Control-Allow-Origin` to * or a static origin, `Vary` is to be used.',
      where: 'RFC 9110 §12.5.5; Fetch "CORS protocol and HTTP caches" (unnumbered section)',
      binds: 'server',
    },
  },
  no_sniffing: {
    source: 'OWASP API8:2023 (hardening)',
    strength: 'SHOULD',
    appliesTo: 'every answer',
    says: 'X-Content-Type-Options: nosniff, so a browser never reads JSON as something else',
    model: true,
    checks: ['answers_keep_the_protocol'],
    requirement: {
      quote: 'include applicable Security Headers',
      where: 'OWASP API Security Top 10 2023, API8:2023 Security Misconfiguration (How To Prevent)',
      binds: 'nobody',
    },
  },
  credential_never_echoed: {
    source: 'OWASP API2:2023, API8:2023; RFC 6750 §5.3',
    strength: 'MUST',
    appliesTo: 'answers to credentialed requests',
    says: 'no answer carries the credential its request sent (valid or not), in its body, its headers or its error message',
    model: true,
    checks: ['answers_leak_nothing', 'invalid_api_key_rejected'],
    requirement: theSpecSays(['No answer carries the API']),
  },
  no_internals_in_answers: {
    source: 'OWASP API8:2023',
    strength: 'MUST',
    appliesTo: 'every answer',
    says: 'no error answer shows internals: a stack trace, a file path of the server, a database error, a server or framework named with its version',
    model: true,
    checks: ['answers_leak_nothing', 'malformed_json_rejected'],
    requirement: theSpecSays(['No error answer shows the']),
  },
  server_version_hidden: {
    source: 'OWASP API8:2023',
    strength: 'SHOULD',
    appliesTo: 'a header when present',
    says: 'Server, X-Powered-By and X-AspNet-Version name no version: like a version in an error body, it tells an attacker which known flaws to try (what a reviewer flags on a staging deploy)',
    model: true,
    checks: ['answers_keep_the_protocol'],
    requirement: {
      quote:
        'An origin server SHOULD NOT generate a Server header field containing needlessly fine-grained detail and SHOULD limit the addition of subproducts by third parties.',
      where: 'RFC 9110 §10.2.4; OWASP API8:2023',
      binds: 'server',
    },
  },
  no_cookies: {
    source: 'OWASP API8:2023; RFC 6750 §5.3',
    strength: 'SHOULD',
    appliesTo: 'every answer',
    says: 'an API behind a bearer key sets no cookie: a cookie is an ambient credential the spec does not declare',
    model: true,
    checks: ['answers_leak_nothing'],
    requirement: {
      quote:
        'Implementations MUST NOT store bearer tokens within cookies that can be sent in the clear (which is the default transmission mode for cookies).',
      where: 'RFC 6750 §5.3; OWASP API8:2023',
      binds: 'nobody',
    },
  },
  cors_not_open_with_credentials: {
    source: 'OWASP API8:2023; Fetch standard (CORS protocol)',
    needs: ['closedCors'],
    strength: 'SHOULD',
    appliesTo: 'a header when present',
    says: 'Access-Control-Allow-Credentials: true never comes with whatever Origin the request named (an origin nobody trusts, or `null`, which any page can make a browser send): any site could then read keyed answers through a browser',
    model: true,
    checks: ['answers_leak_nothing'],
    requirement: {
      quote:
        'Generally speaking, both sharing responses and allowing requests with credentials is rather unsafe, and extreme care has to be taken to avoid the confused deputy problem.',
      where: 'Fetch §3.3.5 (CORS protocol and credentials, marked non-normative); OWASP API8:2023',
      binds: 'nobody',
    },
  },
  storable_answers_vary_by_credential: {
    source: 'RFC 9111 §4.1; RFC 9110 §12.5.5; OWASP API8:2023',
    strength: 'SHOULD',
    appliesTo: 'every answer',
    says: 'an answer to a request without a key that a shared cache may keep (public, max-age, s-maxage or Expires, without no-store, private or no-cache) says Vary: Authorization: every answer of this interface depends on the key, and a cached 401 or 404 would be handed to keyed clients',
    model: true,
    checks: ['answers_keep_the_protocol', 'missing_api_key_rejected'],
    requirement: {
      quote:
        'An origin server SHOULD generate a Vary header field on a cacheable response when it wishes that response to be selectively reused for subsequent requests.',
      where: 'RFC 9110 §12.5.5; RFC 9111 §4.1; OWASP API8:2023',
      binds: 'server',
    },
  },
  cors_lets_the_key_through: {
    needs: ['closedCors'],
    source: 'Fetch standard (CORS protocol); the spec’s bearer scheme',
    strength: 'SHOULD',
    appliesTo: 'a method',
    says: 'a preflight the target grants allows the Authorization header by name (* never covers it), every other header it asked for, and the method it asked for: else no browser can send the key the spec requires',
    model: true,
    checks: ['every_method_routed'],
    requirement: {
      quote:
        "A CORS non-wildcard request-header name is a header name that is a byte-case-insensitive match for `Authorization`. … If one of request's header list's names is a CORS non-wildcard request-header name and is not a byte-case-insensitive match for an item in headerNames, then return a network error.",
      where: 'Fetch §2.2.2 (Headers), §4.8 (CORS-preflight fetch)',
      binds: 'nobody',
    },
  },
  cors_exposes_the_spec_headers: {
    needs: ['closedCors'],
    source: 'Fetch standard (CORS protocol); the spec’s response headers',
    strength: 'SHOULD',
    appliesTo: 'a header when present',
    says: 'an answer that grants an Origin lists in Access-Control-Expose-Headers every header the spec declares that it carries (X-RateLimit-*, Retry-After, WWW-Authenticate, Deprecation...): else a browser client cannot read them',
    model: true,
    checks: ['every_method_routed', 'answers_leak_nothing'],
    requirement: {
      quote: 'Indicates which headers can be exposed as part of the response by listing their names.',
      where: 'Fetch §3.3.3 (HTTP responses: Access-Control-Expose-Headers)',
      binds: 'nobody',
    },
  },
  malformed_credentials_refused: {
    source: 'RFC 6750 §2.1; RFC 9110 §11.4, §5.3; OWASP API2:2023',
    strength: 'MUST',
    appliesTo: 'every request',
    says: 'a request whose Authorization holds no token that is byte for byte the one sent (a comma list, auth-params, a quoted or second token, a character outside b64token such as U+00A0) is refused with 401 (either code: the spec names two and does not say which a malformed field gets), never admitted',
    model: true,
    checks: ['malformed_credentials_refused', 'invalid_api_key_rejected'],
    requirement: theSpecSays(['Every operation needs an API', 'Missing or invalid keys give']),
  },
  error_messages_name_the_fault: {
    source: 'the spec (Error.message)',
    strength: 'MAY',
    appliesTo: 'a status',
    says: 'a 400 for a body or parameter that breaks its schema has a message naming the member or parameter at fault (a note, never a failure: a message is for people, and a service may choose never to repeat what a request sent)',
    model: false,
    checks: ['error_messages_name_the_field'],
    requirement: theSpecSays(['Human-readable description naming what is']),
  },
  method_case_kept: {
    source: 'RFC 9110 §9.1; the spec (the HTTP layer)',
    strength: 'MAY',
    appliesTo: 'a method',
    says: 'a method token in another letter case (`get`) is another method, answered 405: the spec lets the HTTP layer read it as the method it spells in upper case, as gunicorn does (a note, never a failure)',
    model: false,
    checks: ['every_method_routed'],
    requirement: theSpecSays(['The HTTP layer may also']),
  },
  credentials_read_strictly: {
    source: 'RFC 6750 §2.1; RFC 9110 §2.4',
    strength: 'MAY',
    appliesTo: 'every request',
    says: 'a request whose Authorization is `Bearer` and one b64token written otherwise than `Bearer 1*SP` (a tab, a colon after the scheme) may be admitted: the token is the key, byte for byte, and a recipient may recover it (a note, never a failure)',
    model: true,
    checks: ['malformed_credentials_refused'],
    requirement: {
      quote:
        'Unless noted otherwise, a recipient MAY attempt to recover a usable protocol element from an invalid construct.',
      where: 'RFC 9110 §2.4',
      binds: 'server',
    },
  },
  repeated_credentials_refused: {
    source: 'RFC 9110 §5.3, §11.4',
    strength: 'SHOULD',
    appliesTo: 'every request',
    says: 'a request with two Authorization fields is refused with 401: the field is not a list, so which key it names is unpredictable (a gateway may check the one the service does not read)',
    model: true,
    checks: ['malformed_credentials_refused'],
    requirement: {
      quote:
        "a sender MUST NOT generate multiple field lines with the same name in a message (whether in the headers or trailers) or append a field line when a field line of the same name already exists in the message, unless that field's definition allows multiple field line values to be recombined as a comma-separated list",
      where: 'RFC 9110 §5.3',
      binds: 'sender',
    },
  },
  credential_only_where_declared: {
    source: 'OWASP API2:2023; RFC 6750 §2',
    strength: 'MUST',
    appliesTo: 'every request',
    says: 'the key counts only in the scheme the spec declares (Authorization: Bearer): never in a query, a cookie, another header or another scheme',
    model: false,
    checks: ['missing_api_key_rejected', 'invalid_api_key_rejected'],
    requirement: theSpecSays(['Every operation needs an API', 'Missing or invalid keys give']),
  },
  undefined_methods_refused: {
    source: 'RFC 9110 §9.1, §15.5.6; the spec',
    strength: 'MUST',
    appliesTo: 'a method',
    says: 'every method token the spec does not define on a path (standard, extension, lower-case: methods are case-sensitive) goes through the key first, then answers 405 with Allow, never 2xx; a bare 400/408/431/501 or a closed connection from the HTTP parser is a warning',
    model: false,
    checks: ['every_method_routed'],
    requirement: theSpecSays(['A known path with a']),
  },
  undeclared_elements_change_nothing: {
    source: 'the spec; RFC 9110 §5.1; OWASP API2:2023, API4:2023',
    strength: 'MUST',
    appliesTo: 'every request',
    says: 'a header field, query parameter or HTTP version the spec does not declare (forwarding and client-address fields with loopback and private addresses, another host or path, languages, encodings, a cookie, paging, format, debug) changes neither admission, nor what is charged, nor the status and machine-readable content of the answer',
    model: false,
    checks: ['undeclared_surroundings_ignored'],
    requirement: theSpecSays(['A header field, a query', 'Where HTTP itself gives such']),
  },
  required_forms_accepted: {
    source: 'RFC 9112 §3.2.2, §7.1; RFC 9110 §10.1.1',
    strength: 'MUST',
    appliesTo: 'every request',
    says: 'a request in a form HTTP/1.1 requires every server to take is answered as the plain one: the target in absolute-form, a body in chunks (or 411), a body after Expect: 100-continue',
    model: false,
    checks: ['undeclared_surroundings_ignored'],
    requirement: {
      quote:
        'A server MUST accept the absolute-form in requests even though most HTTP/1.1 clients will only send the absolute-form to a proxy. … A recipient MUST be able to parse the chunked transfer coding … A server that receives a 100-continue expectation in an HTTP/1.1 (or later) request … MUST either send an immediate response with a final status code … or send an immediate 100 (Continue) response',
      where: 'RFC 9112 §3.2.2, §7.1; RFC 9110 §10.1.1',
      binds: 'server',
    },
  },
  head_is_get_without_content: {
    source: 'RFC 9110 §9.3.2',
    strength: 'MUST',
    appliesTo: 'a method',
    says: 'HEAD on a path with GET answers 405 with Allow, or the GET’s status and header fields without content',
    model: false,
    checks: ['every_method_routed'],
    requirement: {
      quote: 'The HEAD method is identical to GET except that the server MUST NOT send content in the response.',
      where: 'RFC 9110 §9.3.2',
      binds: 'server',
    },
  },
  head_fields_as_get: {
    source: 'RFC 9110 §9.3.2',
    strength: 'SHOULD',
    appliesTo: 'a method',
    says: 'a HEAD answered as its GET carries the GET’s header fields (those set by the content or the moment aside); one the spec declares on the GET’s answer (X-RateLimit-*, Deprecation) missing is a failure',
    model: false,
    checks: ['every_method_routed'],
    requirement: {
      quote:
        'The server SHOULD send the same header fields in response to a HEAD request as it would have sent if the request method had been GET. However, a server MAY omit header fields for which a value is determined only while generating the content.',
      where: 'RFC 9110 §9.3.2',
      binds: 'server',
    },
  },
  method_overrides_ignored: {
    source: 'RFC 9110 §9.1; OWASP API5:2023',
    strength: 'SHOULD',
    appliesTo: 'a method',
    says: 'the method is the request line’s: X-HTTP-Method-Override, X-HTTP-Method, X-Method-Override and a _method parameter change nothing (a gateway’s per-method rules would be bypassed)',
    model: false,
    checks: ['every_method_routed'],
    requirement: {
      quote:
        'The request method token is the primary source of request semantics; it indicates the purpose for which the client has made this request and what is expected by the client as a successful result.',
      where: 'RFC 9110 §9.1; OWASP API5:2023',
      binds: 'nobody',
    },
  },
  preflight_needs_no_key: {
    source: 'Fetch standard (CORS protocol); the spec’s design',
    strength: 'SHOULD',
    appliesTo: 'a method',
    says: 'an OPTIONS preflight (Origin and Access-Control-Request-Method) needs no key, costs no quota and answers 2xx without content',
    model: false,
    checks: ['every_method_routed', 'uncharged_requests_cost_nothing'],
    requirement: {
      quote:
        'Note that even so, a CORS-preflight request never includes credentials. … A successful HTTP response to a CORS-preflight request is similar, except it is restricted to an ok status, e.g., 200 or 204.',
      where: 'Fetch §3.3.5 (marked non-normative), §3.3.3',
      binds: 'nobody',
    },
  },
  if_none_match_honoured: {
    source: 'RFC 9110 §13.1.2',
    strength: 'MUST',
    appliesTo: 'a header when present',
    says: 'a GET whose If-None-Match lists the ETag the answer offered, or is `*` where a representation exists, gets 304 without content and that ETag; a tag that matches nothing gets the full answer',
    model: false,
    checks: ['conditional_requests_honoured'],
    requirement: {
      quote:
        'When an origin server receives a request that selects a representation and that request includes an If-None-Match header field, the origin server MUST evaluate the If-None-Match condition per Section 13.2 prior to performing the method. … An origin server that evaluates an If-None-Match condition MUST NOT perform the requested method if the condition evaluates to false; instead, the origin server MUST respond with either a) the 304 (Not Modified) status code if the request method is GET or HEAD or b) the 412 (Precondition Failed) status code for all other request methods.',
      where: 'RFC 9110 §13.1.2 (§13.2.1, §13.2.2, §15.4.5)',
      binds: 'server',
    },
  },
  not_modified_only_when_unchanged: {
    source: 'RFC 9110 §13.1.3, §13.2.2, §15.4.5',
    strength: 'MUST',
    appliesTo: 'a header when present',
    says: 'a 304 answers only a condition the client’s copy meets: If-Modified-Since with a date before the resource existed gets the full answer (a target with no Last-Modified ignores the field)',
    model: false,
    checks: ['conditional_requests_honoured'],
    requirement: {
      quote:
        'A recipient cache or origin server MUST evaluate the request preconditions defined by this specification in the following order: … 4. When the method is GET or HEAD, If-None-Match is not present, and If-Modified-Since is present, evaluate the If-Modified-Since precondition: * if true, continue to step 5 * if false, respond 304 (Not Modified) … A recipient MUST ignore the If-Modified-Since header field if the resource does not have a modification date available.',
      where: 'RFC 9110 §13.2.2, §13.1.3 (§15.4.5)',
      binds: 'server',
    },
  },
  if_modified_since_honoured: {
    source: 'RFC 9110 §13.1.3',
    strength: 'SHOULD',
    appliesTo: 'a header when present',
    says: 'a GET whose If-Modified-Since is the Last-Modified the answer offered gets 304',
    model: false,
    checks: ['conditional_requests_honoured'],
    requirement: {
      quote:
        'An origin server that evaluates an If-Modified-Since condition SHOULD NOT perform the requested method if the condition evaluates to false; instead, the origin server SHOULD generate a 304 (Not Modified) response, including only those metadata that are useful for identifying or updating a previously cached response.',
      where: 'RFC 9110 §13.1.3',
      binds: 'server',
    },
  },
  repeated_members_handled: {
    source: 'RFC 8259 §4; OWASP API8:2023',
    strength: 'MUST',
    appliesTo: 'every request',
    says: 'a request body repeating a member name is refused with 400, or answered and stored with one of the values sent, never a 5xx or a value nobody sent',
    model: false,
    checks: ['repeated_members_handled'],
    requirement: theSpecSays(['The response is the category', 'Never the answer to a']),
  },
  property_names_exact: {
    source: 'RFC 8259 §7, §8.3; the spec’s closed schemas',
    strength: 'MUST',
    appliesTo: 'every request',
    says: 'a member name is compared code unit by code unit: `Name` or `NAME` is not `name`, and is refused as an unknown property',
    model: false,
    checks: ['invalid_body_rejected'],
    requirement: theSpecSays(['A body that breaks this']),
  },
  no_mass_assignment: {
    source: 'OWASP API3:2023',
    strength: 'MUST',
    appliesTo: 'every request',
    says: 'a create carrying a property the client may not set (`id`, any property its schema lacks) is refused and stores nothing; each field the answer has and the request schema lacks is tried on every write, with a valid value',
    model: false,
    checks: ['server_fields_not_assignable', 'invalid_body_rejected', 'invalid_body_not_stored'],
    requirement: theSpecSays(['A body that breaks this']),
  },
  guessing_throttled: {
    source: 'OWASP API2:2023, API4:2023',
    strength: 'SHOULD',
    appliesTo: 'every request',
    says: 'requests with unknown keys count in a window of their own, and past it are refused with 429, never answered 401 without end: guessing keys is throttled',
    model: false,
    checks: ['key_guessing_throttled'],
    requirement: theSpecSays(['A service may count requests'], 'nobody'),
  },
  bounded_consumption: {
    source: 'OWASP API4:2023',
    strength: 'MUST',
    appliesTo: 'every request',
    says: 'a body past the size limit is refused with 413, nesting past any depth with 400, a page size nobody declared is ignored, and every request costs quota',
    model: false,
    checks: ['payload_too_large_rejected', 'malformed_json_rejected', 'unknown_query_ignored', 'every_outcome_charged'],
    requirement: theSpecSays(['Bodies over 16 KiB are', 'Each request with a key']),
  },
  limits_hold_under_every_framing: {
    source: 'the spec; RFC 9112 §3.2.2, §7.1, §2.3, §6.3',
    strength: 'MUST',
    appliesTo: 'every request',
    says: 'the body limit (413), the media type (415), the schema (400) and authentication (401) hold the same under every framing and request form a client may choose: the body in chunks, the target in absolute-form, HTTP/1.0; an HTTP/1.0 body with neither Content-Length nor chunks, ended by the close, is no body (RFC 9112 §6.3): the request is answered as without one; what each request is charged, the model judges',
    model: false,
    checks: ['limits_hold_under_every_framing'],
    requirement: theSpecSays(['Bodies over 16 KiB are', 'A header field, a query']),
  },
  trailers_change_no_header: {
    source: 'RFC 9112 §7.1.2; RFC 9110 §6.5.1',
    strength: 'MUST',
    appliesTo: 'every request',
    says: 'a field sent in the trailer section of a chunked body (Authorization, Content-Type) is not read as a header field: the request is answered as without it',
    model: false,
    checks: ['limits_hold_under_every_framing'],
    requirement: {
      quote:
        'A recipient MUST NOT merge a received trailer field into the header section unless its corresponding header field definition explicitly permits and instructs how the trailer field value can be safely merged.',
      where: 'RFC 9112 §7.1.2',
      binds: 'server',
    },
  },
  close_ends_the_connection: {
    source: 'RFC 9112 §9.6',
    strength: 'MUST',
    appliesTo: 'every request',
    says: 'after the answer to a request carrying Connection: close the server closes the connection, and answers nothing more sent on it',
    model: false,
    checks: ['connection_rules_kept'],
    requirement: {
      quote:
        'A server that receives a "close" connection option MUST initiate closure of the connection (see below) after it sends the final response to the request that contained the "close" connection option. … The server MUST NOT process any further requests received on that connection.',
      where: 'RFC 9112 §9.6',
      binds: 'server',
    },
  },
  connections_persist: {
    source: 'RFC 9112 §9.3, §9.5, §9.6',
    strength: 'SHOULD',
    appliesTo: 'every request',
    says: 'an HTTP/1.1 connection stays open after an answer that does not say Connection: close: a second request on it is answered',
    model: false,
    checks: ['connection_rules_kept'],
    requirement: {
      quote:
        "A server SHOULD sustain persistent connections, when possible, and allow the underlying transport's flow-control mechanisms to resolve temporary overloads rather than terminate connections with the expectation that clients will retry.",
      where: 'RFC 9112 §9.5',
      binds: 'server',
    },
  },
  pipelined_answers_in_order: {
    source: 'RFC 9112 §9.3.2',
    strength: 'MUST',
    appliesTo: 'every request',
    says: 'requests sent one after another without waiting (pipelined) are answered in the order they were sent, as many as the server answers at all',
    model: false,
    checks: ['connection_rules_kept'],
    requirement: {
      quote:
        'A server MAY process a sequence of pipelined requests in parallel if they all have safe methods (Section 9.2.1 of [HTTP]), but it MUST send the corresponding responses in the same order that the requests were received.',
      where: 'RFC 9112 §9.3.2',
      binds: 'server',
    },
  },
  no_chunked_answer_to_http10: {
    source: 'RFC 9112 §6.1',
    strength: 'MUST',
    appliesTo: 'every request',
    says: 'an answer to an HTTP/1.0 request carries no Transfer-Encoding (an HTTP/1.0 client cannot read chunks)',
    model: false,
    checks: ['connection_rules_kept'],
    requirement: {
      quote:
        'A server MUST NOT send a response containing Transfer-Encoding unless the corresponding request indicates HTTP/1.1 (or later minor revisions).',
      where: 'RFC 9112 §6.1',
      binds: 'server',
    },
  },
  host_field_required_once: {
    source: 'RFC 9112 §3.2',
    strength: 'MUST',
    appliesTo: 'every request',
    says: 'an HTTP/1.1 request without Host, or with two Host fields, is answered 400 (or refused by the HTTP parser: a closed connection, 408, 431), never served: a service that serves it lets a client choose which host it names',
    model: false,
    checks: ['host_field_required_once'],
    requirement: {
      quote:
        'A server MUST respond with a 400 (Bad Request) status code to any HTTP/1.1 request message that lacks a Host header field and to any request message that contains more than one Host header field line or a Host header field with an invalid field value.',
      where: 'RFC 9112 §3.2',
      binds: 'server',
    },
  },
} as const satisfies Record<string, Rule>;

/** The name of one rule of {@link RULES}. */
export type RuleName = keyof typeof RULES;

/** Every rule's name, in the order of the table. */
export const RULE_NAMES = Object.keys(RULES) as RuleName[];

/** Whether a broken rule fails the run or warns: a SHOULD warns unless the run is strict. */
export function severityOf(rule: RuleName, strict: boolean): 'failure' | 'warning' {
  const { strength } = RULES[rule];
  return strength === 'MUST' || (strict && strength === 'SHOULD') ? 'failure' : 'warning';
}
