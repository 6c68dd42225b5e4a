import { http, HttpResponse, type JsonBodyType, type RequestHandler } from 'msw';
import type { Answer, ApiCall } from './api-call.js';
import { categoryOperations } from './categories.js';
import { clientAddressOf, type FakeContext } from './context.js';
import { setCorsHeaders } from './cors.js';
import type { Operation } from './operation.js';
import { orderOperations } from './orders.js';
import { petOperations } from './pets.js';
import { underBaseUrl } from './route-pattern.js';

/** What the operations read of the fake. */
export type OperationContext = Pick<FakeContext, 'schemas' | 'clock' | 'petsDeprecation'>;

/** Every operation of the interface, in the order of the spec. */
export function createOperations(context: OperationContext): Operation[] {
  return [...categoryOperations(context), ...petOperations(context), ...orderOperations()];
}

/** A fetch `Request` (what msw hands a resolver) as an {@link ApiCall}; the body is read once. */
export function callOfRequest(request: Request, basePath: string): ApiCall {
  const url = new URL(request.url);
  let body: Promise<Uint8Array> | undefined;
  return {
    method: request.method,
    path: url.pathname.slice(basePath.length),
    query: url.search.slice(1),
    header: (name) => request.headers.get(name),
    body: () => (body ??= request.arrayBuffer().then((bytes) => new Uint8Array(bytes))),
    clientAddress: clientAddressOf(request),
  };
}

/** An {@link Answer} as the fetch `Response` msw sends. */
export function responseOf(answer: Answer): Response {
  // A network error: fetch rejects, as when the connection drops (docs/explanation/design.md section 5).
  if (answer.dropped) return HttpResponse.error();
  if (answer.rawBody !== undefined) {
    const headers = new Headers(answer.headers);
    if (!headers.has('content-type')) headers.set('content-type', 'application/json');
    return new HttpResponse(answer.rawBody, { status: answer.status, headers });
  }
  if (answer.body === undefined) return new HttpResponse(null, { status: answer.status, headers: answer.headers });
  return HttpResponse.json(answer.body as JsonBodyType, { status: answer.status, headers: answer.headers });
}

/**
 * The msw request handler of an msw host (`setupServer`, `setupWorker`): one, answering every request
 * under the base URL through the fake's pipeline, as the standalone server does.
 */
export function createHandlers(context: FakeContext, answer: (call: ApiCall) => Promise<Answer>): RequestHandler[] {
  const { basePath } = context;
  // In a page, requests reach msw through its service worker before the browser adds Origin (the Fetch
  // standard appends it at the network step), so every answer there carries CORS: a cross-origin call the
  // worker answers is CORS-filtered, and without Access-Control-Expose-Headers the app reads no X-RateLimit-*.
  const inAPage = typeof document !== 'undefined';
  return [
    http.all(underBaseUrl(context.baseUrl, '(?:/.*)?'), async ({ request }) => {
      const answered = await answer(callOfRequest(request, basePath));
      if (inAPage) setCorsHeaders(answered.headers);
      return responseOf(answered);
    }),
  ];
}
