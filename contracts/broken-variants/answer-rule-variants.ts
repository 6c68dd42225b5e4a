import type { Answer } from '../../mocks/handlers/api-call.js';
import { headerOf, withHeaders, withJson, wrapping, type BrokenVariant } from './variant.js';

/** The answer's body as the text it goes out as. */
const textOf = (answer: Answer) => answer.rawBody ?? (answer.body === undefined ? '' : JSON.stringify(answer.body));

/** Each answer of the fake with its header fields edited. */
const everyAnswerEdited = (edit: (headers: Headers, answer: Answer) => void) =>
  wrapping(async (_request, next) => {
    const answer = await next();
    return withHeaders(answer, (headers) => edit(headers, answer));
  });

/** The smallest integer past what an IEEE 754 double holds exactly (2^53): a JavaScript client reads it as another. */
const PAST_SAFE_INTEGERS = 2 ** 53;

/** A record with its `id` moved past the safe integers, when it has one. */
const withUnsafeId = (record: unknown) =>
  typeof record === 'object' && record !== null && 'id' in record ? { ...record, id: PAST_SAFE_INTEGERS } : record;

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
];
