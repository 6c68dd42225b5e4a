import { apiPath, onSpecPath, tokenOf, withHeaders, withJson, type BrokenVariant, type Intercept } from './variant.js';

const RATE_LIMIT_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Requests in flight together form one group; `answer` sees the group's earlier answers. A service with
 * a read-modify-write race behaves correctly one request at a time and wrongly only under concurrency.
 */
function racing(
  applies: (request: Request) => boolean,
  answer: (
    response: Response,
    group: Response[],
    request: Request,
    next: (request: Request) => Promise<Response>,
  ) => Promise<Response>,
  windowMs = 5,
): Intercept {
  let inFlight = 0;
  let group: Response[] = [];
  return async (request, next) => {
    if (!applies(request)) return next(request);
    if (inFlight === 0) group = [];
    inFlight += 1;
    const mine = group;
    try {
      // The window of the race: long enough for requests sent together to overlap.
      await pause(windowMs);
      const response = await next(request);
      const answered = await answer(response, mine, request, next);
      mine.push(answered.clone());
      return answered;
    } finally {
      inFlight -= 1;
    }
  };
}

/** Variants whose break shows only across exchanges: in the run's model of the spec's promises. */
export const PROMISE_MODEL_VARIANTS: BrokenVariant[] = [
  {
    name: 'create-ids-race',
    breaks: 'creates in flight together are answered with the same id (the id is read, then written)',
    caughtBy: ['concurrent_clients_serialisable'],
    intercept: racing(
      (request) => request.method === 'POST' && apiPath(request) === '/categories',
      async (response, group) => {
        const first = group.find((earlier) => earlier.status === 201);
        if (response.status !== 201 || !first) return response;
        const { id } = (await first.clone().json()) as { id: number };
        return withJson(response, (json) => ({ ...(json as object), id }));
      },
      // Creates are few, so a wider window costs little; requests a client sends together can reach the
      // service several ms apart on a loaded machine, through a proxy even more so.
      25,
    ),
  },
  {
    name: 'quota-lost-update',
    breaks:
      'requests in flight together each read the count before any wrote it: they claim one place, and a burst past the limit is admitted',
    caughtBy: ['concurrent_clients_serialisable'],
    intercept: racing(
      (request) => tokenOf(request) !== undefined && request.method === 'GET',
      async (response, group, request, next) => {
        const first = group.find((earlier) => earlier.status !== 429 && earlier.headers.has('x-ratelimit-remaining'));
        if (!first) return response;
        // Admitted on the stale count: answered as the service would, with the place the first one claimed.
        const admitted =
          response.status === 429
            ? await next(
                new Request(request, {
                  headers: { ...Object.fromEntries(request.headers), authorization: 'Bearer enterprise-test-key' },
                }),
              )
            : response;
        return withHeaders(admitted, (headers) =>
          RATE_LIMIT_HEADERS.forEach((name) => headers.set(name, first.headers.get(name)!)),
        );
      },
    ),
  },
  (() => {
    const lastHeaders = new Map<string, Headers>();
    return {
      name: 'wrong-method-uncharged',
      breaks:
        'a known path with another method is refused (405) before the quota is counted: it costs nothing, and says so',
      caughtBy: ['every_outcome_charged'],
      intercept: async (request, next) => {
        const token = tokenOf(request);
        const known = token === undefined ? undefined : lastHeaders.get(token);
        if (known && onSpecPath(request) && !['GET', 'POST'].includes(request.method)) {
          const allow = apiPath(request) === '/categories' ? 'GET, POST' : 'GET';
          const headers = Object.fromEntries([
            ...RATE_LIMIT_HEADERS.map((name) => [name, known.get(name)!]),
            ['allow', allow],
          ]);
          return Response.json(
            { code: 'method_not_allowed', message: `${request.method} is not allowed; use ${allow}.`, status: 405 },
            { status: 405, headers },
          );
        }
        const response = await next(request);
        if (token !== undefined && response.headers.has('x-ratelimit-remaining') && response.status !== 401)
          lastHeaders.set(token, response.headers);
        return response;
      },
    } satisfies BrokenVariant;
  })(),
  {
    name: 'reset-a-second-early',
    breaks:
      'X-RateLimit-Reset is rounded down: one second before the end of the fixed window (the spec says rounded up)',
    caughtBy: ['rate_limit_reset_in_window'],
    intercept: async (request, next) => {
      const response = await next(request);
      const reset = Number(response.headers.get('x-ratelimit-reset'));
      return response.status === 429 || !reset
        ? response
        : withHeaders(response, (headers) => headers.set('x-ratelimit-reset', String(reset - 1)));
    },
  },
  {
    name: 'orders-declared-deprecated',
    breaks: 'GET /store/orders answers with Deprecation and Sunset, though the spec does not mark it deprecated',
    caughtBy: ['list_orders_conforms'],
    intercept: async (request, next) => {
      const response = await next(request);
      if (apiPath(request) !== '/store/orders') return response;
      return withHeaders(response, (headers) => {
        headers.set('deprecation', '@1782864000');
        headers.set('sunset', 'Thu, 01 Jul 2027 00:00:00 GMT');
      });
    },
  },
  {
    name: 'categories-newest-first',
    breaks:
      'GET /categories lists the newest category first (descending ids), though the spec fixes ascending id order',
    caughtBy: ['list_categories_conforms'],
    intercept: async (request, next) => {
      const response = await next(request);
      if (request.method !== 'GET' || apiPath(request) !== '/categories' || response.status !== 200) return response;
      return withJson(response, (json) => (json as unknown[]).slice().reverse());
    },
  },
  (() => {
    let keyed = 0;
    return {
      name: 'spurious-429',
      breaks:
        'every seventh keyed request is answered 429 rate_limit_exceeded though the headers before it announced requests left',
      caughtBy: ['near_miss_paths_not_found', 'invalid_parameters_rejected'],
      intercept: async (request, next) => {
        const response = await next(request);
        if (
          tokenOf(request) === undefined ||
          response.status === 429 ||
          response.status === 401 ||
          (keyed += 1) % 7 !== 0
        )
          return response;
        const headers = Object.fromEntries([
          ...RATE_LIMIT_HEADERS.map((name) => [name, response.headers.get(name) ?? '0']),
          ['retry-after', '1'],
        ]);
        return Response.json(
          { code: 'rate_limit_exceeded', message: 'Too many requests.', status: 429 },
          { status: 429, headers: { ...headers, 'x-ratelimit-remaining': '0' } },
        );
      },
    } satisfies BrokenVariant;
  })(),
];
