import type { HttpResponseResolver, PathParams } from 'msw';
import type { ApiKey } from '../domain/plans.js';
import { clientAddressOf, type FakeContext } from './context.js';
import { errorResponse, rateLimitHeaders } from './responses.js';

/** What a resolver behind the guards receives. */
export interface GuardedArgs {
  request: Request;
  params: PathParams;
  apiKey: ApiKey;
}

/** Options of {@link guarded}. */
export interface GuardOptions {
  /** Headers every response of the operation carries, denials included (e.g. deprecation). */
  headers?: Record<string, string>;
}

/**
 * Runs auth and quota before a resolver, and puts the rate-limit headers on whatever it answers.
 * A denied request never reaches the resolver.
 * @example http.get(url, guarded(context, ({ apiKey }) => HttpResponse.json([])))
 */
export function guarded(
  context: FakeContext,
  resolve: (args: GuardedArgs) => Response | Promise<Response>,
  options: GuardOptions = {},
): HttpResponseResolver {
  return async ({ request, params }) => {
    await context.ready();
    const access = context.access.check(request.headers.get('authorization'), clientAddressOf(request));
    const headers = { ...rateLimitHeaders(access.rateLimit, context.clock.now()), ...options.headers };
    if (!access.granted) {
      if (access.challenge) headers['WWW-Authenticate'] = access.challenge;
      if (access.retryAfterSeconds !== undefined) headers['Retry-After'] = String(access.retryAfterSeconds);
      return errorResponse(access.error, headers);
    }
    const response = await resolve({ request, params, apiKey: access.apiKey });
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
    return response;
  };
}
