import { http } from 'msw';
import { apiError, type ApiError } from '../domain/errors.js';
import type { FakeContext } from './context.js';
import { guarded } from './guarded.js';
import { errorResponse } from './responses.js';
import { underBaseUrl } from './route-pattern.js';

/** Every path of the interface and the methods it answers; the table behind 404 and 405. */
export const ROUTES: ReadonlyArray<{ pattern: RegExp; methods: readonly string[] }> = [
  { pattern: /^\/categories\/?$/i, methods: ['GET', 'POST'] },
  { pattern: /^\/pets\/[^/]+\/?$/i, methods: ['GET'] },
  { pattern: /^\/store\/orders\/?$/i, methods: ['GET'] },
];

/**
 * The answer to a request no operation matched: 405 with `Allow` on a known path, else 404.
 * `path` is relative to `basePath` (`/pets/1`).
 * @example unmatchedRequestError('DELETE', '/v1', '/pets/1') // 405, { Allow: 'GET' }
 */
export function unmatchedRequestError(method: string, basePath: string, path: string): { error: ApiError; headers: Record<string, string> } {
  const route = ROUTES.find(({ pattern }) => pattern.test(path));
  if (!route) return { error: apiError('not_found', `No operation at ${method} ${basePath}${path}.`), headers: {} };
  const allow = route.methods.join(', ');
  return { error: apiError('method_not_allowed', `${method} is not allowed on ${basePath}${path}; use ${allow}.`), headers: { Allow: allow } };
}

/**
 * Answers what no operation matched, under the base URL: 405 with `Allow` on a known path, else 404.
 * Registered last; auth and quota still come first.
 */
export function fallbackHandlers(context: FakeContext) {
  const basePath = new URL(context.baseUrl, 'http://base.invalid').pathname.replace(/\/$/, '');
  const unmatched = guarded(context, ({ request }) => {
    const { error, headers } = unmatchedRequestError(request.method, basePath, new URL(request.url).pathname.slice(basePath.length));
    return errorResponse(error, headers);
  });
  return [http.all(underBaseUrl(context.baseUrl, '(?:/.*)?'), unmatched)];
}
