import { override } from '../../mocks/handlers/typed-override.js';
import { headerOf, textAnswer, withJson, wrapping, type BrokenVariant } from './variant.js';

/** Variants about the 500 every operation declares (how it looks, that no request may provoke it), and the preflight. */
export const FAILURE_VARIANTS: BrokenVariant[] = [
  {
    name: 'failure-as-html-page',
    breaks: "a 500 is a framework's HTML error page, not the spec's Error (the declared InternalError)",
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
    breaks:
      'GET /pets/{petId} past 2^31 answers the declared 500 (an int32 parser), well formed and with every header: a declared status is still a defect when a valid request provokes it',
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
    breaks:
      'a CORS preflight (OPTIONS with Origin and Access-Control-Request-Method) without a key is refused 401, as a gateway that authenticates every method does: no browser can then call the interface',
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
];
