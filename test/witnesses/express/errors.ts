import type { ErrorRequestHandler, RequestHandler, Response } from 'express';

/** The error codes the spec lists in `info.description`. */
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

/** The spec's `Error` schema: `message` is 1 to 1024 characters. */
const MAX_MESSAGE_LENGTH = 1024;

/** Shortens text that came from the client before it is echoed in a message. */
export function excerpt(text: string, max = 100): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max).join('')}…`;
}

export interface ErrorBody {
  code: ErrorCode;
  message: string;
  status: number;
}

export function errorBody(status: number, code: ErrorCode, message: string): ErrorBody {
  return { code, message: excerpt(message, MAX_MESSAGE_LENGTH - 1), status };
}

/** "Every error body is an `Error` whose `status` equals the HTTP status." */
export function sendError(res: Response, status: number, code: ErrorCode, message: string): void {
  res.status(status).json(errorBody(status, code, message));
}

/** "An unknown path answers `404` with an `Error` whose code is `not_found`." */
export const notFound: RequestHandler = (req, res) => {
  sendError(res, 404, 'not_found', `No resource at ${excerpt(req.path)}.`);
};

/**
 * "A known path with a method it does not support answers `405` ... and an `Allow` header listing
 * the supported methods." HEAD is listed wherever GET is: Express answers HEAD with the GET route
 * (RFC 9110 §9.1: all general-purpose servers MUST support GET and HEAD).
 */
export function methodNotAllowed(allowed: readonly string[]): RequestHandler {
  const allow = allowed.join(', ');
  return (req, res) => {
    res.set('Allow', allow);
    sendError(
      res,
      405,
      'method_not_allowed',
      `${req.method} is not supported on ${excerpt(req.originalUrl.split('?')[0] ?? '')}; allowed: ${allow}.`,
    );
  };
}

function statusOf(err: unknown): number | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const { status, statusCode } = err as { status?: unknown; statusCode?: unknown };
  const value = typeof status === 'number' ? status : statusCode;
  return typeof value === 'number' ? value : undefined;
}

/** Client errors (4xx) carry messages meant for the client, as `http-errors` marks them. */
function clientMessage(err: unknown, fallback: string): string {
  return err instanceof Error && err.message ? err.message : fallback;
}

/**
 * The last error handler: errors from Express itself (a path parameter that is not valid
 * percent-encoding) and from the body reader (size, content coding, aborted body) become the
 * spec's `Error` bodies; anything else is a defect and answers 500 `internal_error`.
 * `ensureHeaders` adds the X-RateLimit-* headers if the failure came before the quota check.
 */
export function errorHandler(options: {
  ensureHeaders: (res: Response) => void;
  maxBodyBytes: number;
}): ErrorRequestHandler {
  const { ensureHeaders, maxBodyBytes } = options;
  return (err: unknown, _req, res, next) => {
    if (res.headersSent) {
      // Too late to answer: let Express's final handler close the connection.
      next(err);
      return;
    }
    ensureHeaders(res);
    switch (statusOf(err)) {
      case 400:
        sendError(res, 400, 'invalid_request', clientMessage(err, 'The request is malformed.'));
        return;
      case 413:
        sendError(res, 413, 'payload_too_large', `The request body is over the limit of ${maxBodyBytes} bytes.`);
        return;
      case 415:
        sendError(
          res,
          415,
          'unsupported_media_type',
          clientMessage(err, 'The request body is in an unsupported format.'),
        );
        return;
      default:
        console.error('petstore: request failed', err);
        sendError(res, 500, 'internal_error', 'The service failed to answer; the failure is logged.');
    }
  };
}
