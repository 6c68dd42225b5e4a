import net from 'node:net';
import tls from 'node:tls';
import type { Exchange, SentRequest } from '../core/exchange.js';
import { answersIn, exchangeOf } from './http1-answers.js';

export { needsRawSocket } from '../core/described-bucket.js';

const RAW_TIMEOUT_MS = 15_000;
/** How long a whole answer waits for the close its request asked for, to read what the server sends past its framing. */
const STRAY_GRACE_MS = 150;

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

/** A body in two chunks and the last (RFC 9112 §7.1), so a reader must join them. */
function inChunks(body: Buffer): Buffer {
  const half = Math.ceil(body.length / 2);
  const chunks = [body.subarray(0, half), body.subarray(half)].filter((chunk) => chunk.length > 0);
  return Buffer.concat([
    ...chunks.flatMap((chunk) => [Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]),
    Buffer.from('0\r\n\r\n'),
  ]);
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
    let grace: NodeJS.Timeout | undefined;
    const finish = (closed: boolean) => {
      const [answer] = answersIn(received, [sent.method], closed);
      if (!answer && !closed) return;
      // The request asked for the close: what comes before it, past the answer's framing (content after
      // HEAD, past Content-Length), is content the server sent with it. A server that keeps the
      // connection open is waited for a moment only.
      if (!closed) {
        grace ??= setTimeout(() => !done && finish(true), STRAY_GRACE_MS);
        return;
      }
      done = true;
      clearTimeout(timer);
      clearTimeout(grace);
      socket.destroy();
      if (!answer) {
        reject(new NoAnswer(`the connection closed after ${received.length} bytes and no whole answer`));
        return;
      }
      // The URL as it went out (URL's parsing removed dot segments and escaped what it escapes).
      resolve(
        exchangeOf({ ...sent, url: `${url.origin}${url.pathname}${url.search}`, headers: { ...sent.headers } }, answer),
      );
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
