import net from 'node:net';
import tls from 'node:tls';
import { answersIn, type ConnectionAnswer } from './http1-answers.js';
import { fieldBytes } from './raw-request.js';

export { exchangeOf, type ConnectionAnswer } from './http1-answers.js';

/** How long a connection may take, whatever happens on it: a server that holds it open is judged by what came. */
const CONNECTION_TIMEOUT_MS = 15_000;

/**
 * One request as bytes of HTTP/1.x, written exactly as given: the header fields in order (none added, a
 * `Host` too, so it may be missing or twice), then the body in the framing named: `length` adds
 * `Content-Length`; `chunked` adds `Transfer-Encoding: chunked` and ends with the `trailers` given (RFC
 * 9112 §7.1.2); `none` sends the bytes with no framing at all (RFC 9112 §6.3: a request without either
 * field has no content, so what follows is not its body).
 */
export interface RawRequest {
  method: string;
  /** The request target as written: `/v1/categories` or `http://host/v1/categories`. */
  target: string;
  version?: '1.0' | '1.1';
  headers: ReadonlyArray<readonly [string, string]>;
  body?: {
    bytes: string | Uint8Array;
    framing: 'length' | 'chunked' | 'none';
    trailers?: ReadonlyArray<readonly [string, string]>;
  };
}

/** What a connection showed: the answers in the order they came, and whether the server closed it. */
export interface ConnectionOutcome {
  answers: ConnectionAnswer[];
  /** The server ended the connection (before `idleMs` passed without a byte from it). */
  closedByServer: boolean;
}

/**
 * The bytes of a {@link RawRequest}.
 * @example rawRequestBytes({ method: 'GET', target: '/v1/categories', headers: [['Host', 'h']] })
 */
export function rawRequestBytes(request: RawRequest): Buffer {
  const { body } = request;
  const fields: Array<readonly [string, string]> = [...request.headers];
  const content = body === undefined ? Buffer.alloc(0) : Buffer.from(body.bytes);
  if (body?.framing === 'length') fields.push(['Content-Length', String(content.length)]);
  if (body?.framing === 'chunked') fields.push(['Transfer-Encoding', 'chunked']);
  const head = fieldBytes(
    `${request.method} ${request.target} HTTP/${request.version ?? '1.1'}\r\n${fields.map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n`,
  );
  if (body?.framing !== 'chunked') return Buffer.concat([head, content]);
  const trailers = (body.trailers ?? []).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  const chunk =
    content.length > 0 ? [Buffer.from(`${content.length.toString(16)}\r\n`), content, Buffer.from('\r\n')] : [];
  return Buffer.concat([head, ...chunk, fieldBytes(`0\r\n${trailers}\r\n`)]);
}

/**
 * Sends requests (each as {@link RawRequest}, or its bytes) over one connection and reads every answer that comes. `pipelined`: all written at once
 * (RFC 9112 §9.3.2); otherwise each after the answer to the one before (a connection kept between them,
 * RFC 9112 §9.3), none after the server closed. It ends once every request is answered (`awaitClose`:
 * once the server closes), when nothing more came for `idleMs` after its last byte, or when it closes. `halfClose` ends
 * the client's side once everything is written; `timeoutMs` bounds the whole connection.
 * @example await sendOnConnection('http://127.0.0.1:4010', [request], { awaitClose: true })
 */
export function sendOnConnection(
  origin: string,
  requests: ReadonlyArray<RawRequest | Buffer>,
  { pipelined = false, idleMs = 2_000, awaitClose = false, halfClose = false, timeoutMs = CONNECTION_TIMEOUT_MS } = {},
): Promise<ConnectionOutcome> {
  const url = new URL(origin);
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const methods = requests.map((request) =>
    Buffer.isBuffer(request) ? request.subarray(0, request.indexOf(' ')).toString('latin1') : request.method,
  );
  return new Promise((resolve) => {
    const socket =
      url.protocol === 'https:'
        ? tls.connect({ host: url.hostname, port, servername: url.hostname })
        : net.connect(port, url.hostname);
    let received = Buffer.alloc(0);
    let written = 0;
    let idle: NodeJS.Timeout | undefined;
    let done = false;
    const finish = (closedByServer: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(idle);
      clearTimeout(timer);
      socket.destroy();
      resolve({ answers: answersIn(received, methods, closedByServer), closedByServer });
    };
    const timer = setTimeout(() => finish(false), timeoutMs);
    const write = (count: number) => {
      const next = requests.slice(written, written + count);
      written += next.length;
      socket.write(
        Buffer.concat(next.map((request) => (Buffer.isBuffer(request) ? request : rawRequestBytes(request)))),
      );
      if (halfClose && written === requests.length) socket.end();
    };
    // Idle time counts from the server's last byte: before its first, only the connection's timeout does.
    const rearm = () => {
      clearTimeout(idle);
      idle = setTimeout(() => finish(false), idleMs);
    };
    socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', () => write(pipelined ? requests.length : 1));
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const answered = answersIn(received, methods, false).length;
      if (!pipelined && answered === written && written < requests.length) write(1);
      if (answered >= requests.length && !awaitClose) finish(false);
      else rearm();
    });
    socket.on('error', () => finish(true));
    socket.on('close', () => finish(true));
  });
}

/** Bytes as text inside a shell's single quotes in a printf format: CR, LF and other bytes escaped, `%` doubled. */
function printfText(bytes: Buffer): string {
  let text = '';
  for (const byte of bytes) {
    if (byte === 0x0d) text += '\\r';
    else if (byte === 0x0a) text += '\\n';
    else if (byte === 0x25) text += '%%';
    else if (byte === 0x5c) text += '\\\\';
    else if (byte === 0x27) text += "'\\''";
    else if (byte >= 0x20 && byte < 0x7f) text += String.fromCharCode(byte);
    else text += `\\${byte.toString(8).padStart(3, '0')}`;
  }
  return text;
}

/**
 * The shell command that writes the same bytes on one connection, for a finding `curl` cannot repeat (a
 * trailer section, two Host fields, pipelining, a body without framing). `secret` (the key) is never
 * written: it is printed as `$PETSTORE_API_KEY`. `oneByOne`: each request a second after the one before.
 * @example rawReproduction('http://127.0.0.1:4010', [request]) // (exec 3<>/dev/tcp/127.0.0.1/4010; printf 'GET /v1/categories HTTP/1.1\r\n...' >&3; timeout 5 cat <&3)
 */
export function rawReproduction(
  origin: string,
  requests: ReadonlyArray<RawRequest>,
  { secret, oneByOne = false }: { secret?: string; oneByOne?: boolean } = {},
): string {
  const printf = (bytes: Buffer) => {
    const parts = secret ? bytes.toString('latin1').split(secret) : [bytes.toString('latin1')];
    const format = parts.map((part) => printfText(Buffer.from(part, 'latin1'))).join('%s');
    return `printf '${format}'${parts
      .slice(1)
      .map(() => ' "$PETSTORE_API_KEY"')
      .join('')}`;
  };
  const url = new URL(origin);
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const tls = url.protocol === 'https:';
  // One by one: each after a pause, as a client waits for an answer before the next.
  const writes = (oneByOne ? requests.map((request) => [request]) : [requests])
    .map((group) => `${printf(Buffer.concat(group.map(rawRequestBytes)))}${tls ? '' : ' >&3'}`)
    .join('; sleep 1; ');
  // bash's own /dev/tcp: no nc needed; what comes back is read for 5 s.
  if (!tls) return `(exec 3<>/dev/tcp/${url.hostname}/${port}; ${writes}; timeout 5 cat <&3)`;
  return `(${writes}) | openssl s_client -quiet -connect ${url.hostname}:${port}`;
}
