import { http, HttpResponse, type HttpResponseResolver, type JsonBodyType, type RequestHandler } from 'msw';
import type { Answer, ApiCall } from './api-call.js';
import { categoryOperations } from './categories.js';
import { clientAddressOf, type FakeContext } from './context.js';
import type { Resolver } from './guarded.js';
import { OperationRouter, type Operation } from './operation.js';
import { orderOperations } from './orders.js';
import { petOperations } from './pets.js';
import { underBaseUrl } from './route-pattern.js';

/** Every operation of the interface, in the order of the spec. */
export function createOperations(context: FakeContext): Operation[] {
  return [...categoryOperations(context), ...petOperations(context), ...orderOperations(context)];
}

/** A fetch `Request` (what msw hands a resolver) as an {@link ApiCall}. */
export function callOfRequest(request: Request, basePath: string): ApiCall {
  return {
    method: request.method,
    path: new URL(request.url).pathname.slice(basePath.length),
    header: (name) => request.headers.get(name),
    body: async () => new Uint8Array(await request.arrayBuffer()),
    clientAddress: clientAddressOf(request),
  };
}

/** An {@link Answer} as the fetch `Response` msw sends. */
export function responseOf(answer: Answer): Response {
  // A network error: fetch rejects, as when the connection drops (docs/explanation/design.md section 5).
  if (answer.dropped) return HttpResponse.error();
  if (answer.rawBody !== undefined) {
    return new HttpResponse(answer.rawBody, {
      status: answer.status,
      headers: { 'Content-Type': 'application/json', ...answer.headers },
    });
  }
  return HttpResponse.json(answer.body as JsonBodyType, { status: answer.status, headers: answer.headers });
}

/**
 * The msw request handlers: one per operation, then one answering the rest of the base URL with
 * 404/405 (auth and quota still first). Thin: each calls the operation's resolver.
 */
export function createHandlers(
  context: FakeContext,
  operations: readonly Operation[],
  router: OperationRouter,
): RequestHandler[] {
  const { basePath } = context;
  const viaMsw =
    (resolve: Resolver): HttpResponseResolver =>
    async ({ request }) =>
      responseOf(await resolve(callOfRequest(request, basePath)));
  const forOperation = (operation: Operation) => {
    // An exact spelling only; any other (`/categori%65s`) reaches the router below, which normalises it.
    const path = underBaseUrl(context.baseUrl, operation.path);
    return operation.method === 'GET'
      ? http.get(path, viaMsw(operation.resolve))
      : http.post(path, viaMsw(operation.resolve));
  };
  return [
    ...operations.map(forOperation),
    http.all(
      underBaseUrl(context.baseUrl, '(?:/.*)?'),
      viaMsw((call) => router.answer(call)),
    ),
  ];
}
