import type { Capability } from '../core/capabilities.js';
import type { PromiseName } from '../core/contract-ids.js';
import type { Requirement } from '../core/requirement.js';
import { theSpecSays } from '../sentences/spec-sentences.js';
import type { Strength } from '../rules/rule-table.js';

/** One promise: what a target must support to be held to it, its strength, and the sentence that makes it. */
export interface ModelPromise {
  needs: readonly Capability[];
  /** MUST: a broken promise fails the run; SHOULD: it warns unless `--strict`. */
  strength: Strength;
  requirement: Requirement;
  promise: string;
  /** Judged by the quota model (model/quota-model.ts): a 429 that breaks it announces no wait worth taking. */
  judgedByQuotaModel?: true;
}

/** The sentence that makes both the charge of each request and its one place in the window. */
const COUNTS_ONE_IN_EACH_WINDOW: Requirement = theSpecSays(['Each request with a key']);

/**
 * The promises of the spec that only show across exchanges, each judged by the run's one model
 * ({@link PromiseModel}) over every exchange the suite (or the proxy) sees. A broken promise fails the
 * check that was running when it showed, under the promise's name.
 */
export const PROMISES = {
  charged_once_per_admitted_request: {
    judgedByQuotaModel: true,
    strength: 'MUST',
    requirement: COUNTS_ONE_IN_EACH_WINDOW,
    needs: ['stateful'],
    promise:
      "every admitted request lowers X-RateLimit-Remaining of its key's window by exactly one, whatever its outcome (2xx, 400, 404, 405, 413, 415, 410); a 401 and a 429 cost the key nothing",
  },
  no_surprise_rate_limit: {
    judgedByQuotaModel: true,
    strength: 'MUST',
    requirement: theSpecSays(['Requests left in that window']),
    needs: ['stateful'],
    promise:
      'no 429 rate_limit_exceeded for a window that has requests left: as its last answer announced, or as answers describing the other window imply (that one had fewer left)',
  },
  no_admission_past_the_limit: {
    judgedByQuotaModel: true,
    strength: 'MUST',
    requirement: theSpecSays(['A request that a used-up']),
    needs: ['stateful'],
    promise: 'once a window announced 0 left (or a 429), nothing more is admitted until it ends',
  },
  one_place_per_answer: {
    judgedByQuotaModel: true,
    strength: 'MUST',
    requirement: COUNTS_ONE_IN_EACH_WINDOW,
    needs: ['stateful'],
    promise: 'answers to concurrent requests claim distinct places in the window, in an order some serial run explains',
  },
  fixed_utc_windows: {
    judgedByQuotaModel: true,
    strength: 'MUST',
    requirement: theSpecSays(['Every operation needs an API']),
    needs: ['stateful'],
    promise:
      "X-RateLimit-Reset is the end (rounded up) of a fixed UTC minute or day, no further away than that window lasts; X-RateLimit-Limit is constant per window and the plan's when known; a 429 says Remaining 0 and a Retry-After of at most the time left",
  },
  lower_window_described: {
    judgedByQuotaModel: true,
    strength: 'MUST',
    requirement: theSpecSays(['Every response carries `X-RateLimit-Limit`, `X-RateLimit-Remaining`']),
    needs: ['stateful'],
    promise:
      "the model keeps both windows at once: every answer's three fields describe the window with fewer requests left (on a tie the day), held against what it knows of the other window (its limit, the plan's or as its answers said, less the requests seen counted in it; what earlier answers and the fake's scenario controls said of it), and never contradict what any earlier answer implied about either window (what each has left, at most; nothing admitted while either is at 0); where it cannot know which window is lower it notes so and fails nothing",
  },
  ids_unique: {
    strength: 'MUST',
    requirement: theSpecSays(['A positive identifier assigned by']),
    needs: ['stateful'],
    promise: 'no two records of a collection share an id: a created record never takes an id already answered',
  },
  stored_as_sent: {
    strength: 'MUST',
    requirement: theSpecSays(['The response is the category']),
    needs: ['stateful'],
    promise:
      'a created or replaced record is answered with exactly the fields sent, and every later list the spec declares complete (`x-paginated: false`: "Not paginated") includes it exactly as answered and holds no record the run deleted (nor does a later read find one)',
  },
  listed_in_ascending_id_order: {
    strength: 'MUST',
    requirement: theSpecSays(['Every category, in ascending id']),
    needs: [],
    promise:
      'a list answers its records in the order its spec response declares (`x-order-by: id`: "in ascending id order")',
  },
  deprecation_only_where_declared: {
    strength: 'MUST',
    requirement: theSpecSays(['Only `GET /pets/{petId}` is deprecated']),
    needs: [],
    promise: 'only an operation the spec marks deprecated answers with Deprecation or Sunset',
  },
  deprecation_headers_as_declared: {
    strength: 'MUST',
    requirement: theSpecSays(['Deprecated: every response carries `Deprecation`']),
    needs: ['deprecationHeaders'],
    promise:
      "every answer of a deprecated operation carries Deprecation, the spec's x-sunset as Sunset, and Link to both notices",
  },
  refused_never_admitted: {
    strength: 'MUST',
    requirement: theSpecSays([
      'Missing or invalid keys give',
      'An unknown path answers `404`',
      'Bodies over 16 KiB are',
      'A body that breaks this',
    ]),
    needs: [],
    promise:
      'a request the spec refuses whatever the state (no key, a path no operation has, a method the path lacks, a body that is not JSON, over x-max-body-bytes or breaking the schema) is never answered 2xx',
  },
  earliest_refusal_answered: {
    strength: 'MUST',
    requirement: theSpecSays(['Authentication and quota are evaluated']),
    needs: ['uniformErrors'],
    promise:
      "a refused request gets the status of its earliest stage (authentication and quota, then routing 404/405, then validation: media type 415, size 413, syntax or schema 400, in any order among them), and a request that passes a stage never gets that stage's status",
  },
  no_server_error: {
    strength: 'MUST',
    requirement: theSpecSays(['Never the answer to a']),
    needs: [],
    promise:
      "no request is answered 5xx unless it asked for that status (`Prefer: code=500`, the fake's and Prism's test control): the spec's 500 says the service failed, and a request that makes it fail has found a defect",
  },
  errors_are_error_bodies: {
    strength: 'MUST',
    requirement: theSpecSays(['Every error body is an']),
    needs: ['uniformErrors'],
    promise:
      "every error answer, on any path, is the spec's Error as application/json whose status is the HTTP status; a 405 lists the path's methods in Allow",
  },
} as const satisfies Record<PromiseName, ModelPromise>;

export { PROMISE_NAMES, type PromiseName } from '../core/contract-ids.js';
