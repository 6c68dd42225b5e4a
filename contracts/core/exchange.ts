/**
 * How a request authenticates: with the target's key, with nothing, a given token, a raw header value,
 * or the key spelt another way (`spell` gets the key; `header` is the exact field name to send, or
 * `query` the query parameter to carry it in instead of any header; `shown` is the value as reports print
 * it, in shell syntax, when it is derived from the key but is not the key; `invalid` says the spelling is
 * not a valid credential, so it counts against the anonymous bucket).
 */
export type RequestAuth =
  | 'key'
  | 'none'
  | { bearer: string }
  | { authorization: string }
  | {
      /** Spells the Authorization value (or `header`'s, or the `query` parameter's) from the target's key. */
      spell: (key: string) => string;
      header?: string;
      query?: string;
      /** In the body instead: an RFC 6750 §2.2 form (`access_token=`), or an `access_token` member of the JSON body. */
      body?: 'form' | 'json';
      shown?: string;
      invalid?: true;
    };

/** A request a check wants sent; `path` is relative to the base address and may carry a query (`/categories?x=1`). */
export interface ContractRequest {
  method: string;
  path: string;
  auth?: RequestAuth;
  /** Serialised as JSON with `Content-Type: application/json` unless `rawBody` is given. */
  json?: unknown;
  /** Sent exactly: text as UTF-8, bytes as they are (invalid UTF-8, UTF-16, ...). */
  rawBody?: string | Uint8Array;
  /** The Content-Type of a body; `null` sends none. Default `application/json`. */
  contentType?: string | null;
  /** More header fields, names sent exactly as written (`content-TYPE`); they replace defaults of any case; `null` removes one. */
  headers?: Record<string, string | null>;
  /** The check provokes a 429 on purpose: no pacing, no retry. */
  expectsRateLimit?: boolean;
  /** How it goes on the wire when not as every client sends it: on a raw socket, as given. */
  wire?: WireForm;
  /** Entries of the evidence catalogue the request tries beyond what its method, path and JSON show (a hazard written as text, a header around it). */
  tries?: readonly string[];
}

/**
 * The forms of a request line and of its framing HTTP/1.1 lets a client choose (RFC 9112): the protocol
 * version, the target in absolute-form (§3.2.2), the body in chunks (§7.1), with a trailer section
 * (§7.1.2), or with no framing at all.
 */
export interface WireForm {
  version?: '1.0';
  target?: 'absolute';
  chunked?: true;
  /**
   * Fields of a trailer section after the chunks (implies `chunked`): RFC 9110 §6.5.1, a trailer never
   * changes what the header section means, so a field here (a credential, a Content-Type) must not count.
   */
  trailers?: Readonly<Record<string, string>>;
  /** An `Authorization` field in the trailer section, spelt as `auth` spells one in the header section (`'key'`: the target's key). */
  trailerAuth?: RequestAuth;
  /**
   * The body after the header section with neither Content-Length nor chunks, ended by the client closing
   * its side (with `version: '1.0'`): RFC 9112 §6.3 gives such a request no content at all.
   */
  unframed?: true;
}

/** The request exactly as sent, for reports and `curl`. */
export interface SentRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  /** Header values as reports must print them (derived from the key, so never printed as sent). */
  shown?: Record<string, string>;
  wire?: WireForm;
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
  /** The body's bytes as they came, when the sender kept them (the rules judge UTF-8, a BOM, Content-Length). */
  bytes?: Uint8Array;
}

/** A response header's value, whatever the case of its name. */
export function headerOf(exchange: Exchange, name: string): string | undefined {
  return exchange.headers[name.toLowerCase()];
}

/** A request header's value as sent, whatever the case of its name. */
export function requestHeaderOf(exchange: Exchange, name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const field in exchange.request.headers)
    if (field.toLowerCase() === lower) return exchange.request.headers[field];
  return undefined;
}

/** The bearer token a request sent however it is spelt: `''` for none, undefined when the field is there but unreadable. */
export function bearerTokenOf(exchange: Exchange): string | undefined {
  const field = requestHeaderOf(exchange, 'authorization');
  if (field === undefined || field.trim() === '') return '';
  return /^\s*bearer +(\S+)\s*$/i.exec(field)?.[1];
}

/** A body parsed as JSON, or undefined when it is not JSON. */
export function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The media type of the response without parameters, lower-cased (`application/json`). */
export function mediaTypeOf(exchange: Exchange): string | undefined {
  return headerOf(exchange, 'content-type')?.split(';')[0]?.trim().toLowerCase();
}

/** Whether a Content-Type names JSON (`application/json` or a `+json` type), whatever its parameters. */
export function isJsonMediaType(contentType: string | undefined): boolean {
  return /^application\/([\w.+-]*\+)?json\b/i.test((contentType ?? '').trim());
}

/** The `code` of an `Error` body, when the body has one. */
export function errorCodeOf(exchange: Exchange): string | undefined {
  const code = (exchange.json as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}
