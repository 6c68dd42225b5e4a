import { apiPath, withHeaders, withJson, type BrokenVariant } from './variant.js';

const codeOf = async (response: Response) =>
  (
    (await response
      .clone()
      .json()
      .catch(() => undefined)) as { code?: unknown } | undefined
  )?.code;

/** Variants that break the quota headers, the 429 answers, the ban or the deprecation. */
export const RATE_LIMIT_AND_DEPRECATION_VARIANTS: BrokenVariant[] = [
  {
    name: 'remaining-not-decreasing',
    breaks: 'X-RateLimit-Remaining stays at Limit - 1 whatever the count',
    caughtBy: ['rate_limit_remaining_decreases'],
    intercept: async (request, next) => {
      const response = await next(request);
      if (response.status !== 200) return response;
      const limit = Number(response.headers.get('x-ratelimit-limit'));
      return withHeaders(response, (headers) => headers.set('x-ratelimit-remaining', String(limit - 1)));
    },
  },
  {
    name: 'reset-in-milliseconds',
    breaks: 'X-RateLimit-Reset is sent in epoch milliseconds, not seconds',
    caughtBy: ['rate_limit_reset_in_window'],
    intercept: async (request, next) => {
      const response = await next(request);
      const reset = response.headers.get('x-ratelimit-reset');
      return reset === null
        ? response
        : withHeaders(response, (headers) => headers.set('x-ratelimit-reset', `${reset}000`));
    },
  },
  {
    name: 'retry-after-missing',
    breaks: 'a 429 carries no Retry-After',
    caughtBy: ['rate_limit_exceeded_answer'],
    intercept: async (request, next) => {
      const response = await next(request);
      return response.status === 429 ? withHeaders(response, (headers) => headers.delete('retry-after')) : response;
    },
  },
  {
    name: 'retry-after-rounded-down',
    breaks: 'Retry-After is one second short of the end of the window (rounded down, not up)',
    caughtBy: ['quota_window_rolls_over'],
    intercept: async (request, next) => {
      const response = await next(request);
      if (response.status !== 429 || (await codeOf(response)) !== 'rate_limit_exceeded') return response;
      const retryAfter = Number(response.headers.get('retry-after'));
      return withHeaders(response, (headers) => headers.set('retry-after', String(Math.max(1, retryAfter - 1))));
    },
  },
  {
    name: 'ban-reported-as-rate-limit',
    breaks: 'a banned key is answered rate_limit_exceeded, so the ban is never announced',
    caughtBy: ['ban_after_repeated_rejections'],
    intercept: async (request, next) => {
      const response = await next(request);
      if ((await codeOf(response)) !== 'temporarily_banned') return response;
      return withJson(response, (json) => ({ ...(json as object), code: 'rate_limit_exceeded' }));
    },
  },
  {
    name: 'deprecation-header-missing',
    breaks: 'GET /pets/{petId} answers without the Deprecation header',
    caughtBy: ['deprecation_headers'],
    intercept: async (request, next) => {
      const response = await next(request);
      return apiPath(request).startsWith('/pets/')
        ? withHeaders(response, (headers) => headers.delete('deprecation'))
        : response;
    },
  },
  {
    name: 'alive-after-sunset',
    breaks: 'GET /pets/{petId} still answers 200 after its Sunset date',
    caughtBy: ['sunset_answers_gone'],
    intercept: async (request, next) => {
      const response = await next(request);
      if (response.status !== 410) return response;
      return withJson(response, () => ({ id: 1, name: 'Rex', status: 'available' }), 200);
    },
  },
];
