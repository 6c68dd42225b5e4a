import type { components } from '../../spec/openapi.js';

/** The `Error` body every failed call answers with. */
export type ApiError = components['schemas']['Error'];

/**
 * Every error code the fake can send, and its HTTP status: the one catalogue. Every `Error` body the fake
 * writes, in every host, is built here ({@link apiError}, {@link faultError}); no other module holds a code
 * or a status of its own.
 */
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
  // The fake itself failed (a defect): the pipeline's last stage answers it instead of a bare 500.
  internal_error: 500,
  // What a fault rule injects by default for these statuses (docs/explanation/design.md section 5).
  bad_gateway: 502,
  service_unavailable: 503,
  gateway_timeout: 504,
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

// A fault rule without a code gets the catalogue's code for its status; any other status, this one.
const FAULT_DEFAULT_CODES: readonly ErrorCode[] = [
  'internal_error',
  'bad_gateway',
  'service_unavailable',
  'gateway_timeout',
];
const FAULT_CODE_BY_STATUS = new Map<number, string>(FAULT_DEFAULT_CODES.map((code) => [ERROR_STATUS[code], code]));

/** The `code` an injected error carries when its rule names none. */
export const INJECTED_FAULT_CODE = 'injected_fault';

/**
 * The `code` of an injected error when the rule names none: taken from the catalogue by status.
 * @example defaultFaultCode(503) // 'service_unavailable'
 */
export function defaultFaultCode(status: number): string {
  return FAULT_CODE_BY_STATUS.get(status) ?? INJECTED_FAULT_CODE;
}

/**
 * The `Error` a fault rule (or a `Prefer` fault) injects: any status from 400 to 599 the rule chose, the
 * rule's code or the catalogue's for that status, and a message naming the rule.
 * @example faultError('down', 503) // { code: 'service_unavailable', message: 'Injected by ... "down" ...', status: 503 }
 */
export function faultError(ruleId: string, status: number, code?: string, message?: string): ApiError {
  return {
    code: code ?? defaultFaultCode(status),
    message: message ?? `Injected by the fake's fault rule "${ruleId}" (status ${status}).`,
    status,
  };
}
