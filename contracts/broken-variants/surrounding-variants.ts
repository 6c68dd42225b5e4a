import { apiError } from '../../mocks/domain/errors.js';
import type { OverrideRequest } from '../../mocks/handlers/overrides.js';
import { codeOf, headerOf, textAnswer, withHeaders, withJson, wrapping, type BrokenVariant } from './variant.js';

// The fields a service behind no proxy (or a misconfigured one) may read as the client's address.
const ADDRESS_FIELDS = ['x-forwarded-for', 'x-real-ip', 'x-client-ip', 'true-client-ip', 'forwarded'];
const INTERNAL = /(^|[\s,;=])(127\.|10\.|192\.168\.|::1)/;

/** Whether a request says, in a field a client can set, that it comes from the service's own network. */
const claimsInternal = (request: OverrideRequest) =>
  ADDRESS_FIELDS.some((field) => INTERNAL.test(request.header(field) ?? ''));

/** Error codes as a service that localises everything would send them to a French client. */
const FRENCH_CODES: Record<string, string> = {
  missing_api_key: 'cle_api_manquante',
  invalid_api_key: 'cle_api_invalide',
  not_found: 'introuvable',
};

/** Variants in which something the spec never declares, around a request, changes its answer. */
export const SURROUNDING_VARIANTS: BrokenVariant[] = [
  {
    name: 'internal-address-admitted',
    breaks: 'undeclared_elements_change_nothing',
    does: 'a request without a key whose X-Forwarded-For (or X-Real-IP, Forwarded, ...) names a loopback or private address is served, as internal traffic, with the free key',
    caughtBy: ['undeclared_surroundings_ignored'],
    fake: wrapping((request, next) =>
      request.header('authorization') === null && claimsInternal(request)
        ? next({ headers: { authorization: 'Bearer free-test-key' } })
        : next(),
    ),
  },
  {
    name: 'internal-address-uncharged',
    breaks: 'charged_once_per_admitted_request',
    does: 'a keyed request whose X-Forwarded-For (or X-Real-IP, Forwarded, ...) names a loopback or private address is not charged: its X-RateLimit-Remaining is the count before it',
    caughtBy: ['undeclared_surroundings_ignored'],
    fake: wrapping(async (request, next) => {
      const answer = await next();
      const remaining = Number(headerOf(answer, 'x-ratelimit-remaining'));
      if (request.header('authorization') === null || !claimsInternal(request) || answer.status === 429) return answer;
      return withHeaders(answer, (headers) => headers.set('x-ratelimit-remaining', String(remaining + 1)));
    }),
  },
  {
    name: 'original-url-rewrites',
    breaks: 'undeclared_elements_change_nothing',
    does: "X-Original-URL and X-Rewrite-URL replace the request line's path (as IIS rewrite modules do)",
    caughtBy: ['undeclared_surroundings_ignored'],
    fake: wrapping((request, next) => {
      const rewritten = request.header('x-original-url') ?? request.header('x-rewrite-url');
      return rewritten ? next({ path: rewritten }) : next();
    }),
  },
  {
    name: 'codes-follow-accept-language',
    breaks: 'undeclared_elements_change_nothing',
    does: 'the machine-readable Error code is translated for a client whose Accept-Language prefers French',
    caughtBy: ['undeclared_surroundings_ignored'],
    fake: wrapping(async (request, next) => {
      const answer = await next();
      const code = codeOf(answer);
      if (!/^fr/i.test(request.header('accept-language') ?? '') || typeof code !== 'string' || !FRENCH_CODES[code])
        return answer;
      return withJson(answer, (body) => ({ ...(body as object), code: FRENCH_CODES[code] }));
    }),
  },
  {
    name: 'jsonp-callback',
    breaks: 'undeclared_elements_change_nothing',
    does: 'a callback query parameter turns the JSON answer into JavaScript (JSONP): callback(...) as application/javascript',
    caughtBy: ['undeclared_surroundings_ignored'],
    fake: wrapping(async (request, next) => {
      const answer = await next();
      const callback = request.query.get('callback');
      if (!callback || answer.body === undefined) return answer;
      return textAnswer(
        answer.status,
        `${callback}(${JSON.stringify(answer.body)})`,
        'application/javascript',
        answer.headers,
      );
    }),
  },
  {
    name: 'chunked-body-refused',
    breaks: 'required_forms_accepted',
    does: 'a body sent in chunks (no Content-Length) is read as empty and refused with 400, though every HTTP/1.1 recipient must parse chunked framing (RFC 9112 §7.1)',
    caughtBy: ['undeclared_surroundings_ignored'],
    fake: wrapping((request, next) => {
      if (!/chunked/i.test(request.header('transfer-encoding') ?? '')) return next();
      const error = apiError('invalid_request', 'body: a JSON object is required.');
      return Promise.resolve({ status: error.status, headers: {}, body: error });
    }),
  },
];
