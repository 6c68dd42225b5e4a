import { apiError } from '../../mocks/domain/errors.js';
import { PLAN_LIMITS } from '../../mocks/domain/plans.js';
import type { KeyWindow } from '../../mocks/domain/key-controls.js';
import type { Answer } from '../../mocks/handlers/api-call.js';
import type { OverrideRequest } from '../../mocks/handlers/overrides.js';
import {
  codeOf,
  headerOf,
  tokenOf,
  withHeaders,
  wrapping,
  type BrokenConfiguration,
  type BrokenVariant,
} from './variant.js';

/** A service whose X-RateLimit-Remaining says `shift(actual, status)` on keyed answers other than 429. */
function announcing(shift: (remaining: number, status: number) => number): BrokenConfiguration {
  return wrapping(async (request, next) => {
    const answer = await next();
    const remaining = headerOf(answer, 'x-ratelimit-remaining');
    const keyed = /^Bearer /i.test(request.header('authorization') ?? '');
    if (!keyed || answer.status === 429 || answer.status === 401 || remaining === null) return answer;
    return withHeaders(answer, (headers) =>
      headers.set('x-ratelimit-remaining', String(Math.max(0, shift(Number(remaining), answer.status)))),
    );
  });
}

const DAY_SECONDS = 86_400;

/**
 * A service that, when a key's minute window is used up, sends it away until the day's end: its 429
 * describes the day window (the day's Reset and Limit, Remaining 0), which earlier answers show has
 * requests left. Each field is well-formed alone; only both windows together contradict it.
 */
const retryAfterIntoTheDay: BrokenConfiguration = wrapping(async (_request, next) => {
  const answer = await next();
  const reset = Number(headerOf(answer, 'x-ratelimit-reset'));
  const limit = Number(headerOf(answer, 'x-ratelimit-limit'));
  const plan = Object.values(PLAN_LIMITS).find(({ perMinute }) => perMinute === limit);
  if (answer.status !== 429 || reset % 60 !== 0 || reset % DAY_SECONDS === 0 || !plan) return answer;
  const dayEnd = Math.ceil(reset / DAY_SECONDS) * DAY_SECONDS;
  const retryAfter = Number(headerOf(answer, 'retry-after')) + (dayEnd - reset);
  return withHeaders(answer, (headers) => {
    headers.set('x-ratelimit-reset', String(dayEnd));
    headers.set('x-ratelimit-limit', String(plan.perDay));
    headers.set('retry-after', String(retryAfter));
  });
});

/** A service whose answers describing the minute window give the day window's Limit (the other window's). */
const limitOfTheDay: BrokenConfiguration = wrapping(async (_request, next) => {
  const answer = await next();
  const reset = Number(headerOf(answer, 'x-ratelimit-reset'));
  const plan = Object.values(PLAN_LIMITS).find(
    ({ perMinute }) => perMinute === Number(headerOf(answer, 'x-ratelimit-limit')),
  );
  if (!plan || reset % DAY_SECONDS === 0) return answer;
  return withHeaders(answer, (headers) => headers.set('x-ratelimit-limit', String(plan.perDay)));
});

/**
 * A service whose 429 for a used-up minute names the end of the next minute (its X-RateLimit-Reset and a
 * Retry-After to it), as one that reads its clock again after deciding, or counts from the refused
 * request, might: the key is refused until the used-up window ends, yet told to wait a minute more.
 */
const rejectionNamesTheNextMinute: BrokenConfiguration = wrapping(async (_request, next) => {
  const answer = await next();
  const reset = Number(headerOf(answer, 'x-ratelimit-reset'));
  if (answer.status !== 429 || codeOf(answer) !== 'rate_limit_exceeded' || reset % DAY_SECONDS === 0) return answer;
  const retryAfter = Number(headerOf(answer, 'retry-after'));
  return withHeaders(answer, (headers) => {
    headers.set('x-ratelimit-reset', String(reset + 60));
    headers.set('retry-after', String(retryAfter + 60));
  });
});

/** Both windows of the request's key after it: the fake's own state (`GET /__admin/keys/{key}`, on loopback only). */
async function windowsOfKey(request: OverrideRequest): Promise<{ minute: KeyWindow; day: KeyWindow } | undefined> {
  const token = tokenOf(request);
  const host = request.header('host') ?? '';
  if (!token || !/^127\.0\.0\.1:\d+$/.test(host)) return undefined;
  const state = await fetch(`http://${host}/__admin/keys/${encodeURIComponent(token)}`);
  return state.ok ? ((await state.json()) as { minute: KeyWindow; day: KeyWindow }) : undefined;
}

/** An answer whose `X-RateLimit-*` triple describes one of the key's windows. */
function describing(answer: Answer, window: KeyWindow): Answer {
  return withHeaders(answer, (headers) => {
    headers.set('x-ratelimit-limit', String(window.limit));
    headers.set('x-ratelimit-remaining', String(window.remaining));
    headers.set('x-ratelimit-reset', String(window.resetEpochSeconds));
  });
}

/**
 * A service that reports one window (`kind`) on every admitted answer: where the fake describes the
 * other one, the answer gets that window's Limit, Remaining and Reset, each right for it. A 429 still
 * names the used-up window.
 */
function alwaysDescribing(kind: 'minute' | 'day'): BrokenConfiguration {
  return wrapping(async (request, next) => {
    const answer = await next();
    if (answer.status === 401 || answer.status === 429 || headerOf(answer, 'x-ratelimit-limit') === null) return answer;
    const windows = await windowsOfKey(request);
    if (!windows) return answer;
    const window = windows[kind];
    const described =
      Number(headerOf(answer, 'x-ratelimit-reset')) === window.resetEpochSeconds &&
      Number(headerOf(answer, 'x-ratelimit-limit')) === window.limit;
    if (described) return answer;
    // Each admitted request costs one of each window, so the two differ by the same count across requests
    // in flight together: the fake's own Remaining, moved by that difference, is this request's place.
    const other = windows[kind === 'minute' ? 'day' : 'minute'];
    const remaining = Number(headerOf(answer, 'x-ratelimit-remaining')) + window.remaining - other.remaining;
    return describing(answer, { ...window, remaining });
  });
}

/**
 * A service that describes the right window (its Remaining and Reset) with the other window's Limit:
 * the day's beside the minute's count, the minute's beside the day's.
 */
const limitOfTheOtherWindow: BrokenConfiguration = wrapping(async (request, next) => {
  const answer = await next();
  if (answer.status === 401 || headerOf(answer, 'x-ratelimit-limit') === null) return answer;
  const windows = await windowsOfKey(request);
  if (!windows) return answer;
  const dayDescribed =
    Number(headerOf(answer, 'x-ratelimit-reset')) === windows.day.resetEpochSeconds &&
    Number(headerOf(answer, 'x-ratelimit-limit')) === windows.day.limit;
  const other = dayDescribed ? windows.minute : windows.day;
  return withHeaders(answer, (headers) => headers.set('x-ratelimit-limit', String(other.limit)));
});

/** Variants whose rate-limit headers promise what the service does not do. */
export const RATE_LIMIT_PROMISE_VARIANTS: BrokenVariant[] = [
  {
    name: 'remaining-one-too-many',
    breaks: 'no_surprise_rate_limit',
    does: 'X-RateLimit-Remaining announces one request more than the service admits',
    caughtBy: ['rate_limit_promises_kept'],
    fake: announcing((remaining) => remaining + 1),
  },
  {
    name: 'remaining-three-short',
    breaks: 'no_admission_past_the_limit',
    does: 'X-RateLimit-Remaining announces three fewer than the service admits (0 while three more get in)',
    caughtBy: ['rate_limit_promises_kept'],
    fake: announcing((remaining) => remaining - 3),
  },
  {
    name: 'errors-shown-uncharged',
    breaks: 'charged_once_per_admitted_request',
    does: 'a 400 or 404 costs one request, but its X-RateLimit-Remaining is the count before it',
    caughtBy: ['rate_limit_promises_kept'],
    fake: announcing((remaining, status) => (status === 400 || status === 404 ? remaining + 1 : remaining)),
  },
  {
    name: 'reset-slides',
    breaks: 'fixed_utc_windows',
    does: 'X-RateLimit-Reset is always 60 s after the request (a sliding promise), not the end of the fixed window',
    caughtBy: ['rate_limit_promises_kept'],
    fake: wrapping(async (_request, next) => {
      const answer = await next();
      const reset = Number(headerOf(answer, 'x-ratelimit-reset'));
      // The draft RateLimit field says how long the window has left (t): the fake's now is Reset - t.
      const secondsLeft = Number(/;t=(\d+)/.exec(headerOf(answer, 'ratelimit') ?? '')?.[1]);
      if (answer.status === 429 || !Number.isFinite(reset) || !Number.isFinite(secondsLeft)) return answer;
      return withHeaders(answer, (headers) => headers.set('x-ratelimit-reset', String(reset - secondsLeft + 60)));
    }),
  },
  {
    name: 'retry-after-into-the-day',
    breaks: 'no_surprise_rate_limit',
    does: "a 429 of the used-up minute window describes the day window (its Reset, Limit and a Retry-After to the day's end), which earlier answers show has requests left",
    caughtBy: ['rate_limit_promises_kept'],
    fake: retryAfterIntoTheDay,
  },
  {
    name: 'rejection-names-the-next-minute',
    breaks: 'fixed_utc_windows',
    does: "a 429 of the used-up minute window names the next minute's end (X-RateLimit-Reset and Retry-After a minute late)",
    caughtBy: ['quota_window_rolls_over'],
    fake: rejectionNamesTheNextMinute,
  },
  {
    name: 'limit-of-the-day',
    breaks: 'fixed_utc_windows',
    does: "answers describing the minute window carry the day window's X-RateLimit-Limit",
    caughtBy: ['rate_limit_promises_kept'],
    fake: limitOfTheDay,
  },
  {
    name: 'day-window-always-described',
    breaks: 'lower_window_described',
    does: 'every admitted answer describes the day window (its Limit, Remaining and Reset), though the minute window has fewer requests left',
    caughtBy: ['rate_limit_remaining_decreases'],
    fake: alwaysDescribing('day'),
  },
  {
    name: 'minute-window-always-described',
    breaks: 'lower_window_described',
    does: 'every admitted answer describes the minute window, also late in a UTC day when the day window has fewer requests left',
    caughtBy: ['both_quota_windows_held'],
    fake: alwaysDescribing('minute'),
  },
  {
    name: 'limit-of-the-other-window',
    breaks: 'fixed_utc_windows',
    does: "X-RateLimit-Limit is the other window's limit, beside the described window's Remaining and Reset",
    caughtBy: ['rate_limit_remaining_decreases'],
    fake: limitOfTheOtherWindow,
  },
  {
    name: 'quota-after-validation',
    breaks: 'no_admission_past_the_limit',
    does: 'past the limit, a request that fails validation is answered 400 instead of 429 (validation runs before the quota)',
    caughtBy: ['rate_limit_promises_kept'],
    fake: wrapping(async (request, next) => {
      const answer = await next();
      if (answer.status !== 429 || !/^\/pets\/[^/]+$/.test(request.path) || /^\/pets\/\d+$/.test(request.path))
        return answer;
      const error = apiError('invalid_request', 'path: petId must be a positive integer.');
      return { ...answer, status: error.status, body: error };
    }),
  },
];
