import type { paths } from '../../spec/openapi.js';
import type { Answer } from './api-call.js';
import type { Override, OverrideContext, OverrideRequest, RequestChanges } from './overrides.js';

// The typed layer over the pipeline's overrides: path, params, body and answer per status typed from
// the spec's generated `paths`, as openapi-msw types msw handlers. Not openapi-msw itself: its handlers
// sit in front of the fake in msw hosts (no auth, no rate-limit headers) and the standalone host runs
// no msw at all; this layer is one stage of the fake's own pipeline in all three hosts.

/** The methods the spec has operations for. */
export type Method = 'get' | 'post';
/** The spec's paths that have an operation for `M`. */
export type PathsWith<M extends Method> = {
  [P in keyof paths]: paths[P] extends { [K in M]: object } ? P : never;
}[keyof paths];
/** The spec's operation at a path and method, as openapi-typescript generated it. */
export type OperationOf<P extends keyof paths, M extends Method> = paths[P] extends { [K in M]: infer O } ? O : never;

/** Path parameters as sent: strings (the fake's own answer decides whether they are valid). */
export type PathParams<O> = O extends { parameters: { path: infer Params } }
  ? { [K in keyof Params]: string }
  : Record<string, never>;
/** The JSON body the operation takes; undefined when none was sent or it is not JSON. */
export type RequestBody<O> = O extends { requestBody: { content: { 'application/json': infer B } } } ? B : never;
/** The responses the spec documents for an operation, by status. */
export type ResponsesOf<O> = O extends { responses: infer R } ? R : never;
/** The `application/json` body of one documented response. */
export type JsonContentOf<R> = R extends { content: { 'application/json': infer C } } ? C : never;
/** The statuses the spec documents for the operation. */
export type DocumentedStatus<O> = keyof ResponsesOf<O> & number;

/** How an override's answer is written. */
export interface AnswerInit {
  /** Headers added to (and winning over) the fake's. */
  headers?: Record<string, string>;
  /** false: leave out the headers the fake would put on this answer (rate-limit, deprecation). Default true. */
  fakeHeaders?: boolean;
}

/** `response(status)`: the answer for one documented status, its body typed by the spec. */
export interface TypedResponse<O, S extends DocumentedStatus<O>> {
  /** The answer with this body, under the headers the fake puts on it (see {@link AnswerInit}). */
  json(body: JsonContentOf<ResponsesOf<O>[S]>, init?: AnswerInit): Answer;
}

/** What a typed override's resolver is given. */
export interface TypedOverrideContext<O> {
  request: OverrideRequest;
  params: PathParams<O>;
  query: URLSearchParams;
  /** The body as sent, parsed (not validated). */
  body: RequestBody<O> | undefined;
  /** The answer for a documented status: `response(200).json(pet)`. */
  response<S extends DocumentedStatus<O>>(status: S): TypedResponse<O, S>;
  /** The fake's own answer (optionally for a changed request); see {@link OverrideContext.next}. */
  next(changes?: RequestChanges): Promise<Answer>;
}

/** Where a typed override runs and how often; see {@link Override}. */
export type OverrideOptions = Pick<Override, 'beforeAuth' | 'times'>;

function paramsOf(template: string, path: string): Record<string, string> {
  const names = template.split('/');
  const values = path.split('/');
  const params: Record<string, string> = {};
  names.forEach((name, i) => {
    const match = /^\{(.+)\}$/.exec(name);
    if (!match || values[i] === undefined) return;
    try {
      params[match[1]!] = decodeURIComponent(values[i]!);
    } catch {
      params[match[1]!] = values[i]!;
    }
  });
  return params;
}

/** An answer with the fake's headers at this stage under the override's own. */
export function answerOf(
  context: Pick<OverrideContext, 'headers'>,
  status: number,
  body: unknown,
  init: AnswerInit = {},
): Answer {
  const headers = init.fakeHeaders === false ? {} : { ...context.headers };
  return { status, headers: { ...headers, ...init.headers }, body };
}

function typed<P extends keyof paths, M extends Method>(
  method: M,
  path: P,
  resolve: (context: TypedOverrideContext<OperationOf<P, M>>) => Answer | Promise<Answer>,
  options: OverrideOptions,
): Override {
  type O = OperationOf<P, M>;
  return {
    ...options,
    operation: { method: method.toUpperCase(), path },
    resolve: async (context) =>
      resolve({
        request: context.request,
        params: paramsOf(path, context.request.path) as PathParams<O>,
        query: context.request.query,
        body: (await context.request.json()) as RequestBody<O> | undefined,
        response: (status) => ({ json: (body, init) => answerOf(context, status, body, init) }),
        next: context.next,
      }),
  };
}

/**
 * Typed per-test overrides: `fake.overrides.use(override.get('/pets/{petId}', ({ params, response }) =>
 * response(200).json({ id: Number(params.petId), name: 'Rex', status: 'sold' })))`.
 */
export const override = {
  /** Answers the spec's `GET` operation at `path` (`'/pets/{petId}'`). */
  get: <P extends PathsWith<'get'>>(
    path: P,
    resolve: (context: TypedOverrideContext<OperationOf<P, 'get'>>) => Answer | Promise<Answer>,
    options: OverrideOptions = {},
  ): Override => typed('get', path, resolve, options),
  /** Answers the spec's `POST` operation at `path` (`'/categories'`). */
  post: <P extends PathsWith<'post'>>(
    path: P,
    resolve: (context: TypedOverrideContext<OperationOf<P, 'post'>>) => Answer | Promise<Answer>,
    options: OverrideOptions = {},
  ): Override => typed('post', path, resolve, options),
  /** Every request under the base URL, unknown paths and methods included; untyped. */
  all: (resolve: Override['resolve'], options: OverrideOptions = {}): Override => ({ ...options, resolve }),
};
