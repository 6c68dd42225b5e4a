import type { Capability } from '../core/capabilities.js';
import { THE_SPEC, type Requirement } from '../core/requirement.js';
import type { Strength } from '../rules/rule-table.js';

/** One promise: what a target must support to be held to it, its strength, and the sentence that makes it. */
export interface ModelPromise {
  needs: readonly Capability[];
  /** MUST: a broken promise fails the run; SHOULD: it warns unless `--strict`. */
  strength: Strength;
  requirement: Requirement;
  promise: string;
}

/** The sentence that makes both the charge of each request and its one place in the window. */
const COUNTS_ONE_IN_EACH_WINDOW: Requirement = {
  quote:
    "Each request with a key the service accepts, admitted by both of the key's windows, counts one request in each window, whatever its outcome (2xx, 400, 404, 405, 410, 413, 415).",
  where: THE_SPEC,
  binds: 'server',
};

/**
 * The promises of the spec that only show across exchanges, each judged by the run's one model
 * ({@link PromiseModel}) over every exchange the suite (or the proxy) sees. A broken promise fails the
 * check that was running when it showed, under the promise's name.
 */
export const PROMISES = {
  charged_once_per_admitted_request: {
    strength: 'MUST',
    requirement: COUNTS_ONE_IN_EACH_WINDOW,
    needs: ['stateful'],
    promise:
      "every admitted request lowers X-RateLimit-Remaining of its key's window by exactly one, whatever its outcome (2xx, 400, 404, 405, 413, 415, 410); a 401 and a 429 cost the key nothing",
  },
  no_surprise_rate_limit: {
    strength: 'MUST',
    requirement: { quote: 'Requests left in that window after this one.', where: THE_SPEC, binds: 'server' },
    needs: ['stateful'],
    promise:
      'no 429 rate_limit_exceeded for a window that has requests left: as its last answer announced, or as answers describing the other window imply (that one had fewer left)',
  },
  no_admission_past_the_limit: {
    strength: 'MUST',
    requirement: {
      quote:
        'A request that a used-up window refuses answers `429` with an `Error` whose code is `rate_limit_exceeded` and counts in no window.',
      where: THE_SPEC,
      binds: 'server',
    },
    needs: ['stateful'],
    promise: 'once a window announced 0 left (or a 429), nothing more is admitted until it ends',
  },
  one_place_per_answer: {
    strength: 'MUST',
    requirement: COUNTS_ONE_IN_EACH_WINDOW,
    needs: ['stateful'],
    promise: 'answers to concurrent requests claim distinct places in the window, in an order some serial run explains',
  },
  fixed_utc_windows: {
    strength: 'MUST',
    requirement: {
      quote:
        "Every operation needs an API key sent as `Authorization: Bearer <API_KEY>` and counts against the key's per-plan quotas (two fixed UTC windows: one minute and one day).",
      where: THE_SPEC,
      binds: 'server',
    },
    needs: ['stateful'],
    promise:
      "X-RateLimit-Reset is the end (rounded up) of a fixed UTC minute or day, no further away than that window lasts; X-RateLimit-Limit is constant per window and the plan's when known; a 429 says Remaining 0 and a Retry-After of at most the time left",
  },
  lower_window_described: {
    strength: 'MUST',
    requirement: {
      quote:
        'Every response carries `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset`, describing the window (minute or day) with the lower remaining count after the request (on a tie, the day window), except where a rule below says otherwise: a `401`, and an answer of the HTTP layer.',
      where: THE_SPEC,
      binds: 'server',
    },
    needs: ['stateful'],
    promise:
      "the model keeps both windows at once: every answer's three fields describe the window with fewer requests left (on a tie the day), held against what it knows of the other window (its limit, the plan's or as its answers said, less the requests seen counted in it; what earlier answers and the fake's scenario controls said of it), and never contradict what any earlier answer implied about either window (what each has left, at most; nothing admitted while either is at 0); where it cannot know which window is lower it notes so and fails nothing",
  },
  ids_unique: {
    strength: 'MUST',
    requirement: {
      quote: 'A positive identifier assigned by the service, unique among the records of its kind.',
      where: THE_SPEC,
      binds: 'server',
    },
    needs: ['stateful'],
    promise: 'no two records of a collection share an id: a created record never takes an id already answered',
  },
  stored_as_sent: {
    strength: 'MUST',
    requirement: {
      quote: 'The response is the category exactly as stored: an omitted `description` stays omitted.',
      where: THE_SPEC,
      binds: 'server',
    },
    needs: ['stateful'],
    promise:
      'a created record is answered with exactly the fields sent, and every later list the spec declares complete (`x-paginated: false`: "Not paginated") includes it exactly as answered',
  },
  listed_in_ascending_id_order: {
    strength: 'MUST',
    requirement: { quote: 'Every category, in ascending id order.', where: THE_SPEC, binds: 'server' },
    needs: [],
    promise:
      'a list answers its records in the order its spec response declares (`x-order-by: id`: "in ascending id order")',
  },
  deprecation_only_where_declared: {
    strength: 'MUST',
    requirement: {
      quote: 'Only `GET /pets/{petId}` is deprecated: no other operation answers with `Deprecation` or `Sunset`.',
      where: THE_SPEC,
      binds: 'server',
    },
    needs: [],
    promise: 'only an operation the spec marks deprecated answers with Deprecation or Sunset',
  },
  deprecation_headers_as_declared: {
    strength: 'MUST',
    requirement: {
      quote: 'Deprecated: every response carries `Deprecation`, `Sunset` and `Link` headers.',
      where: THE_SPEC,
      binds: 'server',
    },
    needs: ['deprecationHeaders'],
    promise:
      "every answer of a deprecated operation carries Deprecation, the spec's x-sunset as Sunset, and Link to both notices",
  },
  refused_never_admitted: {
    strength: 'MUST',
    requirement: {
      quote:
        'Missing or invalid keys give 401. … An unknown path answers `404` with an `Error` whose code is `not_found`. … Bodies over 16 KiB are refused with 413. … A body that breaks this schema (a property it does not name, in any letter case, included) is answered `400` with an `Error` whose code is `invalid_request`, and nothing is stored.',
      where: THE_SPEC,
      binds: 'server',
    },
    needs: [],
    promise:
      'a request the spec refuses whatever the state (no key, a path no operation has, a method the path lacks, a body that is not JSON, over x-max-body-bytes or breaking the schema) is never answered 2xx',
  },
  earliest_refusal_answered: {
    strength: 'MUST',
    requirement: {
      quote: 'Authentication and quota are evaluated first, then routing, then validation.',
      where: THE_SPEC,
      binds: 'server',
    },
    needs: ['uniformErrors'],
    promise:
      "a refused request gets the status of its earliest stage (authentication and quota, then routing 404/405, then validation: media type 415, size 413, syntax or schema 400, in any order among them), and a request that passes a stage never gets that stage's status",
  },
  no_server_error: {
    strength: 'MUST',
    requirement: {
      quote:
        'Never the answer to a request: a client may show it and retry later; a request that provokes it has found a defect.',
      where: THE_SPEC,
      binds: 'server',
    },
    needs: [],
    promise:
      "no request is answered 5xx unless it asked for that status (`Prefer: code=500`, the fake's and Prism's test control): the spec's 500 says the service failed, and a request that makes it fail has found a defect",
  },
  errors_are_error_bodies: {
    strength: 'MUST',
    requirement: {
      quote: 'Every error body is an `Error` whose `status` equals the HTTP status.',
      where: THE_SPEC,
      binds: 'server',
    },
    needs: ['uniformErrors'],
    promise:
      "every error answer, on any path, is the spec's Error as application/json whose status is the HTTP status; a 405 lists the path's methods in Allow",
  },
} as const satisfies Record<string, ModelPromise>;

/** The name of one promise of {@link PROMISES}. */
export type PromiseName = keyof typeof PROMISES;

/** Every promise's name, in the order of the table. */
export const PROMISE_NAMES = Object.keys(PROMISES) as PromiseName[];
