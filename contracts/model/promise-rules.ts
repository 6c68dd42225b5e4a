import type { Capability } from '../core/capabilities.js';

/**
 * The promises of the spec that only show across exchanges, each judged by the run's one model
 * ({@link PromiseModel}) over every exchange the suite (or the proxy) sees. A broken promise fails the
 * check that was running when it showed, under the promise's name.
 */
export const PROMISES = {
  charged_once_per_admitted_request: {
    needs: ['stateful'],
    promise:
      "every admitted request lowers X-RateLimit-Remaining of its window by exactly one, whatever its outcome (2xx, 400, 404, 405, 413, 415, 410); a 401 counts in the address's anonymous bucket, a 429 costs nothing",
  },
  no_surprise_rate_limit: {
    needs: ['stateful'],
    promise: 'no 429 rate_limit_exceeded while the last answer of the same window announced requests left',
  },
  no_admission_past_the_limit: {
    needs: ['stateful'],
    promise: 'once a window announced 0 left (or a 429), nothing more is admitted until it ends',
  },
  one_place_per_answer: {
    needs: ['stateful'],
    promise: 'answers to concurrent requests claim distinct places in the window, in an order some serial run explains',
  },
  fixed_utc_windows: {
    needs: ['stateful'],
    promise:
      "X-RateLimit-Reset is the end (rounded up) of a fixed UTC minute or day, no further away than that window lasts; X-RateLimit-Limit is constant per window and the plan's when known; a 429 says Remaining 0 and a Retry-After of at most the time left",
  },
  lower_window_described: {
    needs: ['stateful'],
    promise:
      'the model keeps both windows at once: every answer describes the window with fewer requests left (on a tie the day), and never contradicts what any earlier answer implied about either window (what each has left, at most; nothing admitted while either is at 0)',
  },
  ids_unique: {
    needs: ['stateful'],
    promise: 'no two records of a collection share an id: a created record never takes an id already answered',
  },
  stored_as_sent: {
    needs: ['stateful'],
    promise:
      'a created record is answered with exactly the fields sent, and every later list the spec declares complete (`x-paginated: false`: "Not paginated") includes it exactly as answered',
  },
  listed_in_ascending_id_order: {
    needs: [],
    promise:
      'a list answers its records in the order its spec response declares (`x-order-by: id`: "in ascending id order")',
  },
  deprecation_only_where_declared: {
    needs: [],
    promise: 'only an operation the spec marks deprecated answers with Deprecation or Sunset',
  },
  deprecation_headers_as_declared: {
    needs: ['deprecationHeaders'],
    promise:
      "every answer of a deprecated operation carries Deprecation, the spec's x-sunset as Sunset, and Link to both notices",
  },
  refused_never_admitted: {
    needs: [],
    promise:
      'a request the spec refuses whatever the state (no key, a path no operation has, a method the path lacks, a body that is not JSON, over x-max-body-bytes or breaking the schema) is never answered 2xx',
  },
  earliest_refusal_answered: {
    needs: ['uniformErrors'],
    promise:
      "a refused request gets the status of its earliest stage (authentication and quota, then routing 404/405, then media type 415, size 413, syntax and schema 400), and a request that passes a stage never gets that stage's status",
  },
  no_server_error: {
    needs: [],
    promise:
      "no request is answered 5xx unless it asked for that status (`Prefer: code=500`, the fake's and Prism's test control): the spec's 500 says the service failed, and a request that makes it fail has found a defect",
  },
  errors_are_error_bodies: {
    needs: ['uniformErrors'],
    promise:
      "every error answer, on any path, is the spec's Error as application/json whose status is the HTTP status; a 405 lists the path's methods in Allow",
  },
} as const satisfies Record<string, { needs: readonly Capability[]; promise: string }>;

/** The name of one promise of {@link PROMISES}. */
export type PromiseName = keyof typeof PROMISES;

/** Every promise's name, in the order of the table. */
export const PROMISE_NAMES = Object.keys(PROMISES) as PromiseName[];
