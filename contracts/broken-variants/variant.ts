import type { FakeServerOptions } from '../../mocks/server/index.js';

/** The fake's request hook: sees every request under /v1 and the fake's answer to it. */
export type Intercept = NonNullable<FakeServerOptions['intercept']>;

/** A fake broken in exactly one rule, and the checks that must catch it. */
export interface BrokenVariant {
  name: string;
  /** The one rule of the spec or of the design (docs/explanation/design.md) the variant breaks. */
  breaks: string;
  /** Checks that must fail on this variant (others may fail too, as a consequence). */
  caughtBy: string[];
  /** The standalone server's hook that breaks the one rule. */
  intercept: Intercept;
}

/** The path under the base address, without `/v1` (`/categories`). */
export function apiPath(request: Request): string {
  return new URL(request.url).pathname.replace(/^\/v1/, '');
}

/** The bearer token the request carries, if any. */
export function tokenOf(request: Request): string | undefined {
  return /^Bearer +(\S+)/i.exec(request.headers.get('authorization') ?? '')?.[1];
}

/** Whether the request is on one of the spec's paths, exactly as written (`/pets/{petId}` any one segment). */
export function onSpecPath(request: Request): boolean {
  return /^\/(categories|store\/orders|pets\/[^/]+)$/.test(apiPath(request));
}

/** A copy of the request with other headers (`null` removes one), another body or another path under /v1 (a Request's own are read-only). */
export async function rebuiltRequest(
  request: Request,
  changes: { headers?: Record<string, string | null>; body?: string; path?: string },
): Promise<Request> {
  const headers = new Headers(request.headers);
  for (const [name, value] of Object.entries(changes.headers ?? {})) {
    if (value === null) headers.delete(name);
    else headers.set(name, value);
  }
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  // Bytes, not text: a body that is not UTF-8 must reach the fake as sent.
  const body =
    changes.body !== undefined
      ? new TextEncoder().encode(changes.body)
      : hasBody
        ? new Uint8Array(await request.arrayBuffer())
        : undefined;
  headers.delete('content-length');
  const url = changes.path === undefined ? request.url : new URL(`/v1${changes.path}`, request.url).href;
  return new Request(url, {
    method: request.method,
    headers,
    ...(body !== undefined && body.byteLength > 0 && { body }),
  });
}

/** A copy of the response with its headers edited (and the body unchanged). */
export async function withHeaders(response: Response, edit: (headers: Headers) => void): Promise<Response> {
  const headers = new Headers(response.headers);
  edit(headers);
  return new Response(await response.arrayBuffer(), { status: response.status, headers });
}

/** A copy of a JSON response with its body rewritten (and optionally its status). */
export async function withJson(
  response: Response,
  edit: (json: unknown) => unknown,
  status = response.status,
): Promise<Response> {
  const text = await response.text();
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  let body = text;
  try {
    body = JSON.stringify(edit(JSON.parse(text)));
  } catch {
    // Not JSON: nothing to rewrite.
  }
  return new Response(body, { status, headers });
}

/** The request's body, parsed as JSON, or undefined. */
export async function jsonOf(request: Request): Promise<unknown> {
  try {
    return JSON.parse(await request.clone().text()) as unknown;
  } catch {
    return undefined;
  }
}
