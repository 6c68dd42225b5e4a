import type { CheckName, PromiseName } from '../core/contract-ids.js';
import { SpecPhraseError, specSentence, specSentences, type SpecSentence } from './spec-sentences.js';

/**
 * Every sentence of the spec's prose, and what holds a target to it: the checks (and the run model's
 * promises) that verify it, or why it cannot be checked and where. A row holds only what the spec does
 * not: the words that find its sentence, read from `spec/openapi.yaml` when this module loads.
 * `sentence-table.test.ts` fails when a sentence of the spec has no row, when a row's words find no
 * sentence or several, or when a row names a check or promise that does not exist.
 */
export interface SentenceRow {
  /** Words of the sentence, found in that sentence only (`specSentence`); the sentence is read from the spec. */
  phrase: string;
  /** Checks of the registry and promises of the model (`contracts/model/promise-rules.ts`) that verify it. */
  verifiedBy?: readonly (CheckName | PromiseName)[];
  /** Why it is not checked: on which targets, and for what reason. */
  notCheckable?: string;
}

/** A row with the sentence it finds, as the spec writes it now. */
export type SentenceOfTheSpec = SentenceRow & { sentence: string };

const NAMES_A_THING = 'names what a thing is; it promises nothing a client can observe';

export const SENTENCE_KEYS: readonly SentenceRow[] = [
  {
    phrase: 'A JSON-over-HTTP interface for a',
    verifiedBy: ['list_categories_conforms', 'create_category_conforms', 'error_body_conformance'],
  },
  {
    phrase: 'Every operation needs an API',
    verifiedBy: [
      'missing_api_key_rejected',
      'create_requires_api_key',
      'every_outcome_charged',
      'charged_once_per_admitted_request',
      'fixed_utc_windows',
      'quota_window_rolls_over',
    ],
  },
  { phrase: 'Rules that apply to every', notCheckable: 'introduces the rules below; each has its own row' },
  {
    phrase: 'Every response carries `X-RateLimit-Limit`, `X-RateLimit-Remaining`',
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
  { phrase: 'A header field, a query', verifiedBy: ['undeclared_surroundings_ignored', 'unknown_query_ignored'] },
  {
    phrase: 'Where HTTP itself gives such',
    verifiedBy: ['conditional_requests_honoured', 'undeclared_surroundings_ignored'],
  },
  {
    phrase: 'Authentication and quota are evaluated',
    verifiedBy: [
      'evaluation_order_reads',
      'evaluation_order_writes',
      'rate_limit_promises_kept',
      'earliest_refusal_answered',
      'refused_never_admitted',
    ],
  },
  { phrase: 'An unknown path answers `404`', verifiedBy: ['unknown_path_not_found', 'near_miss_paths_not_found'] },
  {
    phrase: 'A known path with a',
    verifiedBy: ['method_not_allowed', 'every_method_routed', 'errors_are_error_bodies'],
  },
  { phrase: '`HEAD` on a path that', verifiedBy: ['every_method_routed'] },
  {
    phrase: 'Every error body is an',
    verifiedBy: [
      'error_body_conformance',
      'invalid_body_rejected',
      'missing_api_key_rejected',
      'errors_are_error_bodies',
    ],
  },
  {
    phrase: 'A request body is UTF-8',
    verifiedBy: ['malformed_json_rejected', 'refused_never_admitted', 'runtime_hazards_answered'],
  },
  {
    phrase: 'A string in a request',
    verifiedBy: ['runtime_hazards_answered', 'valid_bodies_stored_as_sent', 'stored_as_sent'],
  },
  { phrase: 'One that holds NUL (`\\u0000`)', verifiedBy: ['runtime_hazards_answered'] },
  { phrase: 'No answer carries the API', verifiedBy: ['answers_leak_nothing', 'invalid_api_key_rejected'] },
  { phrase: 'No error answer shows the', verifiedBy: ['answers_leak_nothing', 'malformed_json_rejected'] },
  {
    phrase: 'Only `GET /pets/{petId}` is deprecated',
    verifiedBy: ['deprecation_only_where_declared', 'list_orders_conforms'],
  },
  {
    phrase: 'Each key has a plan',
    verifiedBy: ['fixed_utc_windows', 'rate_limit_exceeded_answer'],
    notCheckable:
      "which plan a key has is the service's to know: on a URL the suite reads the limit from the key's answers and holds it constant; the fake's keys have the plans' limits",
  },
  {
    phrase: 'Each request with a key',
    verifiedBy: ['every_outcome_charged', 'charged_once_per_admitted_request', 'one_place_per_answer'],
  },
  {
    phrase: 'A request that a used-up',
    verifiedBy: ['rate_limit_exceeded_answer', 'no_admission_past_the_limit', 'rate_limit_promises_kept'],
  },
  {
    phrase: 'Requests repeated after a `429`',
    verifiedBy: ['ban_after_repeated_rejections'],
    notCheckable:
      'a "may": when and for how long is the service\'s; the suite never provokes a ban on a live target (it would lock the key out), and holds the fake to its own threshold',
  },
  {
    phrase: 'A `401` counts in no',
    verifiedBy: ['charged_once_per_admitted_request', 'missing_api_key_rejected', 'uncharged_requests_cost_nothing'],
  },
  { phrase: 'A service that keeps no', verifiedBy: ['rate_limit_headers_on_every_response'] },
  {
    phrase: 'A service may count requests',
    verifiedBy: ['key_guessing_throttled'],
    notCheckable: 'a "may": a service that keeps no such limit gets a warning (`guessing_throttled`, a SHOULD)',
  },
  {
    phrase: 'The HTTP layer (the server',
    verifiedBy: ['every_method_routed', 'undeclared_surroundings_ignored', 'rate_limit_headers_on_every_response'],
    notCheckable:
      'a permission: the suite takes such an answer (a bare status before any operation) as a warning, never a failure, wherever it shows',
  },
  {
    phrase: 'The HTTP layer may also',
    verifiedBy: ['every_method_routed'],
    notCheckable:
      'a permission: a lower-case token answered as its upper-case method is a warning (`method_case_kept`)',
  },
  {
    phrase: 'Such an answer counts in',
    verifiedBy: ['charged_once_per_admitted_request', 'every_method_routed', 'uncharged_requests_cost_nothing'],
  },
  {
    phrase: 'Error codes: `missing_api_key` and `invalid_api_key`',
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
  { phrase: 'Production', notCheckable: NAMES_A_THING },
  { phrase: 'Staging', notCheckable: NAMES_A_THING },
  { phrase: 'Categories used to classify pets.', notCheckable: NAMES_A_THING },
  { phrase: 'Pets for sale.', notCheckable: NAMES_A_THING },
  { phrase: 'Store orders.', notCheckable: NAMES_A_THING },
  { phrase: 'Returns every category available for', verifiedBy: ['valid_bodies_stored_as_sent', 'stored_as_sent'] },
  { phrase: 'Not paginated.', verifiedBy: ['stored_as_sent', 'unknown_query_ignored'] },
  { phrase: 'Every category, in ascending id', verifiedBy: ['listed_in_ascending_id_order'] },
  { phrase: 'Adds a category.', verifiedBy: ['create_category_conforms', 'valid_bodies_stored_as_sent'] },
  {
    phrase: 'Names need not be unique.',
    verifiedBy: ['concurrent_clients_serialisable', 'valid_bodies_stored_as_sent'],
  },
  { phrase: 'The response is the category', verifiedBy: ['valid_bodies_stored_as_sent', 'stored_as_sent'] },
  {
    phrase: 'Bodies over 16 KiB are',
    verifiedBy: ['payload_too_large_rejected', 'every_outcome_charged', 'earliest_refusal_answered'],
  },
  {
    phrase: 'The created category, with the',
    verifiedBy: ['create_category_conforms', 'writes_read_back', 'ids_unique'],
  },
  {
    phrase: 'Deprecated: every response carries `Deprecation`',
    verifiedBy: ['deprecation_headers', 'deprecation_headers_as_declared'],
    notCheckable: 'on Prism: it overwrites Deprecation with `true`',
  },
  {
    phrase: 'After the sunset date (2027-07-01)',
    verifiedBy: ['sunset_answers_gone'],
    notCheckable: 'on a live target before 2027-07-01: its clock cannot be moved (checked against the fake)',
  },
  { phrase: "The pet's id, a positive", verifiedBy: ['valid_parameters_accepted', 'invalid_parameters_rejected'] },
  { phrase: 'The pet.', verifiedBy: ['get_pet_conforms'] },
  {
    phrase: 'Returns every store order.',
    verifiedBy: ['list_orders_conforms'],
    notCheckable:
      'that the list is complete: the interface creates no orders, so no run knows what must be in it; it would need an operation that creates or deletes orders, or a seed of orders the target declares (the fake has one, a live target does not say)',
  },
  { phrase: 'Every order, in ascending id', verifiedBy: ['listed_in_ascending_id_order'] },
  {
    phrase: 'An API key sent as',
    verifiedBy: ['missing_api_key_rejected', 'equivalent_reads_answered_alike', 'malformed_credentials_refused'],
  },
  {
    phrase: 'Missing or invalid keys give',
    verifiedBy: ['missing_api_key_rejected', 'invalid_api_key_rejected', 'create_requires_api_key'],
    notCheckable: 'invalid keys on Prism: it accepts any bearer token',
  },
  {
    phrase: 'A positive identifier assigned by',
    verifiedBy: ['create_category_conforms', 'ids_unique', 'writes_read_back'],
  },
  { phrase: 'Category name; 1 to 100', verifiedBy: ['valid_bodies_stored_as_sent', 'invalid_body_rejected'] },
  { phrase: 'Need not be unique.', verifiedBy: ['concurrent_clients_serialisable', 'valid_bodies_stored_as_sent'] },
  { phrase: 'Short description of the category', verifiedBy: ['valid_bodies_stored_as_sent', 'invalid_body_rejected'] },
  { phrase: 'The request body that creates', verifiedBy: ['invalid_body_rejected'] },
  {
    phrase: 'A body that breaks this',
    verifiedBy: [
      'invalid_body_rejected',
      'invalid_body_not_stored',
      'server_fields_not_assignable',
      'runtime_hazards_answered',
    ],
  },
  { phrase: 'A category as stored by', verifiedBy: ['stored_as_sent', 'list_categories_conforms'] },
  { phrase: 'The body of every error', verifiedBy: ['error_body_conformance'] },
  {
    phrase: 'Machine-readable error code, e.g. `invalid_request`',
    verifiedBy: ['error_body_conformance', 'invalid_body_rejected'],
  },
  {
    phrase: 'Human-readable description naming what is',
    verifiedBy: ['invalid_body_rejected', 'error_messages_name_the_field'],
    notCheckable:
      'that a message is readable prose (a person judges that). That a 400 names what is wrong is checked for every fault the generators know that has a name (a member, a parameter); a body that is not JSON or not an object has no member to name, and would need the spec to say what such a message names',
  },
  { phrase: 'The HTTP status code of', verifiedBy: ['error_body_conformance'] },
  { phrase: 'A pet, shaped like the', verifiedBy: ['get_pet_conforms'] },
  { phrase: 'Availability in the store.', verifiedBy: ['get_pet_conforms'] },
  { phrase: 'A store order, shaped like', verifiedBy: ['list_orders_conforms'] },
  { phrase: 'On a `401`, the limit', verifiedBy: ['key_guessing_throttled', 'missing_api_key_rejected'] },
  { phrase: 'On a `401`, the requests', verifiedBy: ['key_guessing_throttled'] },
  { phrase: 'On a `401`, the Unix', verifiedBy: ['key_guessing_throttled'] },
  { phrase: 'The request limit of the', verifiedBy: ['rate_limit_remaining_decreases', 'fixed_utc_windows'] },
  {
    phrase: 'Requests left in that window',
    verifiedBy: [
      'rate_limit_promises_kept',
      'charged_once_per_admitted_request',
      'no_surprise_rate_limit',
      'no_admission_past_the_limit',
      'one_place_per_answer',
    ],
  },
  {
    phrase: 'Unix epoch second (rounded up) at which that window',
    verifiedBy: ['rate_limit_reset_in_window', 'fixed_utc_windows', 'quota_window_rolls_over'],
  },
  {
    phrase: 'Whole seconds (at least 1)',
    verifiedBy: ['rate_limit_exceeded_answer', 'quota_window_rolls_over', 'fixed_utc_windows'],
  },
  {
    phrase: 'The bearer challenge; carries `error="invalid_token"`',
    verifiedBy: ['missing_api_key_rejected', 'invalid_api_key_rejected'],
  },
  {
    phrase: 'When the operation was deprecated',
    verifiedBy: ['deprecation_headers', 'deprecation_headers_as_declared'],
  },
  { phrase: 'The HTTP-date after which the', verifiedBy: ['deprecation_headers', 'sunset_answers_gone'] },
  { phrase: 'Links to the deprecation notice', verifiedBy: ['deprecation_headers', 'deprecation_headers_as_declared'] },
  {
    phrase: 'The API key is missing (`missing_api_key`)',
    verifiedBy: ['missing_api_key_rejected', 'invalid_api_key_rejected'],
  },
  {
    phrase: 'A quota window is exhausted (`rate_limit_exceeded`)',
    verifiedBy: ['rate_limit_exceeded_answer', 'ban_after_repeated_rejections'],
    notCheckable: 'the ban on a live target: the suite never provokes one there (checked against the fake)',
  },
  {
    phrase: 'The service failed (`internal_error`).',
    verifiedBy: ['declared_failure_conforms'],
    notCheckable:
      'on a live target: no test control makes a service fail there, so its 500 is judged only when one comes (and then fails no_server_error)',
  },
  { phrase: 'Never the answer to a', verifiedBy: ['no_server_error'] },
  {
    phrase: 'The service failed (`internal_error`), on',
    verifiedBy: ['declared_failure_conforms', 'deprecation_headers_as_declared'],
  },
  {
    phrase: 'The request is invalid (`invalid_request`)',
    verifiedBy: ['invalid_body_rejected', 'invalid_parameters_rejected', 'error_messages_name_the_field'],
  },
  { phrase: 'The request body is over', verifiedBy: ['payload_too_large_rejected'] },
  { phrase: 'The request body is not', verifiedBy: ['unsupported_media_type_rejected'] },
  { phrase: 'The pet id is not', verifiedBy: ['invalid_parameters_rejected'] },
  { phrase: 'The API key is missing or', verifiedBy: ['evaluation_order_reads', 'deprecation_headers_as_declared'] },
  { phrase: 'No pet has this id', verifiedBy: ['valid_parameters_accepted', 'get_pet_conforms'] },
  { phrase: 'The sunset date has passed', verifiedBy: ['sunset_answers_gone'] },
  {
    phrase: 'A quota window is exhausted or',
    verifiedBy: ['ban_after_repeated_rejections', 'deprecation_headers_as_declared'],
  },
];

/**
 * Each row with the sentence its words find; throws one {@link SpecPhraseError} naming every row whose
 * words find no sentence or several (the spec was reworded under them).
 * @example withSentences([{ phrase: 'Not paginated', verifiedBy: ['stored_as_sent'] }])[0].sentence // 'Not paginated.'
 */
export function withSentences(
  rows: readonly SentenceRow[],
  sentences: readonly SpecSentence[] = specSentences(),
): SentenceOfTheSpec[] {
  const problems: string[] = [];
  const found = rows.map((row) => {
    try {
      return { ...row, sentence: specSentence(row.phrase, sentences) };
    } catch (error) {
      if (!(error instanceof SpecPhraseError)) throw error;
      problems.push(error.message);
      return { ...row, sentence: '' };
    }
  });
  if (problems.length > 0) throw new SpecPhraseError(`the sentence table's keys:\n${problems.join('\n')}`);
  return found;
}

/** {@link SENTENCE_KEYS} with their sentences, read from `spec/openapi.yaml` at load. */
export const SENTENCE_TABLE: readonly SentenceOfTheSpec[] = withSentences(SENTENCE_KEYS);
