import { specDocument } from '../../spec/spec-artifacts.js';
import { operationModels, pathOf } from '../generate/operation-model.js';
import type { Check } from './check.js';
import { expectErrorBody, expectStatus, expectThat } from './expectations.js';

/**
 * Routes a framework, a platform or a forgotten deploy step leaves reachable beside an API (OWASP
 * API9:2023 improper inventory; API5:2023 functions a customer's key must not reach; API8:2023 a spec or
 * configuration served in production). The spec declares none of them, so each is an unknown path.
 */
const UNDECLARED_ROUTES = [
  'admin',
  '__admin',
  'admin/users',
  'internal',
  'debug',
  'debug/vars',
  'actuator',
  'actuator/env',
  'metrics',
  'env',
  '.env',
  'config',
  'console',
  'graphql',
  'openapi.json',
  'openapi.yaml',
  'swagger.json',
  'api-docs',
  'health',
  'status',
];

/** One route of each family, for a run whose key's quota limits it. */
const PACED_ROUTES = ['admin', 'debug', 'actuator/env', '.env', 'graphql', 'openapi.json', 'health'];

/** Each operation's path in the version before the spec's own (`/v1` -> `/v0`), from the base address; none before v1. */
function earlierVersionPaths(): string[] {
  const server = (specDocument() as { servers?: Array<{ url: string }> }).servers?.[0]?.url ?? '';
  const match = /\/v(\d+)\/?$/.exec(server);
  if (!match || Number(match[1]) === 0) return [];
  const earlier = `v${Number(match[1]) - 1}`;
  // Dot segments: the request leaves the base address for its sibling, as a scanner's does.
  return [...new Set(operationModels().map((model) => pathOf(model)))].map((path) => `/../${earlier}${path}`);
}

/** Nothing but the spec's operations answers under the base address, and an earlier version does not answer at all. */
export const undeclaredRoutesRefused: Check = {
  name: 'undeclared_routes_refused',
  verifies:
    'with the key, routes a framework or a deploy leaves open (admin, debug, actuator, metrics, .env, graphql, openapi.json, swagger, health, ...) answer 404 not_found under the base address, and the previous version (/v0 beside /v1) answers no operation (OWASP API5, API8, API9)',
  needs: [],
  async run({ send, capabilities, patience }) {
    const uniform = capabilities.includes('uniformErrors');
    // Where the key's quota limits the run, one route of each family: evidence, not repetition.
    const routes = patience() === undefined ? UNDECLARED_ROUTES : PACED_ROUTES;
    for (const route of routes) {
      const exchange = await send({ method: 'GET', path: `/${route}` });
      const what = `GET /${route} with the key, a route the spec does not declare`;
      if (uniform) {
        expectStatus(exchange, [404], what);
        expectErrorBody(exchange, 'not_found', what);
      } else
        expectThat(
          exchange.status >= 400,
          `${what} is answered`,
          [`Received: ${exchange.status} / Expected: 404`],
          exchange,
        );
    }
    for (const path of earlierVersionPaths().slice(0, patience() === undefined ? undefined : 1)) {
      const exchange = await send({ method: 'GET', path });
      expectThat(
        exchange.status >= 400,
        `GET ${path}: an earlier version of the interface still answers`,
        [`Received: ${exchange.status} / Expected: 404 (or 410): only the current version is served`],
        exchange,
      );
    }
  },
};
