import { override } from '../../mocks/handlers/typed-override.js';
import { onSpecPath, textAnswer, withHeaders, withJson, wrapping, type BrokenVariant } from './variant.js';

const KNOWN_KEYS = ['free-test-key', 'pro-test-key', 'business-test-key', 'enterprise-test-key'].map(
  (key) => `Bearer ${key}`,
);
const AS_FREE_KEY = { headers: { Authorization: 'Bearer free-test-key' } };

/** Variants that break authentication or the shape of errors. */
export const AUTH_AND_ERROR_VARIANTS: BrokenVariant[] = [
  {
    name: 'no-auth',
    breaks: 'refused_never_admitted',
    does: 'a request without a key is served (as if it carried the free key)',
    caughtBy: ['missing_api_key_rejected', 'create_requires_api_key'],
    fake: wrapping((request, next) => next(request.header('authorization') === null ? AS_FREE_KEY : undefined)),
  },
  {
    name: 'any-key-accepted',
    breaks: 'invalid_api_key_rejected',
    does: 'an unknown or malformed key is served (as if it were the free key)',
    caughtBy: ['invalid_api_key_rejected', 'create_requires_api_key'],
    fake: wrapping((request, next) => {
      const authorization = request.header('authorization');
      return next(authorization === null || KNOWN_KEYS.includes(authorization) ? undefined : AS_FREE_KEY);
    }),
  },
  {
    name: 'key-read-from-query',
    breaks: 'credential_only_where_declared',
    does: 'without Authorization, a key in the api_key query parameter is served as if it were the bearer token',
    caughtBy: ['missing_api_key_rejected'],
    fake: wrapping((request, next) => {
      const key = request.query.get('api_key');
      return next(
        key === null || request.header('authorization') !== null
          ? undefined
          : { headers: { Authorization: `Bearer ${key}` } },
      );
    }),
  },
  {
    name: 'key-read-from-x-api-key',
    breaks: 'credential_only_where_declared',
    does: 'without Authorization, a key in an X-API-Key header is served as if it were the bearer token',
    caughtBy: ['missing_api_key_rejected'],
    fake: wrapping((request, next) => {
      const key = request.header('x-api-key');
      return next(
        key === null || request.header('authorization') !== null
          ? undefined
          : { headers: { Authorization: `Bearer ${key}` } },
      );
    }),
  },
  {
    name: 'www-authenticate-missing',
    breaks: 'bearer_challenge_on_401',
    does: '401 answers carry no WWW-Authenticate challenge',
    caughtBy: ['missing_api_key_rejected', 'invalid_api_key_rejected'],
    fake: wrapping(async (_request, next) => {
      const answer = await next();
      return answer.status === 401 ? withHeaders(answer, (headers) => headers.delete('www-authenticate')) : answer;
    }),
  },
  {
    name: 'error-status-mismatch',
    breaks: 'errors_are_error_bodies',
    does: 'Error.status differs from the HTTP status (every error says 400)',
    caughtBy: ['error_body_conformance'],
    fake: wrapping(async (_request, next) => {
      const answer = await next();
      return answer.status >= 400 ? withJson(answer, (json) => ({ ...(json as object), status: 400 })) : answer;
    }),
  },
  {
    name: 'unknown-path-html',
    breaks: 'errors_are_error_bodies',
    does: 'an unknown path answers an HTML 404 page instead of an Error',
    caughtBy: ['unknown_path_not_found'],
    fake: wrapping(async (request, next) => {
      const answer = await next();
      if (answer.status !== 404 || onSpecPath(request)) return answer;
      return textAnswer(404, '<html><body>Not Found</body></html>', 'text/html', answer.headers);
    }),
  },
  {
    name: 'allow-header-missing',
    breaks: 'allow_lists_the_methods',
    does: '405 answers carry no Allow header',
    caughtBy: ['method_not_allowed'],
    fake: wrapping(async (_request, next) => {
      const answer = await next();
      return answer.status === 405 ? withHeaders(answer, (headers) => headers.delete('allow')) : answer;
    }),
  },
  {
    name: 'rate-limit-headers-missing-on-404',
    breaks: 'rate_limit_headers_on_every_response',
    does: 'an unknown path answers without X-RateLimit-* headers',
    caughtBy: ['rate_limit_headers_on_every_response'],
    // After auth, on what no operation answers: the 404s and 405s of the router.
    fake: {
      overrides: [
        override.all(async ({ request, next }) => {
          const answer = await next();
          if (answer.status !== 404 || onSpecPath(request)) return answer;
          return withHeaders(answer, (headers) =>
            ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'].forEach((name) => headers.delete(name)),
          );
        }),
      ],
    },
  },
];
