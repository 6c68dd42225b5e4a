import { createServer, STATUS_CODES, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Express } from 'express';
import { errorBody, type ErrorCode } from './errors.js';
import type { WindowReport } from './rate-limiter.js';

/**
 * Node answers a request that never became a well-formed HTTP request itself, with an empty body
 * and no other header. The spec wants "Every error body is an `Error`" and "Every response carries
 * `X-RateLimit-*`", so those answers are written here instead, with the statuses Node would use:
 * 431 for header overflow, 413 for chunk extensions overflow, 408 for the request timeout, 400 for
 * the rest. Such an answer "counts in no key's window": its X-RateLimit-* are the keyless ones.
 */
function answerFor(error: NodeJS.ErrnoException): { status: number; code: ErrorCode; message: string } {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431,
        code: 'request_header_fields_too_large',
        message: 'The request header fields are too large.',
      };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 413, code: 'payload_too_large', message: 'The chunk extensions are too large.' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, code: 'request_timeout', message: 'The request took too long to arrive.' };
    default:
      return { status: 400, code: 'invalid_request', message: 'The request is not a well-formed HTTP request.' };
  }
}

/**
 * An HTTP server for `app` that answers malformed requests with the spec's `Error`. `uncount`
 * takes back the quota of a request whose response is abandoned that way.
 */
export function createHttpServer(
  app: Express,
  keylessWindow: () => WindowReport,
  uncount: (res: ServerResponse) => void,
): Server {
  // Responses not yet finished, per connection: a parse error in a request body arrives while its
  // response may already be under way, and then the connection can only be closed.
  const open = new WeakMap<Duplex, Set<ServerResponse>>();

  const server = createServer((req, res) => {
    const socket = req.socket;
    let responses = open.get(socket);
    if (responses === undefined) {
      responses = new Set();
      open.set(socket, responses);
    }
    responses.add(res);
    res.on('close', () => responses.delete(res));
    app(req, res);
  });

  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    const pending = [...(open.get(socket) ?? [])];
    const started = pending.some((res) => res.headersSent);
    if (error.code === 'ECONNRESET' || !socket.writable || started) {
      socket.destroy();
      return;
    }
    // A request whose headers were well-formed but whose body broke the framing was already
    // counted when its headers arrived; it never became a well-formed request, so it counts not.
    for (const res of pending) uncount(res);
    const { status, code, message } = answerFor(error);
    const body = JSON.stringify(errorBody(status, code, message));
    const window = keylessWindow();
    const head = [
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`,
      // RFC 9110 §6.6.1: an origin server with a clock MUST send Date in a 4xx response.
      `Date: ${new Date().toUTCString()}`,
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(body)}`,
      `X-RateLimit-Limit: ${window.limit}`,
      `X-RateLimit-Remaining: ${window.remaining}`,
      `X-RateLimit-Reset: ${window.reset}`,
      'X-Content-Type-Options: nosniff',
      'Connection: close',
    ];
    socket.end(`${head.join('\r\n')}\r\n\r\n${body}`, () => socket.destroy());
  });

  return server;
}
