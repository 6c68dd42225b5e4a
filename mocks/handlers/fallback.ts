import { http } from 'msw';
import { apiError } from '../domain/errors.js';
import type { FakeContext } from './context.js';
import { guarded } from './guarded.js';
import { errorResponse } from './responses.js';
import { underBaseUrl } from './route-pattern.js';

/** Every path of the interface and the methods it answers; the table behind 404 and 405. */
export const ROUTES: ReadonlyArray<{ pattern: RegExp; methods: readonly string[] }> = [
  { pattern: /^\/categories\/?$/, methods: ['GET', 'POST'] },
  { pattern: /^\/pets\/[^/]+\/?$/, methods: ['GET'] },
  { pattern: /^\/store\/orders\/?$/, methods: ['GET'] },
];

/**
 * Answers what no operation matched, under the base URL: 405 with `Allow` on a known path, else 404.
 * Registered last; auth and quota still come first.
 */
export function fallbackHandlers(context: FakeContext) {
  const basePath = new URL(context.baseUrl, 'http://base.invalid').pathname.replace(/\/$/, '');
  const unmatched = guarded(context, ({ request }) => {
    const path = new URL(request.url).pathname.slice(basePath.length);
    const route = ROUTES.find(({ pattern }) => pattern.test(path));
    if (!route) return errorResponse(apiError('not_found', `No operation at ${request.method} ${basePath}${path}.`));
    const allow = route.methods.join(', ');
    return errorResponse(apiError('method_not_allowed', `${request.method} is not allowed on ${basePath}${path}; use ${allow}.`), { Allow: allow });
  });
  return [http.all(underBaseUrl(context.baseUrl, '(?:/.*)?'), unmatched)];
}
