import { apiError, type ApiError } from './errors.js';

/** The largest request body accepted (docs/explanation/design.md section 3): larger ones get 413. */
export const MAX_BODY_BYTES = 16 * 1024;

export type ParsedBody = { ok: true; value: unknown } | { ok: false; error: ApiError };

const JSON_MEDIA_TYPE = /^application\/json\s*(;.*)?$/i;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** 415 unless the request declares `application/json` (parameters such as charset are fine). */
export function checkJsonContentType(contentType: string | null): ApiError | undefined {
  if (contentType !== null && JSON_MEDIA_TYPE.test(contentType.trim())) return undefined;
  const got = contentType === null ? 'no Content-Type' : JSON.stringify(contentType.slice(0, 100));
  return apiError('unsupported_media_type', `Content-Type must be application/json, got ${got}.`);
}

/** The 413 error of a body over {@link MAX_BODY_BYTES}. */
export function payloadTooLargeError(): ApiError {
  return apiError('payload_too_large', `The request body is over the limit of ${MAX_BODY_BYTES} bytes.`);
}

/**
 * Decodes a request body as strict UTF-8 JSON: over the limit 413, invalid UTF-8 or JSON 400.
 * @example parseJsonBody(new TextEncoder().encode('{"name":"dog"}'))
 */
export function parseJsonBody(bytes: Uint8Array): ParsedBody {
  if (bytes.byteLength > MAX_BODY_BYTES) return { ok: false, error: payloadTooLargeError() };
  if (bytes.byteLength === 0)
    return { ok: false, error: apiError('invalid_request', 'body: a JSON body is required.') };
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { ok: false, error: apiError('invalid_request', 'body: is not valid UTF-8.') };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, error: apiError('invalid_request', `body: is not valid JSON (${(error as Error).message}).`) };
  }
}
