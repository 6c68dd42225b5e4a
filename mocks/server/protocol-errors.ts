import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { apiError, type ApiError } from '../domain/errors.js';

/**
 * The `Error` for a request Node's parser refused or timed out, before it became a request:
 * malformed HTTP, conflicting `Content-Length` / `Transfer-Encoding`, a header block too large, too slow.
 * @example protocolErrorOf(Object.assign(new Error(), { code: 'HPE_HEADER_OVERFLOW' })).status // 431
 */
export function protocolErrorOf(error: NodeJS.ErrnoException & { reason?: string }): ApiError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return apiError(
        'request_header_fields_too_large',
        'The request header block is over 16 KiB or has over 100 fields.',
      );
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return apiError('request_timeout', 'The request was not received in time; the connection is closed.');
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return apiError('payload_too_large', 'The chunk extensions of the request body are too large.');
    default:
      // llhttp's reason is a fixed phrase ("Content-Length can't be present with Transfer-Encoding").
      return apiError(
        'invalid_request',
        `The request is not valid HTTP/1.1: ${error.reason ?? error.code ?? 'malformed'}.`,
      );
  }
}

/**
 * RFC 9112 §3.2: "A server MUST respond with a 400 (Bad Request) status code to ... any request message
 * that contains more than one Host header field line". Node's parser refuses a request without Host
 * itself, and keeps the first of two: the second is seen here, in the raw lines.
 */
export function repeatedHostError(incoming: IncomingMessage): ApiError | undefined {
  const hosts = incoming.rawHeaders.filter((name, index) => index % 2 === 0 && name.toLowerCase() === 'host');
  return hosts.length > 1 ? apiError('invalid_request', 'The request has more than one Host field.') : undefined;
}

/** A complete HTTP/1.1 response carrying an `Error`, written straight to a socket that is then closed. */
export function rawErrorResponse(error: ApiError): string {
  const body = JSON.stringify(error);
  return (
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? ''}\r\n` +
    `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
  );
}

/** Writes `error` as the connection's last answer and closes it once the bytes are out. */
export function closeWithError(socket: Duplex, error: ApiError): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  socket.end(rawErrorResponse(error), () => socket.destroy());
}

/**
 * Answers requests of one server that Node's parser refused (its `clientError` event) with an `Error`
 * body instead of Node's bare status line. Responses already in flight on the connection are not
 * cut off: when every request on it was received whole, the error follows their answers.
 */
export class ProtocolErrorAnswerer {
  readonly #inFlight = new WeakMap<Duplex, Set<ServerResponse>>();
  readonly #answered = new WeakSet<Duplex>();
  // One listener for every response (it finds its set through its request's socket), not a closure and
  // a `once` wrapper per request.
  readonly #forget: (this: ServerResponse) => void;

  constructor() {
    const inFlight = this.#inFlight;
    this.#forget = function (this: ServerResponse) {
      inFlight.get(this.req.socket)?.delete(this);
    };
  }

  /** Records a request whose response is being produced; call it from the request listener. */
  track(incoming: IncomingMessage, res: ServerResponse): void {
    const socket = incoming.socket;
    let pending = this.#inFlight.get(socket);
    if (pending === undefined) {
      pending = new Set();
      this.#inFlight.set(socket, pending);
    }
    pending.add(res);
    res.on('close', this.#forget);
  }

  /** The `clientError` listener. The parser keeps failing on later bytes; only the first error is answered. */
  answer(error: NodeJS.ErrnoException, socket: Duplex): void {
    if (this.#answered.has(socket)) return;
    this.#answered.add(socket);
    socket.pause();
    const apiError = protocolErrorOf(error);
    const pending = [...(this.#inFlight.get(socket) ?? [])].filter((res) => !res.writableFinished);
    if (pending.length === 0) return closeWithError(socket, apiError);
    if (pending.every((res) => res.req.complete)) {
      // Their answers are being computed (a category may already be created): let them out first.
      let left = pending.length;
      for (const res of pending) res.once('close', () => --left === 0 && closeWithError(socket, apiError));
      return;
    }
    // A request is cut off mid-body (timeout, malformed chunk): answer it unless its answer has begun.
    if (pending.some((res) => res.headersSent)) socket.destroy();
    else closeWithError(socket, apiError);
  }
}
