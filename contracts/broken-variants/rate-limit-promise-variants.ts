import { apiPath, withHeaders, withJson, type BrokenVariant, type Intercept } from './variant.js';

const keyed = (request: Request) => /^Bearer /i.test(request.headers.get('authorization') ?? '');

/** A service whose X-RateLimit-Remaining says `shift(actual, status)` on keyed answers other than 429. */
function announcing(shift: (remaining: number, status: number) => number): Intercept {
  return async (request, next) => {
    const response = await next(request);
    const remaining = response.headers.get('x-ratelimit-remaining');
    if (!keyed(request) || response.status === 429 || response.status === 401 || remaining === null) return response;
    return withHeaders(response, (headers) =>
      headers.set('x-ratelimit-remaining', String(Math.max(0, shift(Number(remaining), response.status)))),
    );
  };
}

/** Variants whose rate-limit headers promise what the service does not do. */
export const RATE_LIMIT_PROMISE_VARIANTS: BrokenVariant[] = [
  {
    name: 'remaining-one-too-many',
    breaks: 'X-RateLimit-Remaining announces one request more than the service admits',
    caughtBy: ['rate_limit_promises_kept'],
    intercept: announcing((remaining) => remaining + 1),
  },
  {
    name: 'remaining-three-short',
    breaks: 'X-RateLimit-Remaining announces three fewer than the service admits (0 while three more get in)',
    caughtBy: ['rate_limit_promises_kept'],
    intercept: announcing((remaining) => remaining - 3),
  },
  {
    name: 'errors-shown-uncharged',
    breaks: 'a 400 or 404 costs one request, but its X-RateLimit-Remaining is the count before it',
    caughtBy: ['rate_limit_promises_kept'],
    intercept: announcing((remaining, status) => (status === 400 || status === 404 ? remaining + 1 : remaining)),
  },
  {
    name: 'reset-slides',
    breaks: 'X-RateLimit-Reset is always 60 s after the request (a sliding promise), not the end of the fixed window',
    caughtBy: ['rate_limit_promises_kept'],
    intercept: async (request, next) => {
      const response = await next(request);
      const reset = Number(response.headers.get('x-ratelimit-reset'));
      // The draft RateLimit field says how long the window has left (t): the fake's now is Reset - t.
      const secondsLeft = Number(/;t=(\d+)/.exec(response.headers.get('ratelimit') ?? '')?.[1]);
      if (response.status === 429 || !Number.isFinite(reset) || !Number.isFinite(secondsLeft)) return response;
      return withHeaders(response, (headers) => headers.set('x-ratelimit-reset', String(reset - secondsLeft + 60)));
    },
  },
  {
    name: 'quota-after-validation',
    breaks:
      'past the limit, a request that fails validation is answered 400 instead of 429 (validation runs before the quota)',
    caughtBy: ['rate_limit_promises_kept'],
    intercept: async (request, next) => {
      const response = await next(request);
      if (
        response.status !== 429 ||
        !/^\/pets\/[^/]+$/.test(apiPath(request)) ||
        /^\/pets\/\d+$/.test(apiPath(request))
      )
        return response;
      return withJson(
        response,
        () => ({ code: 'invalid_request', message: 'path: petId must be a positive integer.', status: 400 }),
        400,
      );
    },
  },
];
