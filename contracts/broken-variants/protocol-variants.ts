import type { OverrideRequest } from '../../mocks/handlers/overrides.js';
import { onCreate, onSpecPath, tokenOf, wrapping, type BrokenVariant } from './variant.js';

const KNOWN_KEYS = ['free-test-key', 'pro-test-key', 'business-test-key', 'enterprise-test-key'];
const isCreate = (request: OverrideRequest) => request.method === 'POST' && request.path === '/categories';
const hasValidKey = (request: OverrideRequest) =>
  KNOWN_KEYS.some((key) => request.header('authorization') === `Bearer ${key}`);

const withAuthorization = (authorization: string | null) => ({ headers: { Authorization: authorization } });

/** Variants that break authentication details, protocol equivalences or the order of evaluation. */
export const PROTOCOL_VARIANTS: BrokenVariant[] = [
  {
    name: 'key-prefix-accepted',
    breaks: 'invalid_api_key_rejected',
    does: 'a token that starts with a valid key is accepted (the key is compared with startsWith)',
    caughtBy: ['invalid_api_key_rejected'],
    fake: wrapping((request, next) => {
      const token = tokenOf(request);
      const key =
        token === undefined
          ? undefined
          : KNOWN_KEYS.find((candidate) => token !== candidate && token.startsWith(candidate));
      return next(key ? withAuthorization(`Bearer ${key}`) : undefined);
    }),
  },
  {
    name: 'key-case-folded',
    breaks: 'invalid_api_key_rejected',
    does: 'keys are compared case-insensitively',
    caughtBy: ['invalid_api_key_rejected'],
    fake: wrapping((request, next) => {
      const token = tokenOf(request);
      const key =
        token === undefined
          ? undefined
          : KNOWN_KEYS.find((candidate) => token !== candidate && token.toLowerCase() === candidate);
      return next(key ? withAuthorization(`Bearer ${key}`) : undefined);
    }),
  },
  {
    name: 'auth-scheme-case-sensitive',
    breaks: 'equivalent_reads_answered_alike',
    does: 'only "Bearer" with a capital B is read; "bearer <key>" counts as no key (RFC 9110 §11.1)',
    caughtBy: ['equivalent_reads_answered_alike', 'equivalent_writes_answered_alike'],
    fake: wrapping((request, next) => {
      const authorization = request.header('authorization');
      return next(authorization !== null && !authorization.startsWith('Bearer ') ? withAuthorization(null) : undefined);
    }),
  },
  {
    name: 'charset-parameter-refused',
    breaks: 'earliest_refusal_answered',
    does: 'Content-Type must be exactly "application/json": a charset parameter or other case gets 415',
    caughtBy: ['equivalent_writes_answered_alike'],
    fake: onCreate(async (request, next) => {
      const contentType = request.header('content-type');
      if (contentType === null || contentType === 'application/json') return next();
      return next({ headers: { 'Content-Type': 'text/plain' } });
    }),
  },
  {
    name: 'json-read-by-pattern',
    breaks: 'equivalent_writes_answered_alike',
    does: 'fields are pulled out of the body text with a pattern, so \\u escapes are stored undecoded',
    caughtBy: ['equivalent_writes_answered_alike'],
    fake: onCreate(async (request, next) => {
      const text = await request.text();
      if (!text.includes('\\u')) return next();
      const field = (name: string) => new RegExp(`"${name}"\\s*:\\s*"((?:[^"\\\\]|\\\\.)*)"`).exec(text)?.[1];
      const [name, description] = [field('name'), field('description')];
      const body = { ...(name !== undefined && { name }), ...(description !== undefined && { description }) };
      return next({ body: JSON.stringify(body) });
    }),
  },
  {
    name: 'accept-must-be-exact',
    breaks: 'equivalent_reads_answered_alike',
    does: 'any Accept other than exactly "application/json" (none, */*, a list) gets 406',
    caughtBy: ['equivalent_reads_answered_alike'],
    // 406 is outside the fake's catalogue on purpose: this broken service invents its own error.
    fake: wrapping(async (request, next) =>
      request.header('accept') === 'application/json'
        ? next()
        : {
            status: 406,
            headers: {},
            body: { code: 'not_acceptable', message: 'Accept must be application/json.', status: 406 },
          },
    ),
  },
  {
    name: 'percent-encoded-ids-refused',
    breaks: 'equivalent_reads_answered_alike',
    does: 'a percent-encoded petId (/pets/%31) is refused with 400 instead of read as /pets/1',
    caughtBy: ['equivalent_reads_answered_alike'],
    fake: wrapping((request, next) =>
      next(/^\/pets\/[^/]*%/.test(request.path) ? { path: '/pets/not-decoded' } : undefined),
    ),
  },
  {
    name: 'lenient-path-matching',
    breaks: 'refused_never_admitted',
    does: 'paths are matched like a lenient router: any letter case, a trailing slash, empty segments and encoded slashes reach the operation',
    caughtBy: ['near_miss_paths_not_found'],
    fake: wrapping((request, next) => {
      const lenient = request.path
        .replace(/%2F/gi, '/')
        .replace(/\/{2,}/g, '/')
        .replace(/(.)\/$/, '$1')
        .toLowerCase();
      return next(lenient === request.path ? undefined : { path: lenient });
    }),
  },
  {
    name: 'not-found-before-auth',
    breaks: 'earliest_refusal_answered',
    does: 'an unknown path is answered 404 before the key is checked',
    caughtBy: ['evaluation_order_reads', 'evaluation_order_writes'],
    fake: wrapping((request, next) =>
      next(hasValidKey(request) || onSpecPath(request) ? undefined : withAuthorization('Bearer enterprise-test-key')),
    ),
  },
  {
    name: 'validation-before-auth',
    breaks: 'earliest_refusal_answered',
    does: 'a write body is validated before the key is checked: an invalid body without a key gets 400, not 401',
    caughtBy: ['evaluation_order_writes'],
    fake: wrapping(async (request, next) => {
      if (!isCreate(request) || hasValidKey(request)) return next();
      const validated = await next(withAuthorization('Bearer enterprise-test-key'));
      return [400, 413, 415].includes(validated.status) ? validated : next();
    }),
  },
];
