import { headerOf, type Exchange } from './exchange.js';
import type { JsonSchema } from './spec-document.js';

/** What is wrong with an answer's headers, schemathesis-style: a title and `Received: ... / Expected: ...` lines. */
export interface HeaderProblem {
  title: string;
  lines: string[];
}

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

/** An integer header's value, or the problem with it: missing, or not plain digits. */
export type IntegerHeaderVerdict = { ok: true; value: number } | { ok: false; problem: HeaderProblem };

/**
 * Reads an integer header of an answer. `context` says what the request was about, for the problem's title.
 * @example integerHeaderVerdict(exchange, 'Retry-After', 'the 429') // { ok: true, value: 30 }
 */
export function integerHeaderVerdict(exchange: Exchange, name: string, context?: string): IntegerHeaderVerdict {
  const about = context ? ` (${context})` : '';
  const raw = headerOf(exchange, name);
  if (raw === undefined) {
    return {
      ok: false,
      problem: {
        title: `Missing header ${name}${about}`,
        lines: [`Received headers: ${Object.keys(exchange.headers).join(', ')}`],
      },
    };
  }
  const parsed = parseHeaderValue(raw, { type: 'integer' });
  if (!parsed.ok) return { ok: false, problem: { title: `Invalid header ${name}${about}`, lines: [parsed.reason] } };
  return { ok: true, value: parsed.value as number };
}

/**
 * An integer header's value; undefined when it is missing or not plain digits.
 * @example integerHeaderOf(exchange, 'Retry-After') // 30
 */
export function integerHeaderOf(exchange: Exchange, name: string): number | undefined {
  const verdict = integerHeaderVerdict(exchange, name);
  return verdict.ok ? verdict.value : undefined;
}
