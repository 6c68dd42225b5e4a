import { override } from '../../mocks/handlers/typed-override.js';
import {
  headerOf,
  textAnswer,
  withHeaders,
  withJson,
  wrapping,
  type BrokenConfiguration,
  type BrokenVariant,
} from './variant.js';

/**
 * A service whose limiter runs before its CORS handling: each preflight counts in the limit it keeps on
 * requests without a valid key, which its next 401s show (one place lower per preflight of the window).
 */
function preflightsCharged(): BrokenConfiguration {
  const preflights = new Map<string, number>();
  return wrapping(async (request, next) => {
    const answer = await next();
    const reset = headerOf(answer, 'x-ratelimit-reset');
    if (request.method === 'OPTIONS' && request.header('access-control-request-method') !== null) {
      const window = [...preflights.keys()].at(-1) ?? '';
      preflights.set(window, (preflights.get(window) ?? 0) + 1);
      return answer;
    }
    const remaining = Number(headerOf(answer, 'x-ratelimit-remaining'));
    if (answer.status !== 401 || reset === null || !Number.isFinite(remaining)) return answer;
    if (![...preflights.keys()].includes(reset)) preflights.set(reset, preflights.get('') ?? 0);
    preflights.delete('');
    const charged = preflights.get(reset) ?? 0;
    return withHeaders(answer, (headers) =>
      headers.set('x-ratelimit-remaining', String(Math.max(0, remaining - charged))),
    );
  });
}

/** Variants about the 500 every operation declares (how it looks, that no request may provoke it), and the preflight. */
export const FAILURE_VARIANTS: BrokenVariant[] = [
  {
    name: 'failure-as-html-page',
    breaks: 'errors_are_error_bodies',
    does: "a 500 is a framework's HTML error page, not the spec's Error (the declared InternalError)",
    caughtBy: ['declared_failure_conforms'],
    fake: wrapping(async (_request, next) => {
      const answer = await next();
      if (answer.status !== 500) return answer;
      const headers = Object.fromEntries(
        Object.entries(answer.headers).filter(([name]) => !/content-type/i.test(name)),
      );
      return textAnswer(500, '<html><body><h1>Internal Server Error</h1></body></html>', 'text/html', headers);
    }),
  },
  {
    name: 'large-ids-fail',
    breaks: 'no_server_error',
    does: 'GET /pets/{petId} past 2^31 answers the declared 500 (an int32 parser), well formed and with every header: a declared status is still a defect when a valid request provokes it',
    caughtBy: ['valid_parameters_accepted'],
    fake: {
      overrides: [
        override.get('/pets/{petId}', async ({ request, next }) => {
          const answer = await next();
          const id = Number(request.path.split('/').pop());
          if (!(id > 2 ** 31) || headerOf(answer, 'x-ratelimit-limit') === null) return answer;
          return withJson(
            answer,
            () => ({ code: 'internal_error', message: 'The service failed to answer.', status: 500 }),
            500,
          );
        }),
      ],
    },
  },

  {
    name: 'preflight-demands-key',
    breaks: 'preflight_needs_no_key',
    does: 'a CORS preflight (OPTIONS with Origin and Access-Control-Request-Method) without a key is refused 401, as a gateway that authenticates every method does: no browser can then call the interface',
    caughtBy: ['every_method_routed'],
    strict: true,
    fake: wrapping(async (request, next) => {
      const answer = await next();
      if (request.method !== 'OPTIONS' || request.header('access-control-request-method') === null) return answer;
      if (request.header('authorization') !== null) return answer;
      return {
        status: 401,
        headers: { ...answer.headers, 'WWW-Authenticate': 'Bearer realm="petstore"' },
        body: { code: 'missing_api_key', message: 'No API key: send Authorization: Bearer <API_KEY>.', status: 401 },
      };
    }),
  },
  {
    name: 'preflights-charged',
    breaks: 'preflight_needs_no_key',
    does: 'each CORS preflight counts in the limit on requests without a valid key (the limiter runs before CORS), as the 401s after it show: a browser app spends that limit on preflights',
    caughtBy: ['uncharged_requests_cost_nothing'],
    strict: true,
    fake: preflightsCharged(),
  },
];
