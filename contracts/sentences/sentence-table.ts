/**
 * Every sentence of the spec's prose, and what holds a target to it: the checks (and the run model's
 * promises) that verify it, or why it cannot be checked and where. `sentence-table.test.ts` fails when
 * a sentence of `spec/openapi.yaml` has no row, or a row names a check or promise that does not exist.
 */
export interface SentenceRow {
  sentence: string;
  /** Checks of the registry and promises of the model (`contracts/model/promise-rules.ts`) that verify it. */
  verifiedBy?: readonly string[];
  /** Why it is not checked: on which targets, and for what reason. */
  notCheckable?: string;
}

const NAMES_A_THING = 'names what a thing is; it promises nothing a client can observe';

export const SENTENCE_TABLE: readonly SentenceRow[] = [
  {
    sentence: 'A JSON-over-HTTP interface for a pet store.',
    verifiedBy: ['list_categories_conforms', 'create_category_conforms', 'error_body_conformance'],
  },
  {
    sentence:
      "Every operation needs an API key sent as `Authorization: Bearer <API_KEY>` and counts against the key's per-plan quotas (two fixed UTC windows: one minute and one day).",
    verifiedBy: [
      'missing_api_key_rejected',
      'create_requires_api_key',
      'every_outcome_charged',
      'charged_once_per_admitted_request',
      'fixed_utc_windows',
      'quota_window_rolls_over',
    ],
  },
  {
    sentence: 'Rules that apply to every path under the base address:',
    notCheckable: 'introduces the rules below; each has its own row',
  },
  {
    sentence:
      'Every response carries `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset`, describing the window (minute or day) with the lower remaining count after the request (on a tie, the day window), except where a rule below says otherwise: a `401`, and an answer of the HTTP layer.',
    verifiedBy: [
      'rate_limit_headers_on_every_response',
      'rate_limit_remaining_decreases',
      'fixed_utc_windows',
      'both_quota_windows_held',
      'lower_window_described',
    ],
    notCheckable:
      'on a live target, the day is the lower window only after (day limit − minute limit) requests in one UTC day (940 with a free key), which the suite never spends; the model (`lower_window_described`) still judges any traffic that gets there, `watch` included, and `both_quota_windows_held` provokes it on the fake',
  },
  {
    sentence:
      "A header field, a query parameter, or a form of the request line or of its framing that this document does not declare changes nothing it states: who is admitted, what a request counts, and an answer's status and machine-readable content (`code`, `status`, the records) are those of the same request without it.",
    verifiedBy: ['undeclared_surroundings_ignored', 'unknown_query_ignored'],
  },
  {
    sentence:
      'Where HTTP itself gives such an element a meaning (a precondition such as `If-None-Match`, `Accept`, `Expect`, `Range`, a content coding), it acts only as HTTP defines it.',
    verifiedBy: ['conditional_requests_honoured', 'undeclared_surroundings_ignored'],
  },
  {
    sentence: 'Authentication and quota are evaluated first, then routing, then validation.',
    verifiedBy: [
      'evaluation_order_reads',
      'evaluation_order_writes',
      'rate_limit_promises_kept',
      'earliest_refusal_answered',
      'refused_never_admitted',
    ],
  },
  {
    sentence: 'An unknown path answers `404` with an `Error` whose code is `not_found`.',
    verifiedBy: ['unknown_path_not_found', 'near_miss_paths_not_found'],
  },
  {
    sentence:
      'A known path with a method it does not support answers `405` with an `Error` whose code is `method_not_allowed` and an `Allow` header listing the supported methods.',
    verifiedBy: ['method_not_allowed', 'every_method_routed', 'errors_are_error_bodies'],
  },
  {
    sentence:
      '`HEAD` on a path that has `GET` may instead be answered as that `GET` without content (RFC 9110 §9.3.2), and a CORS preflight (`OPTIONS` with `Access-Control-Request-Method`) may be answered without a key.',
    verifiedBy: ['every_method_routed'],
  },
  {
    sentence: 'Every error body is an `Error` whose `status` equals the HTTP status.',
    verifiedBy: [
      'error_body_conformance',
      'invalid_body_rejected',
      'missing_api_key_rejected',
      'errors_are_error_bodies',
    ],
  },
  {
    sentence:
      'A request body is UTF-8 JSON: a body that is not well-formed UTF-8 is not JSON, and is answered `400` with an `Error` whose code is `invalid_request`.',
    verifiedBy: ['malformed_json_rejected', 'refused_never_admitted', 'runtime_hazards_answered'],
  },
  {
    sentence: 'A string in a request body is stored exactly as sent.',
    verifiedBy: ['runtime_hazards_answered', 'valid_bodies_stored_as_sent', 'stored_as_sent'],
  },
  {
    sentence:
      'One that holds NUL (`\\u0000`), a lone surrogate (`\\ud800`) or a noncharacter (`\\uffff`), which many stores cannot hold, may instead be answered `400` with an `Error` whose code is `invalid_request`; it is never stored changed.',
    verifiedBy: ['runtime_hazards_answered'],
  },
  {
    sentence:
      'No answer carries the API key its request sent: not in its body, its header fields or its message, unless a client stored it in a record (a category named like the key is answered and listed as stored).',
    verifiedBy: ['answers_leak_nothing', 'invalid_api_key_rejected'],
  },
  {
    sentence:
      "No error answer shows the service's internals: a stack trace, a file path of the server, a database error, or a server or framework named with its version.",
    verifiedBy: ['answers_leak_nothing', 'malformed_json_rejected'],
  },
  {
    sentence: 'Only `GET /pets/{petId}` is deprecated: no other operation answers with `Deprecation` or `Sunset`.',
    verifiedBy: ['deprecation_only_where_declared', 'list_orders_conforms'],
  },
  {
    sentence:
      'Each key has a plan, and the plan sets its quotas: free (60 requests a minute, 1,000 a day), pro (300 and 10,000), business (1,000 and 100,000) or enterprise (limits agreed per key).',
    verifiedBy: ['fixed_utc_windows', 'rate_limit_exceeded_answer'],
    notCheckable:
      "which plan a key has is the service's to know: on a URL the suite reads the limit from the key's answers and holds it constant; the fake's keys have the plans' limits",
  },
  {
    sentence:
      "Each request with a key the service accepts, admitted by both of the key's windows, counts one request in each window, whatever its outcome (2xx, 400, 404, 405, 410, 413, 415).",
    verifiedBy: ['every_outcome_charged', 'charged_once_per_admitted_request', 'one_place_per_answer'],
  },
  {
    sentence:
      'A request that a used-up window refuses answers `429` with an `Error` whose code is `rate_limit_exceeded` and counts in no window.',
    verifiedBy: ['rate_limit_exceeded_answer', 'no_admission_past_the_limit', 'rate_limit_promises_kept'],
  },
  {
    sentence:
      'Requests repeated after a `429` may get the key banned for a time: `429` with an `Error` whose code is `temporarily_banned`, and `Retry-After` the seconds left.',
    verifiedBy: ['ban_after_repeated_rejections'],
    notCheckable:
      'a "may": when and for how long is the service\'s; the suite never provokes a ban on a live target (it would lock the key out), and holds the fake to its own threshold',
  },
  {
    sentence:
      "A `401` counts in no key's window, and its `X-RateLimit-*` describe no key's window: they describe the limit the service keeps on requests without a valid key from that client.",
    verifiedBy: ['charged_once_per_admitted_request', 'missing_api_key_rejected', 'uncharged_requests_cost_nothing'],
  },
  {
    sentence: 'A service that keeps no such limit may leave them out of a `401`.',
    verifiedBy: ['rate_limit_headers_on_every_response'],
  },
  {
    sentence:
      'A service may count requests without a valid key per client address and answer `429` once that limit is used up, which slows the guessing of keys.',
    verifiedBy: ['key_guessing_throttled'],
    notCheckable: 'a "may": a service that keeps no such limit gets a warning (`guessing_throttled`, a SHOULD)',
  },
  {
    sentence:
      'The HTTP layer (the server the service runs in, before any operation) may answer on its own, in its own format and without `X-RateLimit-*`, what HTTP lets a server answer for itself: a request that is not well-formed HTTP (`400`, a closed connection), one too slow (`408`), a target or header section too long (`414`, `431`), a transfer coding it does not implement (`501`), a body without `Content-Length` it will not read (`411`), an HTTP version it does not take (`505`, `426`), an expectation it cannot meet (`417`), and `OPTIONS *`.',
    verifiedBy: ['every_method_routed', 'undeclared_surroundings_ignored', 'rate_limit_headers_on_every_response'],
    notCheckable:
      'a permission: the suite takes such an answer (a bare status before any operation) as a warning, never a failure, wherever it shows',
  },
  {
    sentence:
      'The HTTP layer may also read a method token in another letter case as the method that token spells in upper case.',
    verifiedBy: ['every_method_routed'],
    notCheckable:
      'a permission: a lower-case token answered as its upper-case method is a warning (`method_case_kept`)',
  },
  {
    sentence: "Such an answer counts in no key's window.",
    verifiedBy: ['charged_once_per_admitted_request', 'every_method_routed', 'uncharged_requests_cost_nothing'],
  },
  {
    sentence:
      'Error codes: `missing_api_key` and `invalid_api_key` (401), `invalid_request` (400), `payload_too_large` (413), `unsupported_media_type` (415), `not_found` (404), `method_not_allowed` (405), `gone` (410), `rate_limit_exceeded` and `temporarily_banned` (429), `internal_error` (500: the service failed; no request is meant to provoke it).',
    verifiedBy: [
      'declared_failure_conforms',
      'no_server_error',
      'missing_api_key_rejected',
      'invalid_api_key_rejected',
      'invalid_body_rejected',
      'payload_too_large_rejected',
      'unsupported_media_type_rejected',
      'unknown_path_not_found',
      'method_not_allowed',
      'sunset_answers_gone',
      'rate_limit_exceeded_answer',
      'ban_after_repeated_rejections',
    ],
  },
  { sentence: 'Production', notCheckable: NAMES_A_THING },
  { sentence: 'Staging', notCheckable: NAMES_A_THING },
  { sentence: 'Categories used to classify pets.', notCheckable: NAMES_A_THING },
  { sentence: 'Pets for sale.', notCheckable: NAMES_A_THING },
  { sentence: 'Store orders.', notCheckable: NAMES_A_THING },
  {
    sentence: 'Returns every category available for classifying pets.',
    verifiedBy: ['valid_bodies_stored_as_sent', 'stored_as_sent'],
  },
  { sentence: 'Not paginated.', verifiedBy: ['stored_as_sent', 'unknown_query_ignored'] },
  { sentence: 'Every category, in ascending id order.', verifiedBy: ['listed_in_ascending_id_order'] },
  { sentence: 'Adds a category.', verifiedBy: ['create_category_conforms', 'valid_bodies_stored_as_sent'] },
  {
    sentence: 'Names need not be unique.',
    verifiedBy: ['concurrent_clients_serialisable', 'valid_bodies_stored_as_sent'],
  },
  {
    sentence: 'The response is the category exactly as stored: an omitted `description` stays omitted.',
    verifiedBy: ['valid_bodies_stored_as_sent', 'stored_as_sent'],
  },
  {
    sentence: 'Bodies over 16 KiB are refused with 413.',
    verifiedBy: ['payload_too_large_rejected', 'every_outcome_charged', 'earliest_refusal_answered'],
  },
  {
    sentence: 'The created category, with the id the service assigned.',
    verifiedBy: ['create_category_conforms', 'writes_read_back', 'ids_unique'],
  },
  {
    sentence: 'Deprecated: every response carries `Deprecation`, `Sunset` and `Link` headers.',
    verifiedBy: ['deprecation_headers', 'deprecation_headers_as_declared'],
    notCheckable: 'on Prism: it overwrites Deprecation with `true`',
  },
  {
    sentence: 'After the sunset date (2027-07-01) the operation answers 410 `gone`.',
    verifiedBy: ['sunset_answers_gone'],
    notCheckable: 'on a live target before 2027-07-01: its clock cannot be moved (checked against the fake)',
  },
  {
    sentence: "The pet's id, a positive integer.",
    verifiedBy: ['valid_parameters_accepted', 'invalid_parameters_rejected'],
  },
  { sentence: 'The pet.', verifiedBy: ['get_pet_conforms'] },
  {
    sentence: 'Returns every store order.',
    verifiedBy: ['list_orders_conforms'],
    notCheckable:
      'that the list is complete: the interface creates no orders, so no run knows what must be in it; it would need an operation that creates or deletes orders, or a seed of orders the target declares (the fake has one, a live target does not say)',
  },
  { sentence: 'Every order, in ascending id order.', verifiedBy: ['listed_in_ascending_id_order'] },
  {
    sentence: 'An API key sent as the bearer token.',
    verifiedBy: ['missing_api_key_rejected', 'equivalent_reads_answered_alike', 'malformed_credentials_refused'],
  },
  {
    sentence: 'Missing or invalid keys give 401.',
    verifiedBy: ['missing_api_key_rejected', 'invalid_api_key_rejected', 'create_requires_api_key'],
    notCheckable: 'invalid keys on Prism: it accepts any bearer token',
  },
  {
    sentence: 'A positive identifier assigned by the service, unique among the records of its kind.',
    verifiedBy: ['create_category_conforms', 'ids_unique', 'writes_read_back'],
  },
  {
    sentence: 'Category name; 1 to 100 characters, not only whitespace.',
    verifiedBy: ['valid_bodies_stored_as_sent', 'invalid_body_rejected'],
  },
  { sentence: 'Need not be unique.', verifiedBy: ['concurrent_clients_serialisable', 'valid_bodies_stored_as_sent'] },
  {
    sentence: 'Short description of the category; at most 500 characters.',
    verifiedBy: ['valid_bodies_stored_as_sent', 'invalid_body_rejected'],
  },
  { sentence: 'The request body that creates a category.', verifiedBy: ['invalid_body_rejected'] },
  {
    sentence:
      'A body that breaks this schema (a property it does not name, in any letter case, included) is answered `400` with an `Error` whose code is `invalid_request`, and nothing is stored.',
    verifiedBy: [
      'invalid_body_rejected',
      'invalid_body_not_stored',
      'server_fields_not_assignable',
      'runtime_hazards_answered',
    ],
  },
  { sentence: 'A category as stored by the service.', verifiedBy: ['stored_as_sent', 'list_categories_conforms'] },
  { sentence: 'The body of every error response.', verifiedBy: ['error_body_conformance'] },
  {
    sentence: 'Machine-readable error code, e.g. `invalid_request` (see the list in the description above).',
    verifiedBy: ['error_body_conformance', 'invalid_body_rejected'],
  },
  {
    sentence: 'Human-readable description naming what is wrong.',
    verifiedBy: ['invalid_body_rejected', 'error_messages_name_the_field'],
    notCheckable:
      'that a message is readable prose (a person judges that). That a 400 names what is wrong is checked for every fault the generators know that has a name (a member, a parameter); a body that is not JSON or not an object has no member to name, and would need the spec to say what such a message names',
  },
  { sentence: 'The HTTP status code of the response.', verifiedBy: ['error_body_conformance'] },
  { sentence: "A pet, shaped like the classic Swagger Petstore's.", verifiedBy: ['get_pet_conforms'] },
  { sentence: 'Availability in the store.', verifiedBy: ['get_pet_conforms'] },
  { sentence: "A store order, shaped like the classic Swagger Petstore's.", verifiedBy: ['list_orders_conforms'] },
  {
    sentence: 'On a `401`, the limit on requests without a valid key from this client, when the service keeps one.',
    verifiedBy: ['key_guessing_throttled', 'missing_api_key_rejected'],
  },
  {
    sentence: "On a `401`, the requests without a valid key this client has left in that limit's window.",
    verifiedBy: ['key_guessing_throttled'],
  },
  {
    sentence: "On a `401`, the Unix epoch second (rounded up) at which that limit's window ends.",
    verifiedBy: ['key_guessing_throttled'],
  },
  {
    sentence: 'The request limit of the window described (the one with fewer requests left).',
    verifiedBy: ['rate_limit_remaining_decreases', 'fixed_utc_windows'],
  },
  {
    sentence: 'Requests left in that window after this one.',
    verifiedBy: [
      'rate_limit_promises_kept',
      'charged_once_per_admitted_request',
      'no_surprise_rate_limit',
      'no_admission_past_the_limit',
      'one_place_per_answer',
    ],
  },
  {
    sentence: 'Unix epoch second (rounded up) at which that window ends.',
    verifiedBy: ['rate_limit_reset_in_window', 'fixed_utc_windows', 'quota_window_rolls_over'],
  },
  {
    sentence: 'Whole seconds (at least 1) to wait before retrying.',
    verifiedBy: ['rate_limit_exceeded_answer', 'quota_window_rolls_over', 'fixed_utc_windows'],
  },
  {
    sentence: 'The bearer challenge; carries `error="invalid_token"` when the answer is `invalid_api_key`.',
    verifiedBy: ['missing_api_key_rejected', 'invalid_api_key_rejected'],
  },
  {
    sentence: 'When the operation was deprecated, as `@` and a Unix epoch second (RFC 9745).',
    verifiedBy: ['deprecation_headers', 'deprecation_headers_as_declared'],
  },
  {
    sentence: 'The HTTP-date after which the operation is gone (RFC 8594).',
    verifiedBy: ['deprecation_headers', 'sunset_answers_gone'],
  },
  {
    sentence: 'Links to the deprecation notice (`rel="deprecation"`) and sunset policy (`rel="sunset"`).',
    verifiedBy: ['deprecation_headers', 'deprecation_headers_as_declared'],
  },
  {
    sentence: 'The API key is missing (`missing_api_key`) or invalid (`invalid_api_key`).',
    verifiedBy: ['missing_api_key_rejected', 'invalid_api_key_rejected'],
  },
  {
    sentence:
      'A quota window is exhausted (`rate_limit_exceeded`) or the key is temporarily banned (`temporarily_banned`).',
    verifiedBy: ['rate_limit_exceeded_answer', 'ban_after_repeated_rejections'],
    notCheckable: 'the ban on a live target: the suite never provokes one there (checked against the fake)',
  },
  {
    sentence: 'The service failed (`internal_error`).',
    verifiedBy: ['declared_failure_conforms'],
    notCheckable:
      'on a live target: no test control makes a service fail there, so its 500 is judged only when one comes (and then fails no_server_error)',
  },
  {
    sentence:
      'Never the answer to a request: a client may show it and retry later; a request that provokes it has found a defect.',
    verifiedBy: ['no_server_error'],
  },
  {
    sentence: 'The service failed (`internal_error`), on a deprecated operation.',
    verifiedBy: ['declared_failure_conforms', 'deprecation_headers_as_declared'],
  },
  {
    sentence: 'The request is invalid (`invalid_request`); the message says what is wrong.',
    verifiedBy: ['invalid_body_rejected', 'invalid_parameters_rejected', 'error_messages_name_the_field'],
  },
  { sentence: 'The request body is over 16 KiB (`payload_too_large`).', verifiedBy: ['payload_too_large_rejected'] },
  {
    sentence: 'The request body is not `application/json` (`unsupported_media_type`).',
    verifiedBy: ['unsupported_media_type_rejected'],
  },
  {
    sentence: 'The pet id is not a positive integer (`invalid_request`).',
    verifiedBy: ['invalid_parameters_rejected'],
  },
  {
    sentence: 'The API key is missing or invalid, on a deprecated operation.',
    verifiedBy: ['evaluation_order_reads', 'deprecation_headers_as_declared'],
  },
  { sentence: 'No pet has this id (`not_found`).', verifiedBy: ['valid_parameters_accepted', 'get_pet_conforms'] },
  { sentence: 'The sunset date has passed; the operation is gone (`gone`).', verifiedBy: ['sunset_answers_gone'] },
  {
    sentence: 'A quota window is exhausted or the key is banned, on a deprecated operation.',
    verifiedBy: ['ban_after_repeated_rejections', 'deprecation_headers_as_declared'],
  },
];
