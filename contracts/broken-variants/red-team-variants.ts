import type { Answer } from '../../mocks/handlers/api-call.js';
import { override } from '../../mocks/handlers/typed-override.js';
import { headAsGet, onSpecPath, textAnswer, tokenOf, withHeaders, wrapping, type BrokenVariant } from './variant.js';

const KNOWN_KEYS = ['free-test-key', 'pro-test-key', 'business-test-key', 'enterprise-test-key'];

/** The fake with the bearer token rewritten before it is checked: what a lenient key comparison lets in. */
function keyNormalised(normalise: (token: string) => string) {
  return wrapping((request, next) => {
    const token = tokenOf(request);
    const normalised = token === undefined ? undefined : normalise(token);
    return next(
      normalised !== token && KNOWN_KEYS.includes(normalised!)
        ? { headers: { Authorization: `Bearer ${normalised}` } }
        : undefined,
    );
  });
}

const hasContent = (answer: Answer) => answer.body !== undefined || answer.rawBody !== undefined;

/**
 * Variants found by a red-team pass over the rules under the spec: each broke a rule the suite missed
 * until a rule row, a judge or a generated request family caught it (and any other spelling of it).
 */
export const RED_TEAM_VARIANTS: BrokenVariant[] = [
  {
    name: 'content-type-sent-twice',
    breaks: 'content_type_syntax',
    does: 'answers carry two Content-Type fields, the first with charset (a framework and a middleware each set one): no media type (RFC 9110 §8.3, §5.3)',
    caughtBy: ['answers_keep_the_protocol'],
    fake: wrapping(async (_request, next) => {
      const answer = await next();
      return hasContent(answer)
        ? withHeaders(answer, (headers) =>
            headers.set('Content-Type', 'application/json; charset=utf-8, application/json'),
          )
        : answer;
    }),
  },
  {
    name: 'date-in-iso-format',
    breaks: 'date_on_answers',
    does: 'Date is an ISO 8601 timestamp, not an IMF-fixdate (RFC 9110 §5.6.7, §6.6.1)',
    caughtBy: ['answers_keep_the_protocol'],
    fake: wrapping(async (_request, next) =>
      withHeaders(await next(), (headers) => headers.set('Date', new Date().toISOString())),
    ),
  },
  {
    name: 'server-header-versioned',
    breaks: 'server_version_hidden',
    does: 'every answer says Server: nginx/1.25.3, the version an attacker looks flaws up by (OWASP API8)',
    caughtBy: ['answers_keep_the_protocol'],
    strict: true,
    fake: wrapping(async (_request, next) =>
      withHeaders(await next(), (headers) => headers.set('Server', 'nginx/1.25.3')),
    ),
  },
  {
    name: 'location-on-another-host',
    breaks: 'location_names_this_interface',
    does: 'a 201 says Location: on another host, which no client should follow to find the record (RFC 9110 §15.3.2)',
    caughtBy: ['create_category_conforms'],
    strict: true,
    fake: wrapping(async (_request, next) => {
      const answer = await next();
      return answer.status === 201
        ? withHeaders(answer, (headers) => headers.set('Location', 'https://cdn.example.net/categories/4'))
        : answer;
    }),
  },
  {
    name: 'trace-echoes-request',
    breaks: 'refused_never_admitted',
    does: 'TRACE is answered 200 with the request echoed back, Authorization included (RFC 9110 §9.3.8: a key any page that can send TRACE then reads; the spec answers 405)',
    caughtBy: ['every_method_routed'],
    fake: wrapping(async (request, next) => {
      if (request.method !== 'TRACE') return next();
      const echo = `TRACE /v1${request.path} HTTP/1.1\r\nAuthorization: ${request.header('authorization') ?? ''}\r\n\r\n`;
      return { status: 200, headers: { 'Content-Type': 'message/http' }, body: undefined, rawBody: echo };
    }),
  },
  {
    name: 'allow-lists-head',
    breaks: 'allow_lists_the_methods',
    does: 'Allow lists HEAD (and OPTIONS) where HEAD answers 405 (RFC 9110 §10.2.1: Allow lists supported methods)',
    caughtBy: ['every_method_routed'],
    fake: wrapping(async (_request, next) =>
      withHeaders(await next(), (headers) => {
        const allow = headers.get('allow');
        if (allow) headers.set('Allow', `${allow}, HEAD`);
      }),
    ),
  },
  {
    name: 'head-without-rate-limit',
    breaks: 'head_is_get_without_content',
    does: 'HEAD is answered as its GET without content, but without the X-RateLimit-* the spec puts on every answer',
    caughtBy: ['every_method_routed'],
    fake: headAsGet(/^x-ratelimit-/i),
  },

  {
    name: 'method-override-honoured',
    breaks: 'earliest_refusal_answered',
    does: 'a GET naming another method in X-HTTP-Method-Override (or X-HTTP-Method, X-Method-Override, _method) is routed as that method (OWASP API5)',
    caughtBy: ['every_method_routed'],
    fake: wrapping(async (request, next) => {
      const named = request.header('x-http-method-override') ?? request.query.get('_method');
      const answer = await next();
      if (!named || !onSpecPath(request) || named.toUpperCase() === request.method) return answer;
      return {
        ...answer,
        status: 405,
        headers: { ...answer.headers, Allow: 'GET, POST' },
        body: { code: 'method_not_allowed', message: `${named} is not allowed here.`, status: 405 },
      };
    }),
  },
  {
    name: 'cors-trusts-null-origin',
    breaks: 'cors_not_open_with_credentials',
    does: 'Origin: null (a sandboxed iframe, any page can send it) is granted CORS with credentials (OWASP API8)',
    caughtBy: ['answers_leak_nothing'],
    strict: true,
    fake: wrapping(async (request, next) => {
      const answer = await next();
      if (request.header('origin') !== 'null') return answer;
      return withHeaders(answer, (headers) => {
        headers.set('Access-Control-Allow-Origin', 'null');
        headers.set('Access-Control-Allow-Credentials', 'true');
        headers.set('Vary', 'Origin');
      });
    }),
  },
  {
    name: 'html-errors-for-browsers',
    breaks: 'errors_are_error_bodies',
    does: 'errors asked for by a browser (Accept: text/html first) are an HTML page, not the spec’s Error',
    caughtBy: ['answers_keep_the_protocol'],
    fake: wrapping(async (request, next) => {
      const answer = await next();
      if (answer.status < 400 || !(request.header('accept') ?? '').startsWith('text/html')) return answer;
      const kept = Object.entries(answer.headers).filter(([name]) => !/^content-type$/i.test(name));
      return textAnswer(
        answer.status,
        '<!doctype html><title>Error</title><h1>Error</h1>',
        'text/html',
        Object.fromEntries(kept),
      );
    }),
  },
  {
    name: 'debug-routes-open',
    breaks: 'refused_never_admitted',
    does: 'GET /v1/debug (and /actuator, /metrics) answers the service’s internals to any customer key (OWASP API5, API9)',
    caughtBy: ['undeclared_routes_refused'],
    fake: wrapping(async (request, next) => {
      const answer = await next();
      return /^\/(debug|actuator|metrics)(\/|$)/.test(request.path) && answer.status === 404
        ? { ...answer, status: 200, body: { uptime: 86400, heap: 52_428_800, database: 'primary' } }
        : answer;
    }),
  },
  {
    name: 'key-padding-stripped',
    breaks: 'invalid_api_key_rejected',
    does: 'the key is compared after stripping base64 "=" padding, so `<key>==` is accepted (RFC 6750 §2.1)',
    caughtBy: ['invalid_api_key_rejected'],
    fake: keyNormalised((token) => token.replace(/=+$/, '')),
  },
  {
    name: 'long-credential-crashes',
    breaks: 'no_server_error',
    does: 'a credential over 1,000 characters crashes the key lookup with a 500 (OWASP API4)',
    caughtBy: ['invalid_api_key_rejected'],
    fake: wrapping(async (request, next) =>
      (request.header('authorization') ?? '').length > 1_000
        ? { status: 500, headers: {}, body: { code: 'internal_error', message: 'The service failed.', status: 500 } }
        : next(),
    ),
  },
  {
    name: 'key-read-from-form-body',
    breaks: 'earliest_refusal_answered',
    does: 'without Authorization, a form body access_token= (RFC 6750 §2.2) is read as the key; the spec declares only the header',
    caughtBy: ['create_requires_api_key'],
    fake: wrapping(async (request, next) => {
      if (request.header('authorization') !== null) return next();
      const token = /(?:^|&)access_token=([^&]+)/.exec(await request.text())?.[1];
      return next(token ? { headers: { Authorization: `Bearer ${decodeURIComponent(token)}` } } : undefined);
    }),
  },
  {
    name: 'if-none-match-star-ignored',
    breaks: 'if_none_match_honoured',
    does: 'reads offer an ETag and honour it, but If-None-Match: * answers 200 (RFC 9110 §13.1.2: * matches any representation)',
    caughtBy: ['conditional_requests_honoured'],
    fake: wrapping(async (request, next) => {
      const answer = await next();
      if (request.method !== 'GET' || answer.status !== 200) return answer;
      const tag = `"v${request.path.length}"`;
      const tagged = withHeaders(answer, (headers) => headers.set('ETag', tag));
      return request.header('if-none-match') === tag
        ? { ...tagged, status: 304, body: undefined, rawBody: '' }
        : tagged;
    }),
  },
  {
    name: 'anonymous-401-cached-for-all',
    breaks: 'storable_answers_vary_by_credential',
    does: 'a 401 to a request without a key says Cache-Control: public, max-age=3600 and no Vary: Authorization: a shared cache hands it to every keyed client (RFC 9111 §4.1)',
    caughtBy: ['missing_api_key_rejected'],
    strict: true,
    fake: wrapping(async (request, next) => {
      const answer = await next();
      return answer.status === 401 && request.header('authorization') === null
        ? withHeaders(answer, (headers) => headers.set('Cache-Control', 'public, max-age=3600'))
        : answer;
    }),
  },
  {
    name: 'preflight-allows-headers-star',
    breaks: 'cors_lets_the_key_through',
    does: 'a preflight answers Access-Control-Allow-Headers: *, which never covers Authorization: no browser can send the key (Fetch standard)',
    caughtBy: ['every_method_routed'],
    strict: true,
    fake: wrapping(async (request, next) => {
      const answer = await next();
      return request.method === 'OPTIONS'
        ? withHeaders(answer, (headers) => headers.set('Access-Control-Allow-Headers', '*'))
        : answer;
    }),
  },
  {
    name: 'key-guessing-unthrottled',
    breaks: 'guessing_throttled',
    does: 'past the window of unauthenticated requests, unknown keys still get 401, never 429: a client can guess keys without limit (OWASP API2)',
    caughtBy: ['key_guessing_throttled'],
    strict: true,
    fake: wrapping(async (request, next) => {
      const answer = await next();
      const token = tokenOf(request);
      if (answer.status !== 429 || (token !== undefined && KNOWN_KEYS.includes(token))) return answer;
      const challenge =
        token === undefined ? 'Bearer realm="petstore"' : 'Bearer realm="petstore", error="invalid_token"';
      const code = token === undefined ? 'missing_api_key' : 'invalid_api_key';
      return {
        ...answer,
        status: 401,
        headers: { ...answer.headers, 'WWW-Authenticate': challenge },
        body: { code, message: 'No valid API key.', status: 401 },
      };
    }),
  },
  {
    name: 'not-modified-since-anything',
    breaks: 'not_modified_only_when_unchanged',
    does: 'any If-Modified-Since answers 304, a date from 1994 too, though reads offer no Last-Modified (RFC 9110 §13.1.3)',
    caughtBy: ['conditional_requests_honoured'],
    fake: wrapping(async (request, next) => {
      const answer = await next();
      return request.header('if-modified-since') !== null && answer.status === 200
        ? { ...answer, status: 304, body: undefined, rawBody: '' }
        : answer;
    }),
  },
  {
    name: 'id-mass-assigned',
    breaks: 'no_mass_assignment',
    does: 'a create carrying id is stored under that id (the field stripped before validation, set after): mass assignment (OWASP API3)',
    caughtBy: ['server_fields_not_assignable'],
    fake: {
      overrides: [
        override.post('/categories', async ({ request, next }) => {
          const sent = (await request.json()) as Record<string, unknown> | undefined;
          if (typeof sent !== 'object' || sent === null || !('id' in sent)) return next();
          const { id, ...rest } = sent;
          const answer = await next({ body: JSON.stringify(rest) });
          return answer.status === 201 ? { ...answer, body: { ...(answer.body as object), id } } : answer;
        }),
      ],
    },
  },
];
