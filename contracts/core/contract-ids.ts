/**
 * The ids a run's findings, the rule table, the spec's sentences and the broken variants refer to: every
 * check's name and every promise's name, as string-literal unions, so a misspelt id is a type error.
 *
 * They sit at the floor because the tables that name them sit below what they name (the rule table and
 * the sentences name checks; the sentences name promises). The registries are held to these lists: the
 * promises' table by its type (`satisfies Record<PromiseName, ...>`), the checks' by their `name` type
 * and by `contracts/checks/registry.test.ts` (every name exactly once). A rule's id is its key in
 * `contracts/rules/rule-table.ts`.
 */

/** Every check's name, in the order the registry runs them (`contracts/checks/registry.ts`). */
export const CHECK_NAMES = [
  'list_categories_conforms',
  'list_orders_conforms',
  'get_pet_conforms',
  'create_category_conforms',
  'declared_failure_conforms',
  'error_body_conformance',
  'missing_api_key_rejected',
  'invalid_api_key_rejected',
  'create_requires_api_key',
  'answers_keep_the_protocol',
  'every_method_routed',
  'malformed_credentials_refused',
  'conditional_requests_honoured',
  'repeated_members_handled',
  'answers_leak_nothing',
  'undeclared_routes_refused',
  'valid_parameters_accepted',
  'invalid_parameters_rejected',
  'unknown_query_ignored',
  'undeclared_surroundings_ignored',
  'connection_rules_kept',
  'host_field_required_once',
  'limits_hold_under_every_framing',
  'equivalent_reads_answered_alike',
  'valid_bodies_stored_as_sent',
  'invalid_body_rejected',
  'invalid_body_not_stored',
  'runtime_hazards_answered',
  'server_fields_not_assignable',
  'error_messages_name_the_field',
  'malformed_json_rejected',
  'unsupported_media_type_rejected',
  'payload_too_large_rejected',
  'equivalent_writes_answered_alike',
  'writes_read_back',
  'unknown_path_not_found',
  'near_miss_paths_not_found',
  'method_not_allowed',
  'evaluation_order_reads',
  'evaluation_order_writes',
  'rate_limit_headers_on_every_response',
  'rate_limit_remaining_decreases',
  'rate_limit_reset_in_window',
  'every_outcome_charged',
  'uncharged_requests_cost_nothing',
  'deprecation_headers',
  'sunset_answers_gone',
  'rate_limit_exceeded_answer',
  'key_guessing_throttled',
  'rate_limit_promises_kept',
  'concurrent_clients_serialisable',
  'quota_window_rolls_over',
  'both_quota_windows_held',
  'ban_after_repeated_rejections',
] as const;

/** The stable snake_case name of one check of the registry. */
export type CheckName = (typeof CHECK_NAMES)[number];

/** Every promise's name, in the order of the model's table (`contracts/model/promise-rules.ts`). */
export const PROMISE_NAMES = [
  'charged_once_per_admitted_request',
  'no_surprise_rate_limit',
  'no_admission_past_the_limit',
  'one_place_per_answer',
  'fixed_utc_windows',
  'lower_window_described',
  'ids_unique',
  'stored_as_sent',
  'listed_in_ascending_id_order',
  'deprecation_only_where_declared',
  'deprecation_headers_as_declared',
  'refused_never_admitted',
  'earliest_refusal_answered',
  'no_server_error',
  'errors_are_error_bodies',
] as const;

/** The name of one promise of the model. */
export type PromiseName = (typeof PROMISE_NAMES)[number];
