import { headerOf, type Exchange } from '../core/exchange.js';
import type { ExchangeRule } from './answer-rules.js';
import { httpDateSeconds, isToken, parameterList } from './http-grammar.js';

const received = (what: string, expected: string) => [`Received: ${what} / Expected: ${expected}`];

/**
 * Whether a value is one `media-type` (RFC 9110 §8.3.1): `type "/" subtype *( OWS ";" OWS parameter )`.
 * Not a list: two Content-Type fields arrive joined by a comma, and a client reads neither.
 */
export function isMediaType(value: string): boolean {
  const [essence = '', ...rest] = value.split(';');
  const [type, subtype, ...more] = essence.trim().split('/');
  if (more.length > 0 || !type || !subtype || !isToken(type) || !isToken(subtype)) return false;
  if (rest.length === 0) return true;
  const parameters = parameterList(rest.join(';').replace(/;/g, ','), { valueRequired: true });
  // A comma inside a quoted parameter value is part of it; outside one it makes a list.
  return typeof parameters !== 'string' && parameters.length === rest.filter((part) => part.trim() !== '').length;
}

/** The URL a Location names, resolved against the request (RFC 9110 §10.2.2), or undefined when it is no URI-reference. */
function locationUrl(exchange: Exchange): URL | undefined {
  const value = headerOf(exchange, 'location')!;
  if (/[\s<>"{}|\\^`]/.test(value)) return undefined;
  try {
    return new URL(value, exchange.request.url);
  } catch {
    return undefined;
  }
}

const SAFE_INTEGER = BigInt(Number.MAX_SAFE_INTEGER);

/** Integer literals of a JSON text (outside its strings) that no IEEE 754 double holds exactly. */
function unsafeIntegers(text: string): string[] {
  const numbers = text.replace(/"(?:[^"\\]|\\.)*"/g, '""').match(/-?\d{16,}(?![.\deE])/g) ?? [];
  return numbers.filter((literal) => (literal.startsWith('-') ? -BigInt(literal) : BigInt(literal)) > SAFE_INTEGER);
}

/** Rules on the syntax of fields every answer may carry, and what a field present promises. */
export const FIELD_RULES: ExchangeRule[] = [
  {
    rule: 'json_numbers_interoperable',
    applies: (exchange) => exchange.json !== undefined && /\d{16}/.test(exchange.text),
    breaks: (exchange) => {
      const unsafe = unsafeIntegers(exchange.text);
      return unsafe.length === 0
        ? []
        : received(
            `${unsafe.slice(0, 3).join(', ')} in a JSON answer`,
            `integers within ±${Number.MAX_SAFE_INTEGER}: JavaScript and every client on doubles read ${unsafe[0]} as ${Number(unsafe[0])}`,
          );
    },
  },
  {
    rule: 'content_type_syntax',
    applies: (exchange) => headerOf(exchange, 'content-type') !== undefined,
    breaks: (exchange) => {
      const value = headerOf(exchange, 'content-type')!;
      return isMediaType(value)
        ? []
        : received(`Content-Type: ${value}`, 'one media type, type/subtype with parameters (sent once)');
    },
  },
  {
    rule: 'date_on_answers',
    applies: (exchange) =>
      headerOf(exchange, 'date') !== undefined || (exchange.status >= 200 && exchange.status < 500),
    breaks: (exchange) => {
      const value = headerOf(exchange, 'date');
      if (value === undefined) return received(`a ${exchange.status} without Date`, 'Date: <IMF-fixdate>');
      return httpDateSeconds(value) !== undefined
        ? []
        : received(`Date: ${value}`, 'an IMF-fixdate (Sun, 06 Nov 1994 08:49:37 GMT)');
    },
  },
  {
    rule: 'location_names_this_interface',
    applies: (exchange) => headerOf(exchange, 'location') !== undefined,
    breaks: (exchange) => {
      const value = headerOf(exchange, 'location')!;
      const url = locationUrl(exchange);
      if (!url) return received(`Location: ${value}`, 'a URI-reference');
      const request = new URL(exchange.request.url);
      return url.origin === request.origin
        ? []
        : received(`Location: ${value} in an answer from ${request.origin}`, `a resource of ${request.origin}`);
    },
  },
];
