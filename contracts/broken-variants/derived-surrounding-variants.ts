import { apiError } from '../../mocks/domain/errors.js';
import type { Answer } from '../../mocks/handlers/api-call.js';
import type { OverrideRequest } from '../../mocks/handlers/overrides.js';
import { override } from '../../mocks/handlers/typed-override.js';
import { onCreate, withJson, wrapping, type BrokenConfiguration, type BrokenVariant } from './variant.js';

/**
 * A service whose own guard, after auth and quota, refuses with `400 invalid_request` (and the rate-limit
 * headers the request earned: the service's answer, not its HTTP layer's) each request `refuses` names.
 */
function guarded(refuses: (request: OverrideRequest) => string | undefined): BrokenConfiguration {
  return {
    overrides: [
      override.all(({ request, next, headers }) => {
        const why = refuses(request);
        if (why === undefined) return next();
        const error = apiError('invalid_request', why);
        return Promise.resolve({ status: error.status, headers: { ...headers }, body: error } as Answer);
      }),
    ],
  };
}

/**
 * Variants in which an element no list of the suite names changes an answer: each is found only because
 * the surroundings are derived (from the spec's own names, HTTP's registry, RFC 3986's spellings).
 */
export const DERIVED_SURROUNDING_VARIANTS: BrokenVariant[] = [
  {
    name: 'list-filtered-by-member-query',
    breaks: 'undeclared_elements_change_nothing',
    does: "a list operation filters its records by any query parameter named like a member of them (GET /store/orders?petId=1 lists pet 1's orders only), though the spec declares no query parameter and says an undeclared one changes nothing",
    caughtBy: ['undeclared_surroundings_ignored'],
    fake: wrapping(async (request, next) => {
      const answer = await next();
      if (request.method !== 'GET' || !Array.isArray(answer.body) || request.queryString === '') return answer;
      return withJson(answer, (records) =>
        (records as Array<Record<string, unknown>>).filter((record) =>
          [...request.query].every(([name, value]) => !(name in record) || String(record[name]) === value),
        ),
      );
    }),
  },
  {
    name: 'query-overrides-body-member',
    breaks: 'undeclared_elements_change_nothing',
    does: "a create takes a body member from the query string when one is named like it (POST /categories?name=dog stores dog, whatever the body's name), as frameworks that merge every part of a request into one bag of parameters do",
    caughtBy: ['undeclared_surroundings_ignored'],
    fake: onCreate(async (request, next) => {
      const body = (await request.json()) as Record<string, unknown> | undefined;
      const named = [...request.query].filter(([name]) => body !== undefined && name in body);
      if (!body || named.length === 0) return next();
      return next({ body: JSON.stringify({ ...body, ...Object.fromEntries(named) }) });
    }),
  },
  {
    name: 'upgrade-refused',
    breaks: 'undeclared_elements_change_nothing',
    does: 'a request with an Upgrade field (with Connection: Upgrade) is refused with 400, as a guard against h2c smuggling in front of the service does, though RFC 9110 §7.8 lets a server ignore it and the spec says an undeclared field changes nothing',
    caughtBy: ['undeclared_surroundings_ignored'],
    fake: guarded((request) =>
      request.header('upgrade') === null ? undefined : 'Upgrade: protocol switching is not allowed.',
    ),
  },
  {
    name: 'percent-escape-refused',
    breaks: 'undeclared_elements_change_nothing',
    does: 'a path with a percent-encoded unreserved character in a segment the spec writes (/%63ategories) is refused with 400, as a firewall rule against encoded paths does, though RFC 3986 §6.2.2.2 makes it the same path (answered as that path, or as an unknown one)',
    caughtBy: ['undeclared_surroundings_ignored'],
    fake: guarded((request) =>
      /(^|\/)%[0-9A-F]{2}[a-z]/i.test(request.path) ? 'path: percent-encoded characters are not allowed.' : undefined,
    ),
  },
];
