import type { Answer } from '../../mocks/handlers/api-call.js';
import type { OverrideRequest } from '../../mocks/handlers/overrides.js';
import { headerOf, onSpecPath, tokenOf, withHeaders, withJson, wrapping, type BrokenVariant } from './variant.js';

const KNOWN_KEYS = ['free-test-key', 'pro-test-key', 'business-test-key', 'enterprise-test-key'];

/** The answer's body as the text it goes out as. */
const textOf = (answer: Answer) => answer.rawBody ?? (answer.body === undefined ? '' : JSON.stringify(answer.body));

/** A copy of an answer sent as this text (its media type kept). */
const withText = (answer: Answer, text: string): Answer => ({ ...answer, body: undefined, rawBody: text });

/** Whether a request body's text repeats a member name (a naive scan of `"name":`, enough for flat bodies). */
async function repeatsAMember(request: OverrideRequest): Promise<boolean> {
  const names = [...(await request.text()).matchAll(/"([^"\\]+)"\s*:/g)].map((match) => match[1]);
  return new Set(names).size !== names.length;
}

/** The last 200 body per path, and the fake minute of the first 429 of a used-up day (see `day-forgotten-each-minute`). */
const lastListed = new Map<string, unknown>();
let dayRefusedInMinute: number | undefined;

/** Variants breaking one rule of the table under the spec (contracts/rules/rule-table.ts) each. */
export const PROTOCOL_RULE_VARIANTS: BrokenVariant[] = [
  {
    name: 'json-member-repeated',
    breaks: 'json_member_names_unique',
    does: 'every JSON object answered repeats its first member (RFC 8259 §4; the spec gives each property one value)',
    caughtBy: ['answers_keep_the_protocol'],
    strict: true,
    fake: wrapping(async (_request, next) => {
      const answer = await next();
      const text = textOf(answer);
      return text === '' ? answer : withText(answer, text.replace(/\{("[^"]+":[^,}]+)/g, '{$1,$1'));
    }),
  },
  {
    name: 'json-with-bom',
    breaks: 'json_is_utf8_without_bom',
    does: 'JSON answers start with a byte order mark (RFC 8259 §8.1: MUST NOT)',
    caughtBy: ['answers_keep_the_protocol'],
    fake: wrapping(async (_request, next) => {
      const answer = await next();
      const text = textOf(answer);
      return text === '' ? answer : withText(answer, `\ufeff${text}`);
    }),
  },
  {
    name: 'json-declared-latin1',
    breaks: 'json_is_utf8_without_bom',
    does: 'JSON answers say charset=iso-8859-1 (RFC 8259 §8.1: JSON is UTF-8)',
    caughtBy: ['answers_keep_the_protocol'],
    fake: wrapping(async (_request, next) =>
      withHeaders(await next(), (headers) => headers.set('Content-Type', 'application/json; charset=iso-8859-1')),
    ),
  },
  {
    name: 'challenge-repeats-realm',
    breaks: 'bearer_challenge_on_401',
    does: 'the 401 challenge repeats realm (RFC 6750 §3: each attribute at most once)',
    caughtBy: ['answers_keep_the_protocol'],
    fake: wrapping(async (_request, next) =>
      withHeaders(await next(), (headers) => {
        const challenge = headers.get('www-authenticate');
        if (challenge) headers.set('WWW-Authenticate', `${challenge}, realm="petstore"`);
      }),
    ),
  },
  {
    name: 'keyed-answers-public',
    breaks: 'keyed_answers_not_shared',
    does: 'answers to keyed requests say Cache-Control: public, max-age=300 (RFC 9111 §3.5: a shared cache would serve them to other keys)',
    caughtBy: ['answers_keep_the_protocol'],
    strict: true,
    fake: wrapping(async (_request, next) =>
      withHeaders(await next(), (headers) => headers.set('Cache-Control', 'public, max-age=300')),
    ),
  },
  {
    name: 'server-version-in-404',
    breaks: 'no_internals_in_answers',
    does: 'a 404 names the server and its version, as a default error page does (OWASP API8)',
    caughtBy: ['answers_keep_the_protocol'],
    fake: wrapping(async (_request, next) => {
      const answer = await next();
      if (answer.status !== 404) return answer;
      return withJson(answer, (json) => ({ ...(json as object), message: 'Cannot GET this path (Express 4.19.2)' }));
    }),
  },
  {
    name: 'session-cookie-set',
    breaks: 'no_cookies',
    does: 'successful answers set a session cookie (OWASP API8; RFC 6750 §5.3)',
    caughtBy: ['answers_keep_the_protocol'],
    strict: true,
    fake: wrapping(async (_request, next) => {
      const answer = await next();
      return answer.status >= 300
        ? answer
        : withHeaders(answer, (headers) => headers.set('Set-Cookie', 'sid=s3cr3t-session; Path=/; HttpOnly'));
    }),
  },
  {
    name: 'key-echoed-in-401',
    breaks: 'credential_never_echoed',
    does: 'a 401 for an unknown key repeats the key in its message (OWASP API2, API8)',
    caughtBy: ['answers_leak_nothing'],
    fake: wrapping(async (request, next) => {
      const answer = await next();
      const token = tokenOf(request);
      if (answer.status !== 401 || !token) return answer;
      return withJson(answer, (json) => ({ ...(json as object), message: `The API key ${token} is not valid.` }));
    }),
  },
  {
    name: 'stack-trace-in-400',
    breaks: 'no_internals_in_answers',
    does: 'a 400 for a body that is not JSON carries the parser stack trace (OWASP API8)',
    caughtBy: ['answers_leak_nothing'],
    fake: wrapping(async (request, next) => {
      const answer = await next();
      if (answer.status !== 400 || request.method !== 'POST') return answer;
      return withJson(answer, (json) => ({
        ...(json as object),
        message:
          'SyntaxError: Unexpected token\n    at JSON.parse (<anonymous>)\n    at parseBody (/srv/app/src/body.js:12:7)',
      }));
    }),
  },
  {
    name: 'cors-reflects-any-origin',
    breaks: 'cors_not_open_with_credentials',
    does: 'Access-Control-Allow-Origin repeats whatever Origin came, with Allow-Credentials: true (OWASP API8)',
    caughtBy: ['answers_leak_nothing'],
    strict: true,
    fake: wrapping(async (request, next) => {
      const origin = request.header('origin');
      const answer = await next();
      if (!origin) return answer;
      return withHeaders(answer, (headers) => {
        headers.set('Access-Control-Allow-Origin', origin);
        headers.set('Access-Control-Allow-Credentials', 'true');
        headers.set('Vary', 'Origin');
      });
    }),
  },
  {
    name: 'lenient-bearer-parsing',
    breaks: 'malformed_credentials_refused',
    does: 'any Authorization value holding a known key is accepted: comma lists, auth-params, quotes (RFC 6750 §2.1)',
    caughtBy: ['malformed_credentials_refused'],
    fake: wrapping((request, next) => {
      const authorization = request.header('authorization') ?? '';
      const key = KNOWN_KEYS.find((candidate) => authorization.includes(candidate));
      return next(key ? { headers: { Authorization: `Bearer ${key}` } } : undefined);
    }),
  },
  {
    name: 'key-trimmed-of-unicode-spaces',
    breaks: 'malformed_credentials_refused',
    does: 'the token is trimmed as JavaScript trims (U+00A0 and other Unicode spaces), so `Bearer <key><U+00A0>` admits a token that is not the one sent (RFC 6750 §2.1: b64token has no such character)',
    caughtBy: ['malformed_credentials_refused', 'invalid_api_key_rejected'],
    fake: wrapping((request, next) => {
      const token = /^Bearer (.+)$/i.exec(request.header('authorization') ?? '')?.[1]?.trim();
      return next(token ? { headers: { Authorization: `Bearer ${token}` } } : undefined);
    }),
  },
  {
    name: 'other-methods-answered-ok',
    breaks: 'undefined_methods_refused',
    does: 'a method the path lacks (PUT, DELETE, PROPFIND, ...) is answered 200 (RFC 9110 §9.1, §15.5.6)',
    caughtBy: ['every_method_routed'],
    fake: wrapping(async (request, next) => {
      const answer = await next();
      if (!onSpecPath(request) || ['GET', 'POST', 'HEAD', 'OPTIONS'].includes(request.method)) return answer;
      return { ...answer, status: 200, body: [] };
    }),
  },
  {
    name: 'head-answers-other-type',
    breaks: 'head_is_get_without_content',
    does: 'HEAD answers 200 as text/plain where GET answers JSON (RFC 9110 §9.3.2)',
    caughtBy: ['every_method_routed'],
    fake: wrapping(async (request, next) => {
      const answer = await next();
      if (request.method !== 'HEAD' || !onSpecPath(request)) return answer;
      return {
        ...answer,
        status: 200,
        headers: { ...answer.headers, 'Content-Type': 'text/plain' },
        body: undefined,
        rawBody: '',
      };
    }),
  },
  {
    name: 'etag-never-honoured',
    breaks: 'if_none_match_honoured',
    does: 'reads offer an ETag but If-None-Match with it still answers 200 (RFC 9110 §13.1.2)',
    caughtBy: ['conditional_requests_honoured'],
    fake: wrapping(async (request, next) => {
      const answer = await next();
      if (request.method !== 'GET' || answer.status !== 200) return answer;
      return withHeaders(answer, (headers) => headers.set('ETag', `"${request.path.length}"`));
    }),
  },
  {
    name: 'not-modified-to-any-tag',
    breaks: 'if_none_match_honoured',
    does: 'any If-None-Match answers 304, even a tag never offered (RFC 9110 §13.1.2)',
    caughtBy: ['conditional_requests_honoured'],
    fake: wrapping(async (request, next) => {
      const answer = await next();
      if (request.header('if-none-match') === null || answer.status !== 200) return answer;
      return { ...answer, status: 304, body: undefined, rawBody: '' };
    }),
  },
  {
    name: 'repeated-member-crashes',
    breaks: 'repeated_members_handled',
    does: 'a body repeating a member name crashes the handler with a 500 (RFC 8259 §4; OWASP API8)',
    caughtBy: ['repeated_members_handled'],
    fake: wrapping(async (request, next) => {
      const answer = await next();
      if (request.method !== 'POST' || !(await repeatsAMember(request))) return answer;
      return { ...answer, status: 500, body: { code: 'internal_error', message: 'Internal error', status: 500 } };
    }),
  },
  {
    name: 'day-forgotten-each-minute',
    breaks: 'no_admission_past_the_limit',
    does: 'a used-up day window admits again in the next minute (the day counter is read per minute)',
    caughtBy: ['both_quota_windows_held'],
    fake: wrapping(async (request, next) => {
      const answer = await next();
      if (answer.status === 200) {
        // A day counted down afresh: the minute of its first refusal is still to come.
        if (Number(headerOf(answer, 'x-ratelimit-reset')) % 86_400 === 0) dayRefusedInMinute = undefined;
        lastListed.set(request.path, answer.body);
        return answer;
      }
      const reset = Number(headerOf(answer, 'x-ratelimit-reset'));
      const retryAfter = Number(headerOf(answer, 'retry-after'));
      const listed = lastListed.get(request.path);
      if (answer.status !== 429 || reset % 86_400 !== 0 || retryAfter <= 60 || listed === undefined) return answer;
      // The fake's own now (its clock may be moved): the day ends at Reset, Retry-After seconds away.
      const minute = Math.floor((reset - retryAfter) / 60);
      dayRefusedInMinute ??= minute;
      if (minute === dayRefusedInMinute) return answer;
      const admitted = withHeaders(answer, (headers) => {
        headers.delete('retry-after');
        headers.set('X-RateLimit-Limit', '60');
        headers.set('X-RateLimit-Remaining', '59');
        headers.set('X-RateLimit-Reset', String((minute + 1) * 60));
      });
      return { ...admitted, status: 200, body: listed };
    }),
  },
  {
    name: 'schema-errors-as-422',
    breaks: 'earliest_refusal_answered',
    does: "a body or parameter that breaks its schema is answered 422 (a framework default, FastAPI's among them), not 400 invalid_request as the spec says",
    caughtBy: ['error_messages_name_the_field', 'invalid_body_rejected'],
    fake: wrapping(async (_request, next) => {
      const answer = await next();
      if (answer.status !== 400) return answer;
      return withJson(answer, (json) => ({ ...(json as object), code: 'unprocessable_entity', status: 422 }), 422);
    }),
  },
  {
    name: 'etag-unquoted',
    breaks: 'entity_tag_syntax',
    does: 'reads offer an ETag that is not an entity-tag (no quotes: RFC 9110 §8.8.3)',
    caughtBy: ['conditional_requests_honoured'],
    fake: wrapping(async (request, next) => {
      const answer = await next();
      if (request.method !== 'GET' || answer.status !== 200) return answer;
      return withHeaders(answer, (headers) => headers.set('ETag', 'v1-categories'));
    }),
  },
  {
    name: 'last-modified-in-the-future',
    breaks: 'last_modified_syntax',
    does: 'reads say Last-Modified a day after their Date (RFC 9110 §8.8.2: never later than the message)',
    caughtBy: ['conditional_requests_honoured'],
    fake: wrapping(async (request, next) => {
      const answer = await next();
      if (request.method !== 'GET' || answer.status !== 200) return answer;
      const tomorrow = new Date(Date.now() + 86_400_000).toUTCString();
      return withHeaders(answer, (headers) => headers.set('Last-Modified', tomorrow));
    }),
  },
];
