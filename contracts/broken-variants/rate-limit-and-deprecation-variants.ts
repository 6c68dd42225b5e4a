import { override } from '../../mocks/handlers/typed-override.js';
import { codeOf, headerOf, withHeaders, withJson, wrapping, type BrokenVariant } from './variant.js';

/** Variants that break the quota headers, the 429 answers, the ban or the deprecation. */
export const RATE_LIMIT_AND_DEPRECATION_VARIANTS: BrokenVariant[] = [
  {
    name: 'remaining-not-decreasing',
    breaks: 'charged_once_per_admitted_request',
    does: 'X-RateLimit-Remaining stays at Limit - 1 whatever the count',
    caughtBy: ['rate_limit_remaining_decreases'],
    fake: wrapping(async (_request, next) => {
      const answer = await next();
      if (answer.status !== 200) return answer;
      const limit = Number(headerOf(answer, 'x-ratelimit-limit'));
      return withHeaders(answer, (headers) => headers.set('x-ratelimit-remaining', String(limit - 1)));
    }),
  },
  {
    name: 'reset-in-milliseconds',
    breaks: 'fixed_utc_windows',
    does: 'X-RateLimit-Reset is sent in epoch milliseconds, not seconds',
    caughtBy: ['rate_limit_reset_in_window'],
    fake: wrapping(async (_request, next) => {
      const answer = await next();
      const reset = headerOf(answer, 'x-ratelimit-reset');
      return reset === null
        ? answer
        : withHeaders(answer, (headers) => headers.set('x-ratelimit-reset', `${reset}000`));
    }),
  },
  {
    name: 'retry-after-missing',
    breaks: 'fixed_utc_windows',
    does: 'a 429 carries no Retry-After',
    caughtBy: ['rate_limit_exceeded_answer'],
    fake: wrapping(async (_request, next) => {
      const answer = await next();
      return answer.status === 429 ? withHeaders(answer, (headers) => headers.delete('retry-after')) : answer;
    }),
  },
  {
    name: 'retry-after-rounded-down',
    breaks: 'quota_window_rolls_over',
    does: 'Retry-After is one second short of the end of the window (rounded down, not up)',
    caughtBy: ['quota_window_rolls_over'],
    fake: wrapping(async (_request, next) => {
      const answer = await next();
      if (answer.status !== 429 || codeOf(answer) !== 'rate_limit_exceeded') return answer;
      const retryAfter = Number(headerOf(answer, 'retry-after'));
      return withHeaders(answer, (headers) => headers.set('retry-after', String(Math.max(1, retryAfter - 1))));
    }),
  },
  {
    name: 'ban-reported-as-rate-limit',
    breaks: 'fixed_utc_windows',
    does: 'a banned key is answered rate_limit_exceeded, so the ban is never announced',
    caughtBy: ['ban_after_repeated_rejections'],
    fake: wrapping(async (_request, next) => {
      const answer = await next();
      if (codeOf(answer) !== 'temporarily_banned') return answer;
      return withJson(answer, (json) => ({ ...(json as object), code: 'rate_limit_exceeded' }));
    }),
  },
  {
    name: 'deprecation-header-missing',
    breaks: 'deprecation_headers_as_declared',
    does: 'GET /pets/{petId} answers without the Deprecation header',
    caughtBy: ['deprecation_headers'],
    fake: wrapping(async (request, next) => {
      const answer = await next();
      return request.path.startsWith('/pets/')
        ? withHeaders(answer, (headers) => headers.delete('deprecation'))
        : answer;
    }),
  },
  {
    name: 'alive-after-sunset',
    breaks: 'sunset_answers_gone',
    does: 'GET /pets/{petId} still answers 200 after its Sunset date',
    caughtBy: ['sunset_answers_gone'],
    fake: {
      overrides: [
        override.get('/pets/{petId}', async ({ next, response }) => {
          const answer = await next();
          return answer.status === 410 ? response(200).json({ id: 1, name: 'Rex', status: 'available' }) : answer;
        }),
      ],
    },
  },
];
