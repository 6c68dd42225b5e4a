import { apiError, type ApiError } from '../domain/errors.js';
import { errorAnswer, type ApiCall } from './api-call.js';
import type { FakeContext } from './context.js';
import type { OperationId } from './journal.js';
import { answerWith, type Planner } from './operation-plan.js';
import { normalizedPath } from '../../spec/path-normalization.js';

/** One operation of the interface: where it answers and how it plans its answer. */
export interface Operation {
  operationId: OperationId;
  method: 'GET' | 'POST';
  /**
   * RegExp source of the path below the base URL, without capturing groups (see route-pattern.ts).
   * Matched exactly, after percent-encoded unreserved characters are decoded.
   */
  path: string;
  /** The spec's path template (`/pets/{petId}`): what overrides name. */
  specPath: string;
  plan: Planner;
  /** Headers every response of the operation carries, denials included (e.g. deprecation). */
  headers?: Record<string, string>;
}

/** What a call was routed to: an operation, or the 404/405 answer of no operation (guarded all the same). */
export type Target = Pick<Operation, 'plan' | 'headers'> & Partial<Pick<Operation, 'operationId' | 'specPath'>>;

interface Route {
  pattern: RegExp;
  operations: ReadonlyMap<string, Operation>;
  allow: string;
}

/**
 * Routes a call to its operation by method and path, and answers what no operation matches: 405 with
 * `Allow` on a known path, else 404, after auth and quota like any call.
 * @example router.route({ method: 'GET', path: '/categories', ... }).operationId // 'listCategories'
 */
export class OperationRouter {
  readonly #routes: Route[] = [];
  readonly #basePath: string;
  readonly #unmatched: Target;
  readonly #operations: readonly Operation[];

  constructor(context: Pick<FakeContext, 'basePath'>, operations: readonly Operation[]) {
    this.#basePath = context.basePath;
    this.#operations = operations;
    for (const path of new Set(operations.map((operation) => operation.path))) {
      const here = operations.filter((operation) => operation.path === path);
      this.#routes.push({
        pattern: new RegExp(`^${path}$`),
        operations: new Map(here.map((operation) => [operation.method, operation])),
        allow: here.map((operation) => operation.method).join(', '),
      });
    }
    this.#unmatched = {
      plan: (call) => {
        const { error, headers } = this.unmatchedError(call.method, call.path);
        return answerWith(errorAnswer(error, headers));
      },
    };
  }

  /** The operation a call names, or the 404/405 target. */
  route(call: ApiCall): Target {
    const operation = this.#routeOf(call.path)?.operations.get(call.method.toUpperCase());
    return operation ?? this.#unmatched;
  }

  /** Whether the spec has an operation at this method and path template (`GET /pets/{petId}`). */
  has(operation: { method: string; path: string }): boolean {
    return this.#operations.some(({ method, specPath }) => method === operation.method && specPath === operation.path);
  }

  #routeOf(path: string): Route | undefined {
    const normalized = normalizedPath(path);
    return this.#routes.find(({ pattern }) => pattern.test(normalized));
  }

  /**
   * The error of a call no operation matches.
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
