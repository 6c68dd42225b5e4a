import express, { type RequestHandler } from 'express';
import { excerpt, sendError } from './errors.js';
import type { Store } from './store.js';
import { describeBodyError, newCategoryValidator } from './validation.js';

/** `x-max-body-bytes` of createCategory: "Bodies over 16 KiB are refused with 413." */
export const MAX_BODY_BYTES = 16_384;

export function listCategories(store: Store): RequestHandler {
  return (_req, res) => {
    res.json(store.listCategories());
  };
}

/**
 * Reads the body of createCategory as bytes. express.json() is not used on purpose:
 * - the spec: "A request body is UTF-8 JSON: a body that is not well-formed UTF-8 is not JSON, and
 *   is answered `400`", while express.json() decodes with iconv-lite, which replaces ill-formed
 *   bytes with U+FFFD and accepts the body;
 * - it also honours a `charset` parameter (decoding UTF-16, refusing others with 415), whereas
 *   RFC 8259 §11 says of application/json: "No 'charset' parameter is defined for this
 *   registration. Adding one really has no effect on compliant recipients."
 * express.raw() keeps the rest of Express's body handling: the `type` match on the media type, the
 * size limit (413), and its default `inflate: true` for gzip/deflate/br (another coding is 415).
 * Mounted on this route only, so routing (404/405) comes before any body is looked at.
 */
export const readBody = express.raw({ type: 'application/json', limit: MAX_BODY_BYTES });

const utf8 = new TextDecoder('utf-8', { fatal: true });

export function createCategory(store: Store): RequestHandler {
  const validate = newCategoryValidator();
  return (req, res) => {
    const body: unknown = req.body;
    if (!Buffer.isBuffer(body)) {
      // req.is() is null when the request has no body (type-is's hasBody).
      if (req.is('application/json') === null) {
        sendError(res, 400, 'invalid_request', 'body: a NewCategory JSON object is required');
        return;
      }
      const type = req.get('Content-Type');
      sendError(
        res,
        415,
        'unsupported_media_type',
        `Content-Type must be application/json, got ${type === undefined ? 'none' : excerpt(type)}.`,
      );
      return;
    }

    let text: string;
    try {
      // A leading byte order mark is dropped (RFC 8259 §8.1: parsers "MAY ignore" it).
      text = utf8.decode(body);
    } catch {
      sendError(res, 400, 'invalid_request', 'body: is not well-formed UTF-8, so it is not JSON');
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      const reason = error instanceof Error ? ` (${error.message})` : '';
      sendError(res, 400, 'invalid_request', `body: is not valid JSON${reason}`);
      return;
    }
    if (!validate(value)) {
      sendError(res, 400, 'invalid_request', describeBodyError(validate.errors?.[0]));
      return;
    }
    res.status(201).json(store.addCategory(value));
  };
}
