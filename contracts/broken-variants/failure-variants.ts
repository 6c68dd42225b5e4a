import { override } from '../../mocks/handlers/typed-override.js';
import { headerOf, textAnswer, withJson, wrapping, type BrokenVariant } from './variant.js';

/** Variants about the 500 every operation declares: how it looks, and that no request may provoke it. */
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
];
