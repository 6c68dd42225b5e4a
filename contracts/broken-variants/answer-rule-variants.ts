import type { Answer } from '../../mocks/handlers/api-call.js';
import { METHOD_OVERRIDE_FIELDS } from '../protocol/surroundings.js';
import { headAsGet, headerOf, onSpecPath, withHeaders, withJson, wrapping, type BrokenVariant } from './variant.js';

/** A Last-Modified every read offers: a date in the past, as an IMF-fixdate. */
const LAST_MODIFIED = 'Wed, 01 Jan 2025 00:00:00 GMT';

/** The answer's body as the text it goes out as. */
const textOf = (answer: Answer) => answer.rawBody ?? (answer.body === undefined ? '' : JSON.stringify(answer.body));

/** Each answer of the fake with its header fields edited. */
const everyAnswerEdited = (edit: (headers: Headers, answer: Answer) => void) =>
  wrapping(async (_request, next) => {
    const answer = await next();
    return withHeaders(answer, (headers) => edit(headers, answer));
  });

/** 2^53: past it a double holds only even integers, so a JavaScript client reads 2^53 + 1 as 2^53. */
const PAST_SAFE_INTEGERS = 2 ** 53;

/** A record with its `id` moved past the safe integers (to an even one, exact in JSON), when it has one: still one id per record. */
const withUnsafeId = (record: unknown) =>
  typeof record === 'object' && record !== null && 'id' in record && typeof record.id === 'number'
    ? { ...record, id: PAST_SAFE_INTEGERS + 2 * record.id }
    : record;

/** Requests each minute window (by its end, epoch seconds) answered, as `minute-described-while-the-day-is-lower` counts them. */
const answeredInMinute = new Map<number, number>();

/**
 * An answer that describes the day window rewritten to describe the minute: its end from the day's
 * `RateLimit` (`"day";r=4;t=36017`: now is the day's Reset less t), its limit from `RateLimit-Policy`.
 */
function minuteDescribed(answer: Answer): Answer {
  const day = /"day";r=(\d+);t=(\d+)/.exec(headerOf(answer, 'ratelimit') ?? '');
  const limit = Number(/"minute";q=(\d+)/.exec(headerOf(answer, 'ratelimit-policy') ?? '')?.[1]);
  const reset = Number(headerOf(answer, 'x-ratelimit-reset'));
  if (!day || !limit || answer.status !== 200) return answer;
  const now = reset - Number(day[2]);
  const minuteEnd = (Math.floor(now / 60) + 1) * 60;
  const answered = (answeredInMinute.get(minuteEnd) ?? 0) + 1;
  answeredInMinute.set(minuteEnd, answered);
  const remaining = Math.max(0, limit - answered);
  return withHeaders(answer, (headers) => {
    headers.set('X-RateLimit-Limit', String(limit));
    headers.set('X-RateLimit-Remaining', String(remaining));
    headers.set('X-RateLimit-Reset', String(minuteEnd));
    headers.set('RateLimit', `"minute";r=${remaining};t=${minuteEnd - now}`);
  });
}

/**
 * Variants breaking one rule of the table that a single answer shows (contracts/rules/answer-rules.ts,
 * field-rules.ts, security-rules.ts, cors-rules.ts): before them, no variant had shown these failing.
 */
export const ANSWER_RULE_VARIANTS: BrokenVariant[] = [
  {
    name: 'json-answers-cut-short',
    breaks: 'content_is_its_media_type',
    does: 'JSON answers lose their last character (a buffer flushed too early): labelled application/json, they are no JSON text',
    caughtBy: ['answers_keep_the_protocol'],
    fake: wrapping(async (_request, next) => {
      const answer = await next();
      const text = textOf(answer);
      const json = /json/i.test(headerOf(answer, 'content-type') ?? 'application/json');
      return json && text.length > 1 ? { ...answer, body: undefined, rawBody: text.slice(0, -1) } : answer;
    }),
  },
  {
    name: 'json-media-type-versioned',
    breaks: 'json_media_type_parameters',
    does: 'JSON answers say Content-Type: application/json; version=1, a parameter application/json does not define (RFC 8259 §11)',
    caughtBy: ['answers_keep_the_protocol'],
    strict: true,
    fake: everyAnswerEdited((headers) => {
      if (/json/i.test(headers.get('content-type') ?? 'application/json'))
        headers.set('Content-Type', 'application/json; version=1');
    }),
  },
  {
    name: 'ids-past-safe-integers',
    breaks: 'json_numbers_interoperable',
    does: 'records are answered with ids past 2^53 (as a 64-bit sequence seeded high does): a JavaScript client reads another id',
    caughtBy: ['answers_keep_the_protocol'],
    strict: true,
    fake: wrapping(async (_request, next) => {
      const answer = await next();
      if (answer.status >= 300) return answer;
      return withJson(answer, (json) => (Array.isArray(json) ? json.map(withUnsafeId) : withUnsafeId(json)));
    }),
  },
  {
    name: 'retry-after-with-unit',
    breaks: 'retry_after_syntax',
    does: 'a 429 says Retry-After: 30s, with a unit (RFC 9110 §10.2.3: delay-seconds is digits only)',
    caughtBy: ['rate_limit_exceeded_answer'],
    fake: everyAnswerEdited((headers) => {
      const seconds = headers.get('retry-after');
      if (seconds !== null && /^\d+$/.test(seconds)) headers.set('Retry-After', `${seconds}s`);
    }),
  },
  {
    name: 'cache-control-quoted-max-age',
    breaks: 'cache_control_syntax',
    does: 'every answer says Cache-Control: no-store, max-age="0": the quoted form a sender must not generate for max-age (RFC 9111 §5.2.2.1)',
    caughtBy: ['answers_keep_the_protocol'],
    fake: everyAnswerEdited((headers) => headers.set('Cache-Control', 'no-store, max-age="0"')),
  },
  {
    name: 'keyed-answers-cacheable',
    breaks: 'keyed_answers_not_stored',
    does: 'answers carry no Cache-Control, so a private cache may store an answer to a keyed request (OWASP API8: SHOULD no-store)',
    caughtBy: ['answers_keep_the_protocol'],
    strict: true,
    fake: everyAnswerEdited((headers) => headers.delete('Cache-Control')),
  },
  {
    name: 'nosniff-missing',
    breaks: 'no_sniffing',
    does: 'answers carry no X-Content-Type-Options: nosniff, so a browser may read JSON as another type (OWASP hardening)',
    caughtBy: ['answers_keep_the_protocol'],
    strict: true,
    fake: everyAnswerEdited((headers) => headers.delete('X-Content-Type-Options')),
  },
  {
    name: 'keyless-challenge-names-an-error',
    breaks: 'no_error_code_without_credentials',
    does: 'a 401 to a request with no Authorization says error="invalid_token" (RFC 6750 §3.1: no error code when no credential was sent)',
    caughtBy: ['missing_api_key_rejected'],
    strict: true,
    fake: wrapping(async (request, next) => {
      const answer = await next();
      if (answer.status !== 401 || request.header('authorization') !== null) return answer;
      return withHeaders(answer, (headers) => headers.set('WWW-Authenticate', 'Bearer error="invalid_token"'));
    }),
  },
  {
    name: 'vary-quoted',
    breaks: 'vary_names_what_selects',
    does: 'answers say Vary: "Origin", a quoted string where Vary lists field names (RFC 9110 §12.5.5)',
    caughtBy: ['answers_keep_the_protocol'],
    strict: true,
    fake: everyAnswerEdited((headers) => headers.set('Vary', '"Origin"')),
  },
  {
    name: 'last-modified-never-revalidated',
    breaks: 'if_modified_since_honoured',
    does: 'reads offer a Last-Modified, but If-Modified-Since with it still answers 200 in full (RFC 9110 §13.1.3: SHOULD 304)',
    caughtBy: ['conditional_requests_honoured'],
    strict: true,
    fake: wrapping(async (request, next) => {
      const answer = await next({ headers: { 'If-Modified-Since': null } });
      if (request.method !== 'GET' || answer.status !== 200) return answer;
      return withHeaders(answer, (headers) => headers.set('Last-Modified', LAST_MODIFIED));
    }),
  },
  {
    name: 'method-override-answers-no-content',
    breaks: 'method_overrides_ignored',
    does: 'a GET naming another method in X-HTTP-Method-Override (or X-HTTP-Method, X-Method-Override) answers 204, as a framework that routes it to a handler without content does',
    caughtBy: ['every_method_routed'],
    strict: true,
    fake: wrapping(async (request, next) => {
      const answer = await next();
      const overridden = METHOD_OVERRIDE_FIELDS.some((name) => request.header(name) !== null);
      if (request.method !== 'GET' || !overridden || answer.status !== 200) return answer;
      return { ...answer, status: 204, body: undefined, rawBody: undefined };
    }),
  },
  {
    name: 'head-without-nosniff',
    breaks: 'head_fields_as_get',
    does: 'HEAD is answered as its GET without content, but without the X-Content-Type-Options its GET carries (RFC 9110 §9.3.2: SHOULD send the same fields)',
    caughtBy: ['every_method_routed'],
    strict: true,
    // Not on the deprecated /pets/{petId}: the fake's 405 lacks its Deprecation, a MUST of its own.
    fake: headAsGet(
      /^x-content-type-options$/i,
      (request) => onSpecPath(request) && !request.path.startsWith('/pets/'),
    ),
  },
  {
    name: 'minute-described-while-the-day-is-lower',
    breaks: 'lower_window_described',
    does: 'answers always describe the minute window, also when the day window has fewer requests left (a limiter that reports its first window only)',
    caughtBy: ['both_quota_windows_held'],
    fake: wrapping(async (_request, next) => minuteDescribed(await next())),
  },
];
