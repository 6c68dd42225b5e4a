import net from 'node:net';
import tls from 'node:tls';
import { parsedJson, type Exchange, type SentRequest } from '../core/exchange.js';

export { needsRawSocket } from '../core/described-bucket.js';

const RAW_TIMEOUT_MS = 15_000;

/**
 * Text of a request line or header field as the bytes that go out: a character up to U+00FF as one byte
 * (latin1: what Node's http and fetch write for a JS string, so `Bearer k\u00a0` ends in the byte 0xA0),
 * one above as its UTF-8 bytes (Node's client refuses those; the raw sender writes them so). The one
 * encoding the senders and the printed `curl` share.
 * @example fieldBytes('Bearer k\u00a0') // <Buffer ... 6b a0>
 */
export function fieldBytes(text: string): Buffer {
  if (!/[\u0100-\uffff]/.test(text)) return Buffer.from(text, 'latin1');
  return Buffer.concat([...text].map((char) => Buffer.from(char, char.codePointAt(0)! > 0xff ? 'utf8' : 'latin1')));
}

/** The connection ended (or timed out) before a whole answer came: what a strict HTTP parser may do to a request it refuses. */
export class NoAnswer extends Error {
  override readonly name = 'NoAnswer';
}

function dechunked(body: Buffer): Buffer | undefined {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = body.indexOf('\r\n', at);
    if (lineEnd < 0) return undefined;
    const size = parseInt(body.subarray(at, lineEnd).toString('latin1').split(';')[0]!, 16);
    if (Number.isNaN(size)) return undefined;
    if (size === 0) return Buffer.concat(parts);
    parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
    if (at > body.length) return undefined;
  }
}

/** A body in two chunks and the last (RFC 9112 §7.1), so a reader must join them. */
function inChunks(body: Buffer): Buffer {
  const half = Math.ceil(body.length / 2);
  const chunks = [body.subarray(0, half), body.subarray(half)].filter((chunk) => chunk.length > 0);
  return Buffer.concat([
    ...chunks.flatMap((chunk) => [Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]),
    Buffer.from('0\r\n\r\n'),
  ]);
}

/** The first answer in `received`, or undefined while it is not whole. */
function parsed(received: Buffer, method: string, closed: boolean) {
  const end = received.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine = '', ...lines] = received.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]);
  if (!status) return undefined;
  // An interim answer (100 Continue to an expectation) comes before the final one (RFC 9110 §15.2).
  if (status < 200 && status !== 101) return parsed(received.subarray(end + 4), method, closed);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    // Only OWS (SP, HTAB: RFC 9110 §5.5): JavaScript's trim() would also take a 0xA0 read as U+00A0.
    const value = line.slice(colon + 1).replace(/^[ \t]+|[ \t]+$/g, '');
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  const rest = received.subarray(end + 4);
  if (method === 'HEAD' || status === 204 || status === 304 || status < 200)
    return { status, headers, body: Buffer.alloc(0) };
  if (headers['transfer-encoding']?.toLowerCase().includes('chunked')) {
    const body = dechunked(rest);
    return body && { status, headers, body };
  }
  if (headers['content-length'] !== undefined) {
    const length = Number(headers['content-length']);
    return rest.length >= length ? { status, headers, body: rest.subarray(0, length) } : undefined;
  }
  return closed ? { status, headers, body: rest } : undefined;
}

/**
 * Sends one request over a fresh connection, byte for byte as given (the method token as written,
 * repeated header fields as separate lines), and reads one answer. `sent.headers` values that hold
 * `\n` are sent as several fields of that name.
 * @example await sendRaw('http://127.0.0.1:4010/v1', { method: 'get', url: 'http://127.0.0.1:4010/v1/categories', headers: {} })
 */
export function sendRaw(sent: SentRequest): Promise<Exchange> {
  const url = new URL(sent.url);
  const { version = '1.1', target, chunked } = sent.wire ?? {};
  const plain = sent.body === undefined ? Buffer.alloc(0) : Buffer.from(sent.body);
  const requestTarget =
    target === 'absolute' ? `${url.origin}${url.pathname}${url.search}` : `${url.pathname}${url.search}`;
  const lines = [`${sent.method} ${requestTarget} HTTP/${version}`, `Host: ${url.host}`];
  for (const [name, value] of Object.entries(sent.headers))
    for (const one of value.split('\n')) lines.push(`${name}: ${one}`);
  if (chunked) lines.push('Transfer-Encoding: chunked');
  else if (plain.length > 0) lines.push(`Content-Length: ${plain.length}`);
  lines.push('Connection: close');
  const head = fieldBytes(`${lines.join('\r\n')}\r\n\r\n`);
  const body = chunked ? inChunks(plain) : plain;
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  return new Promise((resolve, reject) => {
    const socket =
      url.protocol === 'https:'
        ? tls.connect({ host: url.hostname, port, servername: url.hostname })
        : net.connect(port, url.hostname);
    let received = Buffer.alloc(0);
    let done = false;
    const finish = (closed: boolean) => {
      const answer = parsed(received, sent.method, closed);
      if (!answer && !closed) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      if (!answer) {
        reject(new NoAnswer(`the connection closed after ${received.length} bytes and no whole answer`));
        return;
      }
      const text = answer.body.toString('utf8');
      const headers = { ...answer.headers };
      resolve({
        // The URL as it went out (URL's parsing removed dot segments and escaped what it escapes).
        request: { ...sent, url: `${url.origin}${url.pathname}${url.search}`, headers: { ...sent.headers } },
        status: answer.status,
        headers,
        text,
        json: parsedJson(text),
        bytes: new Uint8Array(answer.body),
      });
    };
    const timer = setTimeout(() => {
      if (done) return;
      done = true;
      socket.destroy();
      reject(new NoAnswer(`no answer in ${RAW_TIMEOUT_MS / 1000} s`));
    }, RAW_TIMEOUT_MS);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      finish(false);
    });
    socket.on('error', () => {
      if (!done) finish(true);
    });
    socket.on('close', () => {
      if (!done) finish(true);
    });
    socket.write(Buffer.concat([head, body]));
  });
}
