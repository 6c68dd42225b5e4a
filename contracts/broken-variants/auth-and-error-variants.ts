import { onSpecPath, rebuiltRequest, withHeaders, withJson, type BrokenVariant } from './variant.js';

const KNOWN_KEYS = ['free-test-key', 'pro-test-key', 'business-test-key', 'enterprise-test-key'].map(
  (key) => `Bearer ${key}`,
);

/** Variants that break authentication or the shape of errors. */
export const AUTH_AND_ERROR_VARIANTS: BrokenVariant[] = [
  {
    name: 'no-auth',
    breaks: 'a request without a key is served (as if it carried the free key)',
    caughtBy: ['missing_api_key_rejected', 'create_requires_api_key'],
    intercept: async (request, next) =>
      next(
        request.headers.has('authorization')
          ? request
          : await rebuiltRequest(request, { headers: { Authorization: 'Bearer free-test-key' } }),
      ),
  },
  {
    name: 'any-key-accepted',
    breaks: 'an unknown or malformed key is served (as if it were the free key)',
    caughtBy: ['invalid_api_key_rejected', 'create_requires_api_key'],
    intercept: async (request, next) => {
      const authorization = request.headers.get('authorization');
      if (authorization === null || KNOWN_KEYS.includes(authorization)) return next(request);
      return next(await rebuiltRequest(request, { headers: { Authorization: 'Bearer free-test-key' } }));
    },
  },
  {
    name: 'key-read-from-query',
    breaks: 'without Authorization, a key in the api_key query parameter is served as if it were the bearer token',
    caughtBy: ['missing_api_key_rejected'],
    intercept: async (request, next) => {
      const key = new URL(request.url).searchParams.get('api_key');
      return next(
        key === null || request.headers.has('authorization')
          ? request
          : await rebuiltRequest(request, { headers: { Authorization: `Bearer ${key}` } }),
      );
    },
  },
  {
    name: 'key-read-from-x-api-key',
    breaks: 'without Authorization, a key in an X-API-Key header is served as if it were the bearer token',
    caughtBy: ['missing_api_key_rejected'],
    intercept: async (request, next) => {
      const key = request.headers.get('x-api-key');
      return next(
        key === null || request.headers.has('authorization')
          ? request
          : await rebuiltRequest(request, { headers: { Authorization: `Bearer ${key}` } }),
      );
    },
  },
  {
    name: 'www-authenticate-missing',
    breaks: '401 answers carry no WWW-Authenticate challenge',
    caughtBy: ['missing_api_key_rejected', 'invalid_api_key_rejected'],
    intercept: async (request, next) => {
      const response = await next(request);
      return response.status === 401
        ? withHeaders(response, (headers) => headers.delete('www-authenticate'))
        : response;
    },
  },
  {
    name: 'error-status-mismatch',
    breaks: 'Error.status differs from the HTTP status (every error says 400)',
    caughtBy: ['error_body_conformance'],
    intercept: async (request, next) => {
      const response = await next(request);
      return response.status >= 400 ? withJson(response, (json) => ({ ...(json as object), status: 400 })) : response;
    },
  },
  {
    name: 'unknown-path-html',
    breaks: 'an unknown path answers an HTML 404 page instead of an Error',
    caughtBy: ['unknown_path_not_found'],
    intercept: async (request, next) => {
      const response = await next(request);
      if (response.status !== 404 || onSpecPath(request)) return response;
      const headers = new Headers(response.headers);
      headers.set('content-type', 'text/html');
      headers.delete('content-length');
      return new Response('<html><body>Not Found</body></html>', { status: 404, headers });
    },
  },
  {
    name: 'allow-header-missing',
    breaks: '405 answers carry no Allow header',
    caughtBy: ['method_not_allowed'],
    intercept: async (request, next) => {
      const response = await next(request);
      return response.status === 405 ? withHeaders(response, (headers) => headers.delete('allow')) : response;
    },
  },
  {
    name: 'rate-limit-headers-missing-on-404',
    breaks: 'an unknown path answers without X-RateLimit-* headers',
    caughtBy: ['rate_limit_headers_on_every_response'],
    intercept: async (request, next) => {
      const response = await next(request);
      if (response.status !== 404 || onSpecPath(request)) return response;
      return withHeaders(response, (headers) =>
        ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'].forEach((name) => headers.delete(name)),
      );
    },
  },
];
