// A raw TCP client for attacks fetch cannot express: malformed framing, conflicting headers, partial
// bodies, silence. Loopback only; every connection is bounded in time and always destroyed.
import net from 'node:net';

/** One HTTP/1.1 response parsed from the bytes a connection received. */
export interface RawResponse {
  status: number;
  /** Header names lower-cased. */
  headers: Record<string, string>;
  text: string;
  json: unknown;
}

/** What one connection saw: the responses, whether the server closed it, and the raw bytes. */
export interface RawExchange {
  responses: RawResponse[];
  closedByServer: boolean;
  raw: string;
}

/** How a raw connection behaves after writing its payload. */
export interface RawOptions {
  /** Resolve once this many responses arrived (default: wait for the server to close). */
  responses?: number;
  /** Give up after this long and destroy the socket (default 15 s). */
  timeoutMs?: number;
}

/**
 * Opens a connection to `url` (http://127.0.0.1:port), writes each part of `payload` and collects what comes back.
 * @example await rawExchange(server.url, 'GET /v1/categories HTTP/1.1\r\nHost: x\r\n\r\n', { responses: 1 })
 */
export function rawExchange(
  url: string,
  payload: string | Buffer | Array<string | Buffer>,
  options: RawOptions = {},
): Promise<RawExchange> {
  const { port, hostname } = new URL(url);
  const { responses: wanted, timeoutMs = 15_000 } = options;
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    const received: Buffer[] = [];
    let settled = false;
    const settle = (closedByServer: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const raw = Buffer.concat(received).toString('latin1');
      resolve({ responses: parseResponses(Buffer.concat(received)), closedByServer, raw });
    };
    const timer = setTimeout(() => settle(false), timeoutMs);
    socket.on('data', (chunk) => {
      received.push(chunk);
      if (wanted !== undefined && parseResponses(Buffer.concat(received)).length >= wanted) settle(false);
    });
    // A reset after the server's answer still counts as the server closing the connection.
    socket.on('error', () => settle(true));
    socket.on('end', () => settle(true));
    socket.on('close', () => settle(true));
    for (const part of Array.isArray(payload) ? payload : [payload]) socket.write(part);
  });
}

/** Parses as many complete responses (Content-Length or chunked) as `bytes` holds. */
export function parseResponses(bytes: Buffer): RawResponse[] {
  const responses: RawResponse[] = [];
  let offset = 0;
  for (let guard = 0; guard < 100; guard++) {
    const headEnd = bytes.indexOf('\r\n\r\n', offset);
    if (headEnd === -1) break;
    const [statusLine = '', ...lines] = bytes.subarray(offset, headEnd).toString('latin1').split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const body = readBody(bytes, headEnd + 4, headers);
    if (!body) break;
    const text = body.bytes.toString('utf8');
    responses.push({ status: Number(statusLine.split(' ')[1]), headers, text, json: parseJson(text) });
    offset = body.end;
  }
  return responses;
}

function readBody(
  bytes: Buffer,
  start: number,
  headers: Record<string, string>,
): { bytes: Buffer; end: number } | undefined {
  if (headers['transfer-encoding']?.includes('chunked')) {
    const parts: Buffer[] = [];
    let at = start;
    for (let guard = 0; guard < 10_000; guard++) {
      const lineEnd = bytes.indexOf('\r\n', at);
      if (lineEnd === -1) return undefined;
      const size = parseInt(bytes.subarray(at, lineEnd).toString('latin1'), 16);
      if (size === 0)
        return bytes.length >= lineEnd + 4 ? { bytes: Buffer.concat(parts), end: lineEnd + 4 } : undefined;
      if (bytes.length < lineEnd + 2 + size + 2) return undefined;
      parts.push(bytes.subarray(lineEnd + 2, lineEnd + 2 + size));
      at = lineEnd + 2 + size + 2;
    }
    return undefined;
  }
  const length = Number(headers['content-length'] ?? 0);
  return bytes.length >= start + length
    ? { bytes: bytes.subarray(start, start + length), end: start + length }
    : undefined;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A fetch `Response` made from a raw one, for `conforming()`. */
export function asResponse(response: RawResponse): Response {
  const headers = new Headers(Object.entries(response.headers).filter(([name]) => name !== 'transfer-encoding'));
  return new Response(response.text, { status: response.status, headers });
}

/** A request head; `headers` are written as given, one per line, so duplicates and odd values pass through. */
export function requestHead(method: string, target: string, headers: string[]): string {
  return `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers.map((line) => `${line}\r\n`).join('')}\r\n`;
}
