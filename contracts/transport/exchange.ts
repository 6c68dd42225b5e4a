/** How a request authenticates: with the target's key, with nothing, a given token, or a raw header. */
export type RequestAuth = 'key' | 'none' | { bearer: string } | { authorization: string };

/** A request a check wants sent; `path` is relative to the base address (`/categories`). */
export interface ContractRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  auth?: RequestAuth;
  /** Serialised as JSON with `Content-Type: application/json` unless `rawBody` is given. */
  json?: unknown;
  rawBody?: string;
  contentType?: string;
  /** The check provokes a 429 on purpose: no pacing, no retry. */
  expectsRateLimit?: boolean;
}

/** The request exactly as sent, for reports and `curl`. */
export interface SentRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** One request and the response that came back. */
export interface Exchange {
  request: SentRequest;
  status: number;
  /** Header names lower-cased. */
  headers: Record<string, string>;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
}

/** A response header's value, whatever the case of its name. */
export function headerOf(exchange: Exchange, name: string): string | undefined {
  return exchange.headers[name.toLowerCase()];
}

/** The media type of the response without parameters, lower-cased (`application/json`). */
export function mediaTypeOf(exchange: Exchange): string | undefined {
  return headerOf(exchange, 'content-type')?.split(';')[0]?.trim().toLowerCase();
}
