import type { components } from '../../spec/openapi.js';

/** The `Error` body every failed call answers with. */
export type ApiError = components['schemas']['Error'];

/** Every error code the fake can send, and its HTTP status: the one catalogue. */
export const ERROR_STATUS = {
  invalid_request: 400,
  missing_api_key: 401,
  invalid_api_key: 401,
  not_found: 404,
  method_not_allowed: 405,
  gone: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limit_exceeded: 429,
  temporarily_banned: 429,
  // Protocol-level: the standalone server's answers to a request that never became one (too slow, or
  // its header block too large), sent before any operation is known.
  request_timeout: 408,
  request_header_fields_too_large: 431,
  // The standalone fake on a shared store (docs/explanation/design.md section 6) while Redis is out of reach.
  store_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/**
 * Builds an `Error` body whose `status` is the code's HTTP status.
 * @example apiError('not_found', 'No pet has id 42.') // { code: 'not_found', message, status: 404 }
 */
export function apiError(code: ErrorCode, message: string): ApiError {
  return { code, message, status: ERROR_STATUS[code] };
}
