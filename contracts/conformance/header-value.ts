import type { JsonSchema } from '../core/spec-document.js';

/** A header value turned into what its schema describes, or why it cannot be. */
export type ParsedHeader = { ok: true; value: unknown } | { ok: false; reason: string };

const WHOLE_NUMBER = /^\d+$/;

/**
 * Headers are strings on the wire: an integer header must be plain digits before its schema is applied
 * (`"60"` is 60; `"60.0"`, `" 60"`, `"1e3"` and `"-1"` are not integers).
 * @example parseHeaderValue('59', { type: 'integer' }) // { ok: true, value: 59 }
 */
export function parseHeaderValue(raw: string, schema: JsonSchema): ParsedHeader {
  if (schema.type !== 'integer' && schema.type !== 'number') return { ok: true, value: raw };
  if (!WHOLE_NUMBER.test(raw)) return { ok: false, reason: `"${raw}" is not an integer (digits only)` };
  const value = Number(raw);
  if (!Number.isSafeInteger(value)) return { ok: false, reason: `"${raw}" is too large to be exact` };
  return { ok: true, value };
}
