import { apiError } from '../../mocks/domain/errors.js';
import type { Answer } from '../../mocks/handlers/api-call.js';
import type { OverrideRequest } from '../../mocks/handlers/overrides.js';
import { override } from '../../mocks/handlers/typed-override.js';
import {
  headerOf,
  onSpecPath,
  tokenOf,
  withHeaders,
  withJson,
  wrapping,
  type BrokenConfiguration,
  type BrokenVariant,
  type Next,
} from './variant.js';

const RATE_LIMIT_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Requests in flight together form one group; `answer` sees the group's earlier answers. A service with
 * a read-modify-write race behaves correctly one request at a time and wrongly only under concurrency.
 */
function racing(
  applies: (request: OverrideRequest) => boolean,
  answer: (answer: Answer, group: Answer[], next: Next) => Promise<Answer>,
  windowMs = 5,
): BrokenConfiguration {
  let inFlight = 0;
  let group: Answer[] = [];
  return wrapping(async (request, next) => {
    if (!applies(request)) return next();
    if (inFlight === 0) group = [];
    inFlight += 1;
    const mine = group;
    try {
      // The window of the race: long enough for requests sent together to overlap.
      await pause(windowMs);
      const answered = await answer(await next(), mine, next);
      mine.push(answered);
      return answered;
    } finally {
      inFlight -= 1;
    }
  });
}

/** Variants whose break shows only across exchanges: in the run's model of the spec's promises. */
export const PROMISE_MODEL_VARIANTS: BrokenVariant[] = [
  {
    name: 'create-ids-race',
    breaks: 'ids_unique',
    does: 'creates in flight together are answered with the same id (the id is read, then written)',
    caughtBy: ['concurrent_clients_serialisable'],
    fake: racing(
      (request) => request.method === 'POST' && request.path === '/categories',
      async (answer, group) => {
        const first = group.find((earlier) => earlier.status === 201);
        if (answer.status !== 201 || !first) return answer;
        const { id } = first.body as { id: number };
        return withJson(answer, (json) => ({ ...(json as object), id }));
      },
      // Creates are few, so a wider window costs little; requests a client sends together can reach the
      // service several ms apart on a loaded machine, through a proxy even more so.
      25,
    ),
  },
  {
    name: 'quota-lost-update',
    breaks: 'one_place_per_answer',
    does: 'requests in flight together each read the count before any wrote it: they claim one place, and a burst past the limit is admitted',
    caughtBy: ['concurrent_clients_serialisable'],
    fake: racing(
      (request) => tokenOf(request) !== undefined && request.method === 'GET',
      async (answer, group, next) => {
        const first = group.find(
          (earlier) => earlier.status !== 429 && headerOf(earlier, 'x-ratelimit-remaining') !== null,
        );
        if (!first) return answer;
        // Admitted on the stale count: answered as the service would, with the place the first one claimed.
        const admitted =
          answer.status === 429 ? await next({ headers: { authorization: 'Bearer enterprise-test-key' } }) : answer;
        return withHeaders(admitted, (headers) =>
          RATE_LIMIT_HEADERS.forEach((name) => headers.set(name, headerOf(first, name)!)),
        );
      },
    ),
  },
  (() => {
    const lastHeaders = new Map<string, Answer>();
    return {
      name: 'wrong-method-uncharged',
      breaks: 'charged_once_per_admitted_request',
      does: 'a known path with another method is refused (405) before the quota is counted: it costs nothing, and says so',
      caughtBy: ['every_outcome_charged'],
      fake: wrapping(async (request, next) => {
        const token = tokenOf(request);
        const known = token === undefined ? undefined : lastHeaders.get(token);
        if (known && onSpecPath(request) && !['GET', 'POST'].includes(request.method)) {
          const allow = request.path === '/categories' ? 'GET, POST' : 'GET';
          const headers = Object.fromEntries([
            ...RATE_LIMIT_HEADERS.map((name) => [name, headerOf(known, name)!]),
            ['allow', allow],
          ]);
          const error = apiError('method_not_allowed', `${request.method} is not allowed; use ${allow}.`);
          return { status: error.status, headers, body: error };
        }
        const answer = await next();
        if (token !== undefined && headerOf(answer, 'x-ratelimit-remaining') !== null && answer.status !== 401)
          lastHeaders.set(token, answer);
        return answer;
      }),
    } satisfies BrokenVariant;
  })(),
  {
    name: 'reset-a-second-early',
    breaks: 'fixed_utc_windows',
    does: 'X-RateLimit-Reset is rounded down: one second before the end of the fixed window (the spec says rounded up)',
    caughtBy: ['rate_limit_reset_in_window'],
    fake: wrapping(async (_request, next) => {
      const answer = await next();
      const reset = Number(headerOf(answer, 'x-ratelimit-reset'));
      return answer.status === 429 || !reset
        ? answer
        : withHeaders(answer, (headers) => headers.set('x-ratelimit-reset', String(reset - 1)));
    }),
  },
  {
    name: 'orders-declared-deprecated',
    breaks: 'deprecation_only_where_declared',
    does: 'GET /store/orders answers with Deprecation and Sunset, though the spec does not mark it deprecated',
    caughtBy: ['list_orders_conforms'],
    fake: wrapping(async (request, next) => {
      const answer = await next();
      if (request.path !== '/store/orders') return answer;
      return withHeaders(answer, (headers) => {
        headers.set('deprecation', '@1782864000');
        headers.set('sunset', 'Thu, 01 Jul 2027 00:00:00 GMT');
      });
    }),
  },
  {
    name: 'categories-newest-first',
    breaks: 'listed_in_ascending_id_order',
    does: 'GET /categories lists the newest category first (descending ids), though the spec fixes ascending id order',
    caughtBy: ['list_categories_conforms'],
    fake: {
      overrides: [
        override.get('/categories', async ({ next }) =>
          withJson(await next(), (json) => (json as unknown[]).slice().reverse()),
        ),
      ],
    },
  },
  (() => {
    let keyed = 0;
    return {
      name: 'spurious-429',
      breaks: 'no_surprise_rate_limit',
      does: 'every seventh keyed request is answered 429 rate_limit_exceeded though the headers before it announced requests left',
      caughtBy: ['near_miss_paths_not_found', 'invalid_parameters_rejected'],
      fake: wrapping(async (request, next) => {
        const answer = await next();
        if (tokenOf(request) === undefined || answer.status === 429 || answer.status === 401 || (keyed += 1) % 7 !== 0)
          return answer;
        const headers = Object.fromEntries([
          ...RATE_LIMIT_HEADERS.map((name) => [name, headerOf(answer, name) ?? '0']),
          ['retry-after', '1'],
        ]);
        const error = apiError('rate_limit_exceeded', 'Too many requests.');
        return { status: error.status, headers: { ...headers, 'x-ratelimit-remaining': '0' }, body: error };
      }),
    } satisfies BrokenVariant;
  })(),
  {
    name: 'refused-key-charged',
    breaks: 'charged_once_per_admitted_request',
    does: "a request with a key the service refuses (401) is charged to the free key of its client, as a limiter keyed on the client's address rather than on the key does",
    caughtBy: ['uncharged_requests_cost_nothing'],
    fake: wrapping(async (request, next) => {
      const answer = await next();
      if (answer.status !== 401 || tokenOf(request) === undefined) return answer;
      await next({ headers: { authorization: 'Bearer free-test-key' } });
      return answer;
    }),
  },
];
