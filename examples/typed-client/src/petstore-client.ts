// The app's client: every path, parameter, body and answer typed from the spec through the package's
// generated `paths`; nothing written by hand can drift from the interface.
import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from 'petstore-harness/types';

/** A client of the Pet Store API that sends `apiKey` as a bearer token on every call. */
export function petStoreClient(baseUrl: string, apiKey: string) {
  // `fetch` looked up on every call, not once: msw's setupServer replaces globalThis.fetch when it starts
  // listening, which may be after the client is made (openapi-fetch keeps the fetch it was given).
  const client = createClient<paths>({ baseUrl, fetch: (request) => globalThis.fetch(request) });
  const bearer: Middleware = {
    onRequest({ request }) {
      request.headers.set('Authorization', `Bearer ${apiKey}`);
      return request;
    },
  };
  client.use(bearer);
  return client;
}
