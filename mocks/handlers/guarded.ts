import type { ApiKey } from '../domain/plans.js';
import { errorAnswer, type Answer, type ApiCall } from './api-call.js';
import type { FakeContext } from './context.js';
import { rateLimitHeaders } from './responses.js';

/** What a resolver behind the guards receives. */
export interface GuardedArgs {
  call: ApiCall;
  apiKey: ApiKey;
}

/** Options of {@link guarded}. */
export interface GuardOptions {
  /** Headers every response of the operation carries, denials included (e.g. deprecation). */
  headers?: Record<string, string>;
}

/** An operation's entry point: one call in, one answer out. */
export type Resolver = (call: ApiCall) => Promise<Answer>;

/**
 * Runs auth and quota before a resolver, and puts the rate-limit headers on whatever it answers.
 * A denied request never reaches the resolver.
 * @example guarded(context, () => jsonAnswer([]))
 */
export function guarded(
  context: FakeContext,
  resolve: (args: GuardedArgs) => Answer | Promise<Answer>,
  options: GuardOptions = {},
): Resolver {
  return async (call) => {
    await context.ready();
    const access = context.access.check(call.header('authorization'), call.clientAddress);
    const headers = { ...rateLimitHeaders(access.rateLimit, context.clock.now()), ...options.headers };
    if (!access.granted) {
      if (access.challenge) headers['WWW-Authenticate'] = access.challenge;
      if (access.retryAfterSeconds !== undefined) headers['Retry-After'] = String(access.retryAfterSeconds);
      return errorAnswer(access.error, headers);
    }
    const answer = await resolve({ call, apiKey: access.apiKey });
    return { ...answer, headers: { ...answer.headers, ...headers } };
  };
}
