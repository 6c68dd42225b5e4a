import { apiError, type ApiError } from '../domain/errors.js';
import { errorAnswer, type Answer, type ApiCall } from './api-call.js';
import type { FakeContext } from './context.js';
import { answerWith, guarded, type Resolver } from './guarded.js';
import { normalizedPath } from '../../spec/path-normalization.js';

/** One operation of the interface: where it answers and the resolver that answers. */
export interface Operation {
  operationId: string;
  method: 'GET' | 'POST';
  /**
   * RegExp source of the path below the base URL, without capturing groups (see route-pattern.ts).
   * Matched exactly, after percent-encoded unreserved characters are decoded.
   */
  path: string;
  resolve: Resolver;
}

interface Route {
  pattern: RegExp;
  resolvers: ReadonlyMap<string, Resolver>;
  allow: string;
}

/**
 * Routes a call to its operation by method and path, and answers what no operation matches: 405 with
 * `Allow` on a known path, else 404, after auth and quota like any call. The standalone server calls
 * it directly; the msw handlers call the same resolvers after msw has matched them.
 * @example await router.answer({ method: 'GET', path: '/categories', ... })
 */
export class OperationRouter {
  readonly #routes: Route[] = [];
  readonly #basePath: string;
  readonly #unmatched: Resolver;

  constructor(context: FakeContext, operations: readonly Operation[]) {
    this.#basePath = context.basePath;
    for (const path of new Set(operations.map((operation) => operation.path))) {
      const here = operations.filter((operation) => operation.path === path);
      this.#routes.push({
        pattern: new RegExp(`^${path}$`),
        resolvers: new Map(here.map((operation) => [operation.method, operation.resolve])),
        allow: here.map((operation) => operation.method).join(', '),
      });
    }
    this.#unmatched = guarded(context, (call) => {
      const { error, headers } = this.unmatchedError(call.method, call.path);
      return answerWith(errorAnswer(error, headers));
    });
  }

  /** Answers one call: its operation's resolver, or the guarded 404/405. */
  answer(call: ApiCall): Promise<Answer> {
    const route = this.#routeOf(call.path);
    const resolve = route?.resolvers.get(call.method.toUpperCase()) ?? this.#unmatched;
    return resolve(call);
  }

  #routeOf(path: string): Route | undefined {
    const normalized = normalizedPath(path);
    return this.#routes.find(({ pattern }) => pattern.test(normalized));
  }

  /**
   * The error of a call no operation matches, without the guards (for methods no host can route).
   * @example router.unmatchedError('DELETE', '/pets/1') // 405, { Allow: 'GET' }
   */
  unmatchedError(method: string, path: string): { error: ApiError; headers: Record<string, string> } {
    const where = `${this.#basePath}${path}`;
    const route = this.#routeOf(path);
    if (!route) return { error: apiError('not_found', `No operation at ${method} ${where}.`), headers: {} };
    return {
      error: apiError('method_not_allowed', `${method} is not allowed on ${where}; use ${route.allow}.`),
      headers: { Allow: route.allow },
    };
  }
}
