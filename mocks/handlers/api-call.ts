import type { ApiError } from '../domain/errors.js';

/**
 * One request as an operation sees it, whichever host received it: msw hands a fetch `Request`,
 * the standalone server a Node `IncomingMessage`. Operations read only this, so both hosts run the
 * very same code.
 */
export interface ApiCall {
  /** Upper case, as sent. */
  method: string;
  /** The path below the base URL, percent-encoding kept, no query: `/pets/1`. */
  path: string;
  /** The query string as sent, without `?`; empty when there is none. Operations ignore it (the spec defines none). */
  query: string;
  /** A request header by case-insensitive name; repeated headers joined with `, `, as fetch does. */
  header(name: string): string | null;
  /** The request body as sent; empty when there is none. */
  body(): Promise<Uint8Array>;
  /** The peer's network address; in-page and in-process hosts have one client, `local`. */
  clientAddress: string;
}

/** What an operation answers: always a JSON body, as every response of the interface is. */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
  /** Set by a fault only: send no answer; the connection ends (a network error to the client). */
  dropped?: true;
  /**
   * Send this text as the body instead of `body`'s JSON: a fault's truncated JSON, or an override's text.
   * Its media type is the `Content-Type` in `headers`, else `application/json`.
   */
  rawBody?: string;
}

/** A JSON answer. */
export function jsonAnswer(body: unknown, status = 200, headers: Record<string, string> = {}): Answer {
  return { status, headers, body };
}

/** An `Error` body with its own status. */
export function errorAnswer(error: ApiError, headers: Record<string, string> = {}): Answer {
  return { status: error.status, headers, body: error };
}
