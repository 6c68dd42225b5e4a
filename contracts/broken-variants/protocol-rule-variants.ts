import { apiPath, onSpecPath, rebuiltRequest, tokenOf, withHeaders, withJson, type BrokenVariant } from './variant.js';

const KNOWN_KEYS = ['free-test-key', 'pro-test-key', 'business-test-key', 'enterprise-test-key'];

/** A copy of a response with its body replaced by these bytes (headers kept, length recomputed). */
async function withBytes(response: Response, edit: (bytes: Uint8Array) => Uint8Array): Promise<Response> {
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  const body = edit(new Uint8Array(await response.arrayBuffer()));
  return new Response(body.byteLength > 0 ? new Uint8Array(body) : null, { status: response.status, headers });
}

/** Whether a request body's text repeats a member name (a naive scan of `"name":` occurrences, enough for flat bodies). */
async function repeatsAMember(request: Request): Promise<boolean> {
  const text = await request.clone().text();
  const names = [...text.matchAll(/"([^"\\]+)"\s*:/g)].map((match) => match[1]);
  return new Set(names).size !== names.length;
}

/** The last 200 body per path, and the fake minute of the first 429 of a used-up day (see `day-forgotten-each-minute`). */
const lastListed = new Map<string, ArrayBuffer>();
let dayRefusedInMinute: number | undefined;

/** Variants breaking one rule of the table under the spec (contracts/rules/rule-table.ts) each. */
export const PROTOCOL_RULE_VARIANTS: BrokenVariant[] = [
  {
    name: 'json-member-repeated',
    breaks: 'every JSON object answered repeats its first member (RFC 8259 §4; the spec gives each property one value)',
    caughtBy: ['answers_keep_the_protocol'],
    intercept: async (request, next) =>
      withBytes(await next(request), (bytes) => {
        const text = new TextDecoder().decode(bytes);
        return new TextEncoder().encode(text.replace(/\{("[^"]+":[^,}]+)/g, '{$1,$1'));
      }),
  },
  {
    name: 'json-with-bom',
    breaks: 'JSON answers start with a byte order mark (RFC 8259 §8.1: MUST NOT)',
    caughtBy: ['answers_keep_the_protocol'],
    intercept: async (request, next) =>
      withBytes(await next(request), (bytes) =>
        bytes.length > 0 ? new Uint8Array([0xef, 0xbb, 0xbf, ...bytes]) : bytes,
      ),
  },
  {
    name: 'json-declared-latin1',
    breaks: 'JSON answers say charset=iso-8859-1 (RFC 8259 §8.1: JSON is UTF-8)',
    caughtBy: ['answers_keep_the_protocol'],
    intercept: async (request, next) =>
      withHeaders(await next(request), (headers) =>
        headers.set('Content-Type', 'application/json; charset=iso-8859-1'),
      ),
  },
  {
    name: 'challenge-repeats-realm',
    breaks: 'the 401 challenge repeats realm (RFC 6750 §3: each attribute at most once)',
    caughtBy: ['answers_keep_the_protocol'],
    intercept: async (request, next) =>
      withHeaders(await next(request), (headers) => {
        const challenge = headers.get('www-authenticate');
        if (challenge) headers.set('WWW-Authenticate', `${challenge}, realm="petstore"`);
      }),
  },
  {
    name: 'keyed-answers-public',
    breaks:
      'answers to keyed requests say Cache-Control: public, max-age=300 (RFC 9111 §3.5: a shared cache would serve them to other keys)',
    caughtBy: ['answers_keep_the_protocol'],
    intercept: async (request, next) =>
      withHeaders(await next(request), (headers) => headers.set('Cache-Control', 'public, max-age=300')),
  },
  {
    name: 'server-version-in-404',
    breaks: 'a 404 names the server and its version, as a default error page does (OWASP API8)',
    caughtBy: ['answers_keep_the_protocol'],
    intercept: async (request, next) => {
      const response = await next(request);
      if (response.status !== 404) return response;
      return withJson(response, (json) => ({ ...(json as object), message: 'Cannot GET this path (Express 4.19.2)' }));
    },
  },
  {
    name: 'session-cookie-set',
    breaks: 'successful answers set a session cookie (OWASP API8; RFC 6750 §5.3)',
    caughtBy: ['answers_keep_the_protocol'],
    intercept: async (request, next) => {
      const response = await next(request);
      return response.status >= 300
        ? response
        : withHeaders(response, (headers) => headers.set('Set-Cookie', 'sid=s3cr3t-session; Path=/; HttpOnly'));
    },
  },
  {
    name: 'key-echoed-in-401',
    breaks: 'a 401 for an unknown key repeats the key in its message (OWASP API2, API8)',
    caughtBy: ['answers_leak_nothing'],
    intercept: async (request, next) => {
      const response = await next(request);
      const token = tokenOf(request);
      if (response.status !== 401 || !token) return response;
      return withJson(response, (json) => ({ ...(json as object), message: `The API key ${token} is not valid.` }));
    },
  },
  {
    name: 'stack-trace-in-400',
    breaks: 'a 400 for a body that is not JSON carries the parser stack trace (OWASP API8)',
    caughtBy: ['answers_leak_nothing'],
    intercept: async (request, next) => {
      const response = await next(request);
      if (response.status !== 400 || request.method !== 'POST') return response;
      return withJson(response, (json) => ({
        ...(json as object),
        message:
          'SyntaxError: Unexpected token\n    at JSON.parse (<anonymous>)\n    at parseBody (/srv/app/src/body.js:12:7)',
      }));
    },
  },
  {
    name: 'cors-reflects-any-origin',
    breaks: 'Access-Control-Allow-Origin repeats whatever Origin came, with Allow-Credentials: true (OWASP API8)',
    caughtBy: ['answers_leak_nothing'],
    intercept: async (request, next) => {
      const origin = request.headers.get('origin');
      const response = await next(request);
      if (!origin) return response;
      return withHeaders(response, (headers) => {
        headers.set('Access-Control-Allow-Origin', origin);
        headers.set('Access-Control-Allow-Credentials', 'true');
        headers.set('Vary', 'Origin');
      });
    },
  },
  {
    name: 'lenient-bearer-parsing',
    breaks: 'any Authorization value holding a known key is accepted: comma lists, auth-params, quotes (RFC 6750 §2.1)',
    caughtBy: ['malformed_credentials_refused'],
    intercept: async (request, next) => {
      const authorization = request.headers.get('authorization') ?? '';
      const key = KNOWN_KEYS.find((candidate) => authorization.includes(candidate));
      return next(key ? await rebuiltRequest(request, { headers: { Authorization: `Bearer ${key}` } }) : request);
    },
  },
  {
    name: 'other-methods-read-as-get',
    breaks: 'a method the path lacks (PUT, DELETE, PROPFIND, ...) is answered as GET (RFC 9110 §9.1, §15.5.6)',
    caughtBy: ['every_method_routed'],
    intercept: async (request, next) => {
      if (!onSpecPath(request) || ['GET', 'POST', 'HEAD', 'OPTIONS'].includes(request.method)) return next(request);
      return next(new Request(request.url, { method: 'GET', headers: request.headers }));
    },
  },
  {
    name: 'head-answers-other-type',
    breaks: 'HEAD answers 200 as text/plain where GET answers JSON (RFC 9110 §9.3.2)',
    caughtBy: ['every_method_routed'],
    intercept: async (request, next) => {
      if (request.method !== 'HEAD' || !onSpecPath(request)) return next(request);
      const response = await next(request);
      return new Response(null, {
        status: 200,
        headers: { ...Object.fromEntries(response.headers), 'content-type': 'text/plain' },
      });
    },
  },
  {
    name: 'etag-never-honoured',
    breaks: 'reads offer an ETag but If-None-Match with it still answers 200 (RFC 9110 §13.1.2)',
    caughtBy: ['conditional_requests_honoured'],
    intercept: async (request, next) => {
      const response = await next(request);
      if (request.method !== 'GET' || response.status !== 200) return response;
      return withHeaders(response, (headers) => headers.set('ETag', `"${apiPath(request).length}"`));
    },
  },
  {
    name: 'not-modified-to-any-tag',
    breaks: 'any If-None-Match answers 304, even a tag never offered (RFC 9110 §13.1.2)',
    caughtBy: ['conditional_requests_honoured'],
    intercept: async (request, next) => {
      const response = await next(request);
      if (!request.headers.has('if-none-match') || response.status !== 200) return response;
      return new Response(null, { status: 304, headers: response.headers });
    },
  },
  {
    name: 'repeated-member-crashes',
    breaks: 'a body repeating a member name crashes the handler with a 500 (RFC 8259 §4; OWASP API8)',
    caughtBy: ['repeated_members_handled'],
    intercept: async (request, next) => {
      if (request.method !== 'POST' || !(await repeatsAMember(request))) return next(request);
      const response = await next(request);
      return withJson(response, () => ({ code: 'internal_error', message: 'Internal error', status: 500 }), 500);
    },
  },
  {
    name: 'day-forgotten-each-minute',
    breaks: 'a used-up day window admits again in the next minute (the day counter is read per minute)',
    caughtBy: ['both_quota_windows_held'],
    intercept: async (request, next) => {
      const response = await next(request);
      const path = apiPath(request);
      if (response.status === 200) {
        // A day counted down afresh: the minute of its first refusal is still to come.
        if (Number(response.headers.get('x-ratelimit-reset')) % 86_400 === 0) dayRefusedInMinute = undefined;
        lastListed.set(path, await response.clone().arrayBuffer());
        return response;
      }
      const reset = Number(response.headers.get('x-ratelimit-reset'));
      const retryAfter = Number(response.headers.get('retry-after'));
      const listed = lastListed.get(path);
      if (response.status !== 429 || reset % 86_400 !== 0 || retryAfter <= 60 || !listed) return response;
      // The fake's own now (its clock may be moved): the day ends at Reset, Retry-After seconds away.
      const minute = Math.floor((reset - retryAfter) / 60);
      dayRefusedInMinute ??= minute;
      if (minute === dayRefusedInMinute) return response;
      const headers = new Headers(response.headers);
      headers.delete('retry-after');
      headers.delete('content-length');
      headers.set('X-RateLimit-Limit', '60');
      headers.set('X-RateLimit-Remaining', '59');
      headers.set('X-RateLimit-Reset', String((minute + 1) * 60));
      return new Response(listed, { status: 200, headers });
    },
  },
  {
    name: 'error-messages-name-nothing',
    breaks: 'every 400 says only "Invalid request." (the spec: the message names what is wrong, the field)',
    caughtBy: ['error_messages_name_the_field'],
    intercept: async (request, next) => {
      const response = await next(request);
      if (response.status !== 400) return response;
      return withJson(response, (json) => ({ ...(json as object), message: 'Invalid request.' }));
    },
  },
  {
    name: 'etag-unquoted',
    breaks: 'reads offer an ETag that is not an entity-tag (no quotes: RFC 9110 §8.8.3)',
    caughtBy: ['conditional_requests_honoured'],
    intercept: async (request, next) => {
      const response = await next(request);
      if (request.method !== 'GET' || response.status !== 200) return response;
      return withHeaders(response, (headers) => headers.set('ETag', 'v1-categories'));
    },
  },
  {
    name: 'last-modified-in-the-future',
    breaks: 'reads say Last-Modified a day after their Date (RFC 9110 §8.8.2: never later than the message)',
    caughtBy: ['conditional_requests_honoured'],
    intercept: async (request, next) => {
      const response = await next(request);
      if (request.method !== 'GET' || response.status !== 200) return response;
      const tomorrow = new Date(Date.now() + 86_400_000).toUTCString();
      return withHeaders(response, (headers) => headers.set('Last-Modified', tomorrow));
    },
  },
];
