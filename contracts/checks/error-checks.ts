import { operationModels, pathOf } from '../generate/operation-model.js';
import { nearMissesOf } from '../protocol/distinctions.js';
import { headerOf } from '../core/exchange.js';
import { carriesNoRateLimitFields } from '../core/rate-limit-headers.js';
import type { Check } from './check.js';
import { expectErrorBody, expectStatus, expectThat, integerHeader } from './expectations.js';

/** Errors a read-only client can provoke on any target, with the status each must carry. */
const DOCUMENTED_ERRORS = [
  { request: { method: 'GET', path: '/categories', auth: 'none' }, status: 401, what: 'GET /categories without a key' },
  { request: { method: 'GET', path: '/pets/not-a-number' }, status: 400, what: 'GET /pets/not-a-number' },
] as const;

/** Error answers are `Error` bodies: JSON, all three fields, `status` equal to the HTTP status. */
export const errorBodyConformance: Check = {
  name: 'error_body_conformance',
  verifies:
    'error answers are application/json Error bodies with code, message and status, status equal to the HTTP status',
  needs: [],
  async run({ send }) {
    for (const { request, status, what } of DOCUMENTED_ERRORS) {
      const exchange = await send(request);
      expectStatus(exchange, [status], what);
      expectErrorBody(exchange, undefined, what);
    }
  },
};

/** An unknown path answers 404 `not_found` as an Error. */
export const unknownPathNotFound: Check = {
  name: 'unknown_path_not_found',
  verifies: 'an unknown path under the base address answers 404 not_found with an Error body',
  needs: ['uniformErrors'],
  async run({ send }) {
    for (const path of ['/no-such-resource', '/categories/1/no-such-child']) {
      const exchange = await send({ method: 'GET', path });
      expectStatus(exchange, [404], `GET ${path}`);
      expectErrorBody(exchange, 'not_found', `GET ${path}`);
    }
  },
};

/** Every near miss of a spec path (letter case, trailing slash, empty segment, encoded slash, extra segment) is an unknown path. */
export const nearMissPathsNotFound: Check = {
  name: 'near_miss_paths_not_found',
  verifies:
    'a path only names an operation as the spec writes it: each near miss of every spec path (another letter case, a trailing slash, an empty segment, an encoded slash, an extra segment) answers 404 not_found with the rate-limit headers',
  needs: ['uniformErrors'],
  async run({ send }) {
    // GET only: a target that wrongly routed a near miss must not be made to write anything.
    const paths = [...new Set(operationModels().map((model) => pathOf(model)))];
    for (const path of paths) {
      for (const { distinction, path: nearMiss } of nearMissesOf(path)) {
        const exchange = await send({ method: 'GET', path: nearMiss });
        const what = `GET ${nearMiss}, a near miss of ${path} (${distinction.name}: ${distinction.rule}, ${distinction.basis})`;
        expectStatus(exchange, [404], what);
        expectErrorBody(exchange, 'not_found', what);
        integerHeader(exchange, 'X-RateLimit-Remaining', what);
      }
    }
  },
};

/** A known path with another method answers 405 with `Allow` naming the documented methods. */
export const methodNotAllowed: Check = {
  name: 'method_not_allowed',
  verifies: 'a known path with an undocumented method answers 405 method_not_allowed with an Allow header',
  needs: ['uniformErrors'],
  async run({ send }) {
    // PATCH with an empty object: even a service that wrongly implemented it would have nothing to change.
    for (const { path, allowed } of [
      { path: '/categories', allowed: ['GET', 'POST'] },
      { path: '/store/orders', allowed: ['GET'] },
    ]) {
      const exchange = await send({ method: 'PATCH', path, json: {} });
      expectStatus(exchange, [405], `PATCH ${path}`);
      expectErrorBody(exchange, 'method_not_allowed', `PATCH ${path}`);
      const allow = (headerOf(exchange, 'allow') ?? '').split(',').map((method) => method.trim().toUpperCase());
      const missing = allowed.filter((method) => !allow.includes(method));
      expectThat(
        missing.length === 0,
        `Allow header incomplete (PATCH ${path})`,
        [`Received: Allow: ${headerOf(exchange, 'allow') ?? '(none)'} / Expected: ${allowed.join(', ')}`],
        exchange,
      );
    }
  },
};

/** `X-RateLimit-*` on every answer under the base address, errors and unknown paths included (a 401 may carry none). */
export const rateLimitHeadersOnEveryResponse: Check = {
  name: 'rate_limit_headers_on_every_response',
  verifies:
    'X-RateLimit-Limit/Remaining/Reset are integers on every answer: 200, 400, 404 and 405, and on a 401 that carries them (a service that keeps no limit on requests without a key may leave them out)',
  needs: ['uniformErrors'],
  async run({ send }) {
    const requests = [
      { method: 'GET', path: '/categories' },
      { method: 'GET', path: '/categories', auth: 'none' },
      { method: 'GET', path: '/pets/not-a-number' },
      { method: 'GET', path: '/no-such-resource' },
      { method: 'PATCH', path: '/categories', json: {} },
    ] as const;
    for (const request of requests) {
      const exchange = await send(request);
      const what = `${request.method} ${request.path}${'auth' in request ? ' without a key' : ''} -> ${exchange.status}`;
      // The spec: "A service that keeps no such limit may leave them out of a `401`"; present, they are whole.
      if (exchange.status === 401 && carriesNoRateLimitFields(exchange)) continue;
      const limit = integerHeader(exchange, 'X-RateLimit-Limit', what);
      const remaining = integerHeader(exchange, 'X-RateLimit-Remaining', what);
      integerHeader(exchange, 'X-RateLimit-Reset', what);
      expectThat(
        remaining <= limit,
        `X-RateLimit-Remaining above the limit (${what})`,
        [`Received: ${remaining} / Expected: at most ${limit}`],
        exchange,
      );
    }
  },
};
