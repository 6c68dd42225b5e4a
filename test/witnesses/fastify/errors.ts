import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type {
  ConnectionError,
  FastifyError,
  FastifyReply,
  FastifyRequest,
  FastifySchemaValidationError,
} from 'fastify';
import { rateLimitHeaders, type RateWindow } from './rate-limiter.js';

export type ErrorCode =
  | 'missing_api_key'
  | 'invalid_api_key'
  | 'invalid_request'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'not_found'
  | 'method_not_allowed'
  | 'gone'
  | 'rate_limit_exceeded'
  | 'temporarily_banned'
  | 'internal_error'
  | 'request_timeout'
  | 'request_header_fields_too_large';

/** The spec's `Error` schema. */
export interface ErrorBody {
  readonly code: ErrorCode;
  readonly message: string;
  readonly status: number;
}

const MAX_MESSAGE_CHARS = 1024;

/** Builds an `Error`; messages are cut to the schema's 1,024 characters (code points, as JSON Schema counts). */
export function errorBody(status: number, code: ErrorCode, message: string): ErrorBody {
  const chars = Array.from(message);
  const text = chars.length <= MAX_MESSAGE_CHARS ? message : `${chars.slice(0, MAX_MESSAGE_CHARS - 1).join('')}…`;
  return { code, message: text, status };
}

/**
 * Spec: "No answer carries the API key its request sent: not in its body, its header fields or its
 * message." Messages may quote the request (its path, a property name, its Content-Type), so the
 * Authorization credentials, whatever their scheme, are cut out of them. The stand-in uses
 * characters above U+00FF, which no header value (read as Latin-1) can contain.
 */
export function withoutCredentials(message: string, authorization: string | undefined): string {
  const value = (authorization ?? '').trim();
  const space = value.indexOf(' ');
  const credentials = space === -1 ? '' : value.slice(space).trim();
  let text = message;
  for (const secret of [value, credentials]) {
    if (secret !== '') text = text.split(secret).join('‹…›');
  }
  return text;
}

export function sendError(reply: FastifyReply, status: number, code: ErrorCode, message: string): FastifyReply {
  const text = withoutCredentials(message, reply.request.headers.authorization);
  return reply.code(status).send(errorBody(status, code, text));
}

/** The request target's path, for messages (query left out, length bounded). */
export function targetPath(request: FastifyRequest): string {
  const path = request.url.split('?', 1)[0] ?? '';
  return path.length > 200 ? `${path.slice(0, 200)}…` : path;
}

export function sendNotFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return sendError(reply, 404, 'not_found', `There is no resource at ${targetPath(request)}.`);
}

/** Names the offending field, e.g. `body: name is required` (the spec's example). */
export function validationMessage(context: string, errors: readonly FastifySchemaValidationError[]): string {
  const first = errors[0];
  if (first === undefined) return `${context}: is invalid`;
  const path = first.instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'));
  const field = (name: unknown): string => [...path, String(name)].join('.');
  const params = first.params as Record<string, unknown>;
  switch (first.keyword) {
    case 'required':
      return `${context}: ${field(params.missingProperty)} is required`;
    case 'additionalProperties':
      return `${context}: ${field(JSON.stringify(params.additionalProperty))} is not an allowed property`;
    default:
      return `${context}: ${path.length > 0 ? `${path.join('.')} ` : ''}${first.message ?? 'is invalid'}`;
  }
}

/** Raised by the JSON body parser for bytes that are not well-formed UTF-8. */
export class InvalidUtf8Error extends Error {
  readonly statusCode = 400;
  readonly code = 'ERR_BODY_NOT_UTF8';
  constructor() {
    super('body: the request body is not well-formed UTF-8, so it is not JSON');
  }
}

function contentTypeOf(request: FastifyRequest): string {
  const value = request.headers['content-type'];
  if (value === undefined || value === '') return 'none';
  return value.length > 100 ? `${value.slice(0, 100)}…` : value;
}

function describe(error: FastifyError, request: FastifyRequest): [number, ErrorCode, string] {
  if (error.validation !== undefined) {
    return [400, 'invalid_request', validationMessage(error.validationContext ?? 'request', error.validation)];
  }
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return [
        413,
        'payload_too_large',
        `The request body is over the limit of ${request.routeOptions.bodyLimit} bytes.`,
      ];
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return [415, 'unsupported_media_type', `Content-Type must be application/json, got ${contentTypeOf(request)}.`];
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return [400, 'invalid_request', 'body: the request body is empty; send a JSON object'];
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return [400, 'invalid_request', 'body: the request body could not be parsed as JSON'];
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return [400, 'invalid_request', 'The request body does not match its Content-Length.'];
    default:
      break;
  }
  // Other framework 400s (e.g. an aborted body): a fixed message, so no internals are shown.
  if (error.statusCode === 400) return [400, 'invalid_request', 'The request is not valid.'];
  return [500, 'internal_error', 'The service failed to answer; the failure is logged.'];
}

/** Every error answer is an `Error` whose `status` equals the HTTP status. */
export function handleError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const [status, code, message] = describe(error, request);
  if (status >= 500) request.log.error({ err: error }, 'request failed');
  return sendError(reply, status, code, message);
}

/**
 * Replaces Fastify's default clientErrorHandler, whose bodies are `{error, message, statusCode}`.
 * Spec: "Every error body is an `Error` whose `status` equals the HTTP status" and "A request
 * that never becomes a well-formed HTTP request can also be answered, before any operation, with
 * `request_timeout` (408) or `request_header_fields_too_large` (431)"; and "Every response carries
 * `X-RateLimit-*`": here, the client address's window, read without counting. Otherwise it does what
 * Fastify's default does: write the answer on the socket, then destroy it.
 */
export function createClientErrorHandler(peekAddress: (address: string) => RateWindow) {
  return function clientErrorHandler(error: ConnectionError, socket: Socket): void {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    let status = 400;
    let code: ErrorCode = 'invalid_request';
    let message = 'The request is not a well-formed HTTP request.';
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      [status, code, message] = [408, 'request_timeout', 'The request was not received in time.'];
    } else if (error.code === 'HPE_HEADER_OVERFLOW') {
      [status, code, message] = [431, 'request_header_fields_too_large', 'The request header section is too large.'];
    }
    if (socket.writable) {
      const body = JSON.stringify(errorBody(status, code, message));
      const headers = {
        // RFC 9110 §6.6.1: "An origin server with a clock ... MUST generate a Date header field in all
        // ... 4xx (Client Error) responses" (this answer is written by hand, so Node adds none).
        Date: new Date().toUTCString(),
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Length': String(Buffer.byteLength(body)),
        Connection: 'close',
        ...rateLimitHeaders(peekAddress(socket.remoteAddress ?? '')),
      };
      const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
      socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n${head.join('')}\r\n${body}`);
    }
    socket.destroy(error);
  };
}
