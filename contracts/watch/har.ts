import { isUtf8 } from 'node:buffer';
import type { Exchange } from '../core/exchange.js';

/** One HAR 1.2 name/value pair. */
export interface HarPair {
  name: string;
  value: string;
}

/** The parts of a HAR 1.2 entry this harness writes and reads (Chromium's exports carry more, ignored). */
export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    cookies: HarPair[];
    headers: HarPair[];
    queryString: HarPair[];
    postData?: { mimeType: string; text: string; _encoding?: 'base64'; comment?: string };
    headersSize: number;
    bodySize: number;
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    cookies: HarPair[];
    headers: HarPair[];
    content: { size: number; mimeType: string; text?: string; encoding?: 'base64'; comment?: string };
    redirectURL: string;
    headersSize: number;
    bodySize: number;
  };
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
}

/** A HAR 1.2 document. */
export interface Har {
  log: { version: string; creator: { name: string; version: string }; pages?: unknown[]; entries: HarEntry[] };
}

/** What a HAR keeps of a credential: nothing but that one was there. */
export const REDACTED = '[redacted]';
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);

function redacted(name: string, value: string): string {
  if (!SECRET_HEADERS.has(name.toLowerCase())) return value;
  // The scheme stays: a replay must know a Bearer key was sent, never which.
  const scheme = /^\s*(\S+)\s+\S/.exec(value)?.[1];
  return scheme && name.toLowerCase().endsWith('authorization') ? `${scheme} ${REDACTED}` : REDACTED;
}

const pairs = (headers: Record<string, string>, keepKeys: boolean): HarPair[] =>
  Object.entries(headers).map(([name, value]) => ({ name, value: keepKeys ? value : redacted(name, value) }));

function bodyText(body: string | Uint8Array): { text: string; base64: boolean } {
  if (typeof body === 'string') return { text: body, base64: false };
  return isUtf8(body)
    ? { text: Buffer.from(body).toString('utf8'), base64: false }
    : { text: Buffer.from(body).toString('base64'), base64: true };
}

const NOT_KEPT = "over the proxy's --max-body-bytes: not kept";

/** Timing and sizes of one proxied exchange, as the proxy measured them. */
export interface ExchangeTiming {
  started: Date;
  durationMs: number;
  requestSize: number;
  responseSize: number;
  httpVersion: string;
}

/** Keeps exchanges and writes them as HAR 1.2, credentials redacted unless asked otherwise. */
export class HarRecorder {
  readonly #entries: Array<{ exchange: Exchange; timing: ExchangeTiming }> = [];

  /** Keeps one exchange with its timing. */
  add(exchange: Exchange, timing: ExchangeTiming): void {
    this.#entries.push({ exchange, timing });
  }

  /** How many exchanges are kept. */
  get size(): number {
    return this.#entries.length;
  }

  /** The HAR document; `keepKeys` writes Authorization (and cookies) as sent. */
  toHar({ keepKeys = false, creatorVersion = '0' } = {}): Har {
    const entries = [...this.#entries]
      .sort((a, b) => a.timing.started.getTime() - b.timing.started.getTime())
      .map(({ exchange, timing }): HarEntry => {
        const url = new URL(exchange.request.url);
        const requestType =
          Object.entries(exchange.request.headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? '';
        const body = exchange.request.body === undefined ? undefined : bodyText(exchange.request.body);
        // The proxy keeps a body only up to its limit: a longer one was forwarded whole but is not here.
        const bodyKept = body === undefined || body.text !== '' || timing.requestSize === 0;
        const complete = exchange.text !== '' || timing.responseSize === 0;
        return {
          startedDateTime: timing.started.toISOString(),
          time: timing.durationMs,
          request: {
            method: exchange.request.method,
            url: exchange.request.url,
            httpVersion: timing.httpVersion,
            cookies: [],
            headers: pairs(exchange.request.headers, keepKeys),
            queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
            ...(body && {
              postData: {
                mimeType: requestType,
                text: body.text,
                ...(body.base64 && { _encoding: 'base64' as const }),
                ...(!bodyKept && { comment: NOT_KEPT }),
              },
            }),
            headersSize: -1,
            bodySize: timing.requestSize,
          },
          response: {
            status: exchange.status,
            statusText: '',
            httpVersion: timing.httpVersion,
            cookies: [],
            headers: pairs(exchange.headers, keepKeys),
            content: {
              size: timing.responseSize,
              mimeType: exchange.headers['content-type'] ?? '',
              ...(complete ? { text: exchange.text } : { comment: NOT_KEPT }),
            },
            redirectURL: '',
            headersSize: -1,
            bodySize: timing.responseSize,
          },
          cache: {},
          timings: { send: 0, wait: timing.durationMs, receive: 0 },
        };
      });
    return {
      log: {
        version: '1.2',
        creator: { name: 'petstore-contract watch', version: creatorVersion },
        pages: [],
        entries,
      },
    };
  }
}

/** One recorded exchange as a replay reads it, from any HAR 1.2 file (this harness's, or a browser's). */
export interface RecordedExchange {
  index: number;
  method: string;
  url: string;
  /** Request headers as recorded (HTTP/2 pseudo-headers dropped). */
  headers: Array<[string, string]>;
  body?: string | Uint8Array;
  /** The request had a body that the file does not hold (over the recorder's limit, or left out by a browser): it cannot be replayed. */
  bodyNotRecorded?: true;
  response: { status: number; headers: Record<string, string>; text: string };
}

/**
 * The entries of a HAR 1.2 file, in the order they started. Throws with the reason when the text is
 * not a HAR (not JSON, no `log.entries`, an entry without a request).
 */
export function readHar(text: string, file: string): RecordedExchange[] {
  let document: unknown;
  try {
    document = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new Error(`${file} is not JSON: ${(error as Error).message}`, { cause: error });
  }
  const entries = (document as Partial<Har> | null)?.log?.entries;
  if (!Array.isArray(entries)) throw new Error(`${file} is not a HAR file: it has no log.entries array`);
  const started = (entry: HarEntry) => Date.parse(entry.startedDateTime ?? '') || 0;
  return entries
    .map((entry, index) => ({ entry: entry as HarEntry, index }))
    .sort((a, b) => started(a.entry) - started(b.entry) || a.index - b.index)
    .map(({ entry, index }) => {
      const { request, response } = entry;
      if (!request || typeof request.method !== 'string' || typeof request.url !== 'string')
        throw new Error(`${file}: entry ${index} has no request method and URL`);
      const post = request.postData;
      const body =
        post?.text === undefined
          ? undefined
          : post._encoding === 'base64'
            ? new Uint8Array(Buffer.from(post.text, 'base64'))
            : post.text;
      const bodyNotRecorded = (request.bodySize ?? 0) > 0 && (body === undefined || body.length === 0);
      const content = response?.content;
      const responseText =
        content?.text === undefined
          ? ''
          : content.encoding === 'base64'
            ? Buffer.from(content.text, 'base64').toString('utf8')
            : content.text;
      return {
        index,
        method: request.method.toUpperCase(),
        url: request.url,
        headers: (request.headers ?? [])
          .filter(({ name }) => !name.startsWith(':'))
          .map(({ name, value }): [string, string] => [name, value]),
        ...(body !== undefined && { body }),
        ...(bodyNotRecorded && { bodyNotRecorded: true as const }),
        response: {
          status: response?.status ?? 0,
          headers: Object.fromEntries((response?.headers ?? []).map(({ name, value }) => [name.toLowerCase(), value])),
          text: responseText,
        },
      };
    });
}
