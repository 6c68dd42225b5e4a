import { documentedSpec } from '../core/spec-document.js';
import { headerOf, requestHeaderOf, type Exchange } from '../core/exchange.js';
import type { ExchangeRule } from './answer-rules.js';
import { parameterList } from './http-grammar.js';

const received = (what: string, expected: string) => [`Received: ${what} / Expected: ${expected}`];

const listOf = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((item) => item.trim().toLowerCase())
    .filter(Boolean);

let declaredHeaders: string[] | undefined;
/** Every response header the spec declares, lower-cased: what a browser client must be let read. */
function specResponseHeaders(): string[] {
  declaredHeaders ??= [
    ...new Set(
      Object.values(documentedSpec().operations).flatMap((operation) =>
        Object.values(operation.responses).flatMap((response) =>
          response.headers.map(({ name }) => name.toLowerCase()),
        ),
      ),
    ),
  ];
  return declaredHeaders;
}

const isPreflight = (exchange: Exchange) =>
  exchange.request.method === 'OPTIONS' && requestHeaderOf(exchange, 'access-control-request-method') !== undefined;
const grants = (exchange: Exchange) =>
  headerOf(exchange, 'access-control-allow-origin') !== undefined && exchange.status >= 200 && exchange.status < 300;
const withCredentials = (exchange: Exchange) =>
  headerOf(exchange, 'access-control-allow-credentials')?.trim().toLowerCase() === 'true';

/** Whether the answer lets a shared cache keep it (explicit freshness; no no-store, private or no-cache). */
function sharedStorable(exchange: Exchange): boolean {
  const value = headerOf(exchange, 'cache-control');
  const params = value === undefined ? [] : parameterList(value, { valueRequired: false });
  if (typeof params === 'string') return false; // cache_control_syntax reports it
  const directives = new Map(params.map(({ name, value: argument }) => [name.toLowerCase(), argument]));
  if (['no-store', 'private', 'no-cache'].some((name) => directives.has(name))) return false;
  const fresh = ['s-maxage', 'max-age'].some((name) => directives.has(name) && directives.get(name) !== '0');
  return fresh || directives.has('public') || headerOf(exchange, 'expires') !== undefined;
}

/** Rules on what a browser client and a cache between it and the service rely on. */
export const CORS_AND_CACHE_RULES: ExchangeRule[] = [
  {
    rule: 'storable_answers_vary_by_credential',
    // Answers to keyed requests are keyed_answers_not_shared's: a shared cache keeps them only when told to.
    applies: (exchange) => (requestHeaderOf(exchange, 'authorization') ?? '').trim() === '' && sharedStorable(exchange),
    breaks: (exchange) => {
      const vary = listOf(headerOf(exchange, 'vary'));
      return vary.includes('authorization') || vary.includes('*')
        ? []
        : received(
            `a ${exchange.status} with Cache-Control: ${headerOf(exchange, 'cache-control') ?? '(none)'}${headerOf(exchange, 'expires') ? `, Expires` : ''} and Vary: ${headerOf(exchange, 'vary') ?? '(none)'}`,
            'Vary: Authorization (or an answer no shared cache stores): a cache would hand it to requests with a key',
          );
    },
  },
  {
    rule: 'cors_lets_the_key_through',
    applies: (exchange) => isPreflight(exchange) && grants(exchange),
    breaks: (exchange) => {
      const asked = listOf(requestHeaderOf(exchange, 'access-control-request-headers'));
      const allowed = listOf(headerOf(exchange, 'access-control-allow-headers'));
      // `*` never covers Authorization (Fetch standard), and covers nothing when credentials are allowed.
      const star = allowed.includes('*') && !withCredentials(exchange);
      const refused = asked.filter((name) => !allowed.includes(name) && (name === 'authorization' || !star));
      if (refused.length > 0)
        return received(
          `Access-Control-Allow-Headers: ${headerOf(exchange, 'access-control-allow-headers') ?? '(none)'} to a preflight asking for ${asked.join(', ')}`,
          `${refused.join(', ')} by name (* never covers Authorization)`,
        );
      const method = requestHeaderOf(exchange, 'access-control-request-method')!;
      const methods = headerOf(exchange, 'access-control-allow-methods');
      const simple = ['GET', 'HEAD', 'POST'].includes(method);
      const listed = (methods ?? '').split(',').map((item) => item.trim());
      return simple || listed.includes(method) || (listed.includes('*') && !withCredentials(exchange))
        ? []
        : received(`Access-Control-Allow-Methods: ${methods ?? '(none)'} to a preflight for ${method}`, method);
    },
  },
  {
    rule: 'cors_exposes_the_spec_headers',
    applies: (exchange) =>
      !isPreflight(exchange) &&
      requestHeaderOf(exchange, 'origin') !== undefined &&
      headerOf(exchange, 'access-control-allow-origin') !== undefined,
    breaks: (exchange) => {
      const exposed = listOf(headerOf(exchange, 'access-control-expose-headers'));
      if (exposed.includes('*') && !withCredentials(exchange)) return [];
      const hidden = specResponseHeaders().filter(
        (name) => headerOf(exchange, name) !== undefined && !exposed.includes(name),
      );
      return hidden.length === 0
        ? []
        : received(
            `Access-Control-Expose-Headers: ${headerOf(exchange, 'access-control-expose-headers') ?? '(none)'} on an answer carrying ${hidden.join(', ')}`,
            'every header the spec declares exposed, or a browser client cannot read them',
          );
    },
  },
];
