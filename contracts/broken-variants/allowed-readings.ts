import { apiError } from '../../mocks/domain/errors.js';
import { override } from '../../mocks/handlers/typed-override.js';
import { RATE_LIMIT_FIELDS } from '../core/rate-limit-headers.js';
import { holdsRefusableCharacter } from '../generate/unicode.js';
import { isBearerCredential, recoversBearerToken } from '../rules/http-grammar.js';
import { withHeaders, withJson, wrapping, type BrokenConfiguration } from './variant.js';

/**
 * A fake that answers one thing another way the spec and the RFCs allow: the reading a correct service
 * on another stack makes. The suite must pass it (a warning at most): a failure here is the suite
 * holding a service to its own reading, not to the contract.
 */
export interface AllowedReading {
  name: string;
  /** What the service does, and the sentence that lets it. */
  reads: string;
  fake: BrokenConfiguration;
}

/** A few characters the spec's Error allows in place of any wording: a message that names nothing sent. */
const TERSE_MESSAGE = 'The request was refused.';

export const ALLOWED_READINGS: readonly AllowedReading[] = [
  {
    name: 'bearer-token-recovered',
    reads:
      '`Bearer<TAB>key` and `Bearer: key` admitted: the token is the key byte for byte (RFC 9110 §2.4: "a recipient MAY attempt to recover a usable protocol element from an invalid construct")',
    fake: wrapping((request, next) => {
      const authorization = request.header('authorization') ?? '';
      if (isBearerCredential(authorization) || !recoversBearerToken(authorization)) return next();
      const token = authorization.trim().split(/[ \t]+/)[1]!;
      return next({ headers: { Authorization: `Bearer ${token}` } });
    }),
  },
  {
    name: 'malformed-credential-is-no-key',
    reads:
      'an Authorization field that is not `Bearer <key>` answered 401 `missing_api_key` (the spec names `missing_api_key` and `invalid_api_key` for 401 and says not which a malformed field gets)',
    fake: wrapping((request, next) => {
      const authorization = request.header('authorization');
      if (authorization === null || isBearerCredential(authorization)) return next();
      return next({ headers: { Authorization: null } });
    }),
  },
  {
    name: 'refusable-strings-refused',
    reads:
      'a string holding NUL, a lone surrogate or a noncharacter answered 400 `invalid_request` (the spec: "One that holds NUL (`\\u0000`), a lone surrogate (`\\ud800`) or a noncharacter (`\\uffff`) ... may instead be answered `400`")',
    fake: {
      overrides: [
        override.post('/categories', ({ body, response, next }) => {
          const strings = typeof body === 'object' && body !== null ? Object.values(body) : [];
          if (!strings.some((value) => typeof value === 'string' && holdsRefusableCharacter(value))) return next();
          return response(400).json(
            apiError('invalid_request', 'body: a string holds a character this service cannot store.'),
          );
        }),
      ],
    },
  },
  {
    name: 'messages-name-nothing',
    reads: `every error message is "${TERSE_MESSAGE}" (the spec: "Human-readable description naming what is wrong": a wording, which the suite never fails)`,
    fake: wrapping(async (_request, next) => {
      const answer = await next();
      return answer.status < 400
        ? answer
        : withJson(answer, (json) => ({ ...(json as object), message: TERSE_MESSAGE }));
    }),
  },
  {
    name: 'no-limit-without-a-key',
    reads:
      'no limit on requests without a valid key, so a 401 carries no `X-RateLimit-*` (the spec: "A service that keeps no such limit may leave them out of a `401`")',
    fake: wrapping(async (_request, next) => {
      const answer = await next();
      if (answer.status !== 401) return answer;
      return withHeaders(answer, (fields) => {
        for (const name of RATE_LIMIT_FIELDS) fields.delete(name);
      });
    }),
  },
  {
    name: 'percent-encoded-path-unknown',
    reads:
      'a spec path with a percent-encoded letter in a segment the spec writes (`/%63ategories`) is an unknown path, 404 `not_found`: the router compares the path as sent (RFC 3986 §6.2.2.2 makes it the same URI, and the spec lets an unknown path answer 404)',
    fake: wrapping((request, next) =>
      /(^|\/)%[0-9A-F]{2}[A-Za-z]/i.test(request.path) ? next({ path: `/undecoded${request.path}` }) : next(),
    ),
  },
];
