import net from 'node:net';
import tls from 'node:tls';
import { answersIn, type ConnectionAnswer } from './http1-answers.js';
import { rawRequestBytes, type RawRequest } from './request-bytes.js';

export { exchangeOf, type ConnectionAnswer } from './http1-answers.js';

/** How long a connection may take, whatever happens on it: a server that holds it open is judged by what came. */
const CONNECTION_TIMEOUT_MS = 15_000;

/** What a connection showed: the answers in the order they came, and whether the server closed it. */
export interface ConnectionOutcome {
  answers: ConnectionAnswer[];
  /** The server ended the connection (before `idleMs` passed without a byte from it). */
  closedByServer: boolean;
}

/** How requests go on one connection. */
export interface ConnectionOptions {
  /** All written at once (RFC 9112 §9.3.2); otherwise each after the answer to the one before. */
  pipelined?: boolean;
  /** How long nothing may come after the server's last byte before the connection is read as done. */
  idleMs?: number;
  /** End only once the server closes (or `idleMs`, `graceMs`, `timeoutMs` do). */
  awaitClose?: boolean;
  /** The client ends its side once everything is written (a body delimited by the close). */
  halfClose?: boolean;
  /** The bound of the whole connection. */
  timeoutMs?: number;
  /**
   * With `awaitClose`: once every request is answered, how long the close is waited for before what came
   * is read as ended (bytes past the last answer's framing are then content it sent).
   */
  graceMs?: number;
}

/**
 * Sends requests (each as {@link RawRequest}, or its bytes) over one connection and reads every answer that comes. `pipelined`: all written at once
 * (RFC 9112 §9.3.2); otherwise each after the answer to the one before (a connection kept between them,
 * RFC 9112 §9.3), none after the server closed. It ends once every request is answered (`awaitClose`:
 * once the server closes), when nothing more came for `idleMs` after its last byte, or when it closes. `halfClose` ends
 * the client's side once everything is written; `timeoutMs` bounds the whole connection; `graceMs` bounds the
 * wait for a close once everything is answered.
 * @example await sendOnConnection('http://127.0.0.1:4010', [request], { awaitClose: true })
 */
export function sendOnConnection(
  origin: string,
  requests: ReadonlyArray<RawRequest | Buffer>,
  {
    pipelined = false,
    idleMs = 2_000,
    awaitClose = false,
    halfClose = false,
    timeoutMs = CONNECTION_TIMEOUT_MS,
    graceMs,
  }: ConnectionOptions = {},
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
    const finish = (closedByServer: boolean, ended = closedByServer) => {
      if (done) return;
      done = true;
      clearTimeout(idle);
      clearTimeout(timer);
      socket.destroy();
      resolve({ answers: answersIn(received, methods, ended), closedByServer });
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
      else if (answered >= requests.length && graceMs !== undefined) {
        clearTimeout(idle);
        idle = setTimeout(() => finish(false, true), graceMs);
      } else rearm();
    });
    socket.on('error', () => finish(true));
    socket.on('close', () => finish(true));
  });
}
