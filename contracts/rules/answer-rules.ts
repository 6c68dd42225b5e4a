import { headerOf, requestHeaderOf, type Exchange } from '../core/exchange.js';
import {
  firstChallenge,
  httpDateSeconds,
  isEntityTag,
  isToken,
  parameterList,
  type Parameter,
} from './http-grammar.js';
import { duplicateMemberNames } from './json-members.js';
import type { RuleName } from './rule-table.js';

/** One rule judged on one exchange: whether it applies, and what the exchange shows against it. */
export interface ExchangeRule {
  rule: RuleName;
  applies(exchange: Exchange): boolean;
  /** `Received: ... / Expected: ...` lines; empty when the exchange keeps the rule. */
  breaks(exchange: Exchange): string[];
}

const received = (what: string, expected: string) => [`Received: ${what} / Expected: ${expected}`];
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const encoder = new TextEncoder();

function contentBytes(exchange: Exchange): Uint8Array {
  return exchange.bytes ?? encoder.encode(exchange.text);
}

const hasContent = (exchange: Exchange) => contentBytes(exchange).length > 0;

/** The media type (lower-cased) and its parameters, or undefined without a Content-Type. */
function mediaType(exchange: Exchange): { type: string; parameters: Parameter[] | string } | undefined {
  const value = headerOf(exchange, 'content-type');
  if (value === undefined) return undefined;
  const [type = '', ...rest] = value.split(';');
  return { type: type.trim().toLowerCase(), parameters: parameterList(rest.join(','), { valueRequired: true }) };
}

const isJsonType = (type: string) => type === 'application/json' || type.endsWith('+json');
const isJsonAnswer = (exchange: Exchange) => {
  const media = mediaType(exchange);
  return media !== undefined && isJsonType(media.type) && hasContent(exchange);
};

const isHead = (exchange: Exchange) => exchange.request.method === 'HEAD';
const cannotHaveContent = (exchange: Exchange) =>
  isHead(exchange) || exchange.status === 204 || exchange.status === 304;

/** Rules on what an answer's content is and how its metadata describes it. */
export const REPRESENTATION_RULES: ExchangeRule[] = [
  {
    rule: 'content_type_on_content',
    applies: (exchange) => hasContent(exchange) && !cannotHaveContent(exchange),
    breaks: (exchange) =>
      headerOf(exchange, 'content-type') === undefined
        ? received(`${contentBytes(exchange).length} bytes of content and no Content-Type`, 'a Content-Type')
        : [],
  },
  {
    rule: 'content_is_its_media_type',
    applies: (exchange) => isJsonAnswer(exchange) && !cannotHaveContent(exchange),
    breaks: (exchange) =>
      exchange.json === undefined && strictUtf8Text(exchange) !== undefined && !startsWithBom(exchange)
        ? received(
            `${headerOf(exchange, 'content-type')} with ${JSON.stringify(exchange.text.slice(0, 80))}`,
            'one JSON text',
          )
        : [],
  },
  {
    rule: 'content_length_matches',
    // A coded body (gzip) is measured before the client decodes it: only an uncoded one can be compared.
    applies: (exchange) =>
      exchange.bytes !== undefined &&
      headerOf(exchange, 'content-length') !== undefined &&
      !cannotHaveContent(exchange) &&
      (headerOf(exchange, 'content-encoding') ?? 'identity').trim().toLowerCase() === 'identity',
    breaks: (exchange) => {
      const declared = headerOf(exchange, 'content-length')!;
      const length = exchange.bytes!.length;
      return /^\d+$/.test(declared) && Number(declared) === length
        ? []
        : received(`Content-Length: ${declared} with ${length} bytes of content`, `Content-Length: ${length}`);
    },
  },
  {
    rule: 'json_is_utf8_without_bom',
    applies: isJsonAnswer,
    breaks: (exchange) => {
      const media = mediaType(exchange)!;
      const charset =
        typeof media.parameters === 'string'
          ? undefined
          : media.parameters.find(({ name }) => name.toLowerCase() === 'charset');
      if (charset && charset.value?.toLowerCase() !== 'utf-8')
        return received(`Content-Type: ${headerOf(exchange, 'content-type')}`, 'UTF-8 (charset=utf-8 or none)');
      if (startsWithBom(exchange)) return received('content starting with a byte order mark (EF BB BF)', 'no BOM');
      if (strictUtf8Text(exchange) === undefined) return received('content that is not valid UTF-8', 'UTF-8');
      return [];
    },
  },
  {
    rule: 'json_media_type_parameters',
    applies: isJsonAnswer,
    breaks: (exchange) => {
      const { parameters } = mediaType(exchange)!;
      if (typeof parameters === 'string') return received(`Content-Type parameters: ${parameters}`, 'none');
      const others = parameters.filter(
        ({ name, value }) => name.toLowerCase() !== 'charset' || value?.toLowerCase() !== 'utf-8',
      );
      return others.length === 0
        ? []
        : received(`Content-Type: ${headerOf(exchange, 'content-type')}`, 'application/json with no parameter');
    },
  },
  {
    rule: 'json_member_names_unique',
    applies: (exchange) => isJsonAnswer(exchange) && exchange.json !== undefined,
    breaks: (exchange) => {
      const repeated = duplicateMemberNames(exchange.text);
      return repeated.length === 0 ? [] : received(`the member ${repeated.join(', ')} more than once`, 'each once');
    },
  },
  {
    rule: 'no_content_where_none_can_be',
    applies: cannotHaveContent,
    breaks: (exchange) =>
      hasContent(exchange)
        ? received(
            `${contentBytes(exchange).length} bytes of content in a ${exchange.status} to ${exchange.request.method}`,
            'no content',
          )
        : [],
  },
];

function strictUtf8Text(exchange: Exchange): string | undefined {
  try {
    return strictUtf8.decode(contentBytes(exchange));
  } catch {
    return undefined;
  }
}

function startsWithBom(exchange: Exchange): boolean {
  const bytes = contentBytes(exchange);
  return bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
}

const BEARER_ERRORS = ['invalid_request', 'invalid_token', 'insufficient_scope'];
/** error and error_description values (RFC 6750 §3): %x20-21 / %x23-5B / %x5D-7E. */
const BEARER_TEXT = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** What is wrong with a 401's challenge, or nothing. */
function challengeBreaks(exchange: Exchange): string[] {
  const value = headerOf(exchange, 'www-authenticate');
  if (value === undefined) return received('a 401 without WWW-Authenticate', 'WWW-Authenticate: Bearer ...');
  const challenge = firstChallenge(value);
  if ('error' in challenge) return received(`WWW-Authenticate: ${value} (${challenge.error})`, 'a challenge');
  if (challenge.scheme.toLowerCase() !== 'bearer')
    return received(`WWW-Authenticate: ${value}`, 'the Bearer scheme the spec declares');
  if (challenge.token68 !== undefined)
    return received(`WWW-Authenticate: ${value}`, 'auth-params (RFC 6750 §3 defines no token68)');
  const seen = new Set<string>();
  for (const { name, value: paramValue } of challenge.params) {
    const lower = name.toLowerCase();
    if (seen.has(lower)) return received(`WWW-Authenticate: ${value}`, `${name} once (RFC 9110 §11.2)`);
    seen.add(lower);
    if (lower === 'error' && !BEARER_ERRORS.includes(paramValue ?? ''))
      return received(`error="${paramValue}"`, `one of ${BEARER_ERRORS.join(', ')}`);
    if ((lower === 'error' || lower === 'error_description') && !BEARER_TEXT.test(paramValue ?? ''))
      return received(`${name}="${paramValue}"`, 'printable ASCII without " or \\');
  }
  return [];
}

/** Rules on the metadata a status or a header promises. */
export const METADATA_RULES: ExchangeRule[] = [
  {
    rule: 'entity_tag_syntax',
    applies: (exchange) => headerOf(exchange, 'etag') !== undefined,
    breaks: (exchange) => {
      const value = headerOf(exchange, 'etag')!;
      return isEntityTag(value) ? [] : received(`ETag: ${value}`, '"opaque-tag" or W/"opaque-tag"');
    },
  },
  {
    rule: 'last_modified_syntax',
    applies: (exchange) => headerOf(exchange, 'last-modified') !== undefined,
    breaks: (exchange) => {
      const value = headerOf(exchange, 'last-modified')!;
      const seconds = httpDateSeconds(value);
      if (seconds === undefined)
        return received(`Last-Modified: ${value}`, 'an IMF-fixdate (Sun, 06 Nov 1994 08:49:37 GMT)');
      const date = httpDateSeconds(headerOf(exchange, 'date') ?? '');
      return date !== undefined && seconds > date
        ? received(`Last-Modified: ${value} after Date: ${headerOf(exchange, 'date')}`, 'no later than Date')
        : [];
    },
  },
  {
    rule: 'allow_lists_the_methods',
    applies: (exchange) => exchange.status === 405 || headerOf(exchange, 'allow') !== undefined,
    breaks: (exchange) => {
      const value = headerOf(exchange, 'allow');
      if (value === undefined) return received('a 405 without Allow', 'Allow listing the methods of the path');
      const methods = value
        .split(',')
        .map((method) => method.trim())
        .filter(Boolean);
      return methods.every(isToken) ? [] : received(`Allow: ${value}`, 'a comma list of method tokens');
    },
  },
  {
    rule: 'bearer_challenge_on_401',
    applies: (exchange) => exchange.status === 401,
    breaks: challengeBreaks,
  },
  {
    rule: 'no_error_code_without_credentials',
    applies: (exchange) => exchange.status === 401 && (requestHeaderOf(exchange, 'authorization') ?? '').trim() === '',
    breaks: (exchange) => {
      const challenge = firstChallenge(headerOf(exchange, 'www-authenticate') ?? '');
      return 'params' in challenge && challenge.params.some(({ name }) => name.toLowerCase() === 'error')
        ? received(
            `WWW-Authenticate: ${headerOf(exchange, 'www-authenticate')} to a request with no credential`,
            'no error attribute',
          )
        : [];
    },
  },
  {
    rule: 'retry_after_syntax',
    applies: (exchange) => headerOf(exchange, 'retry-after') !== undefined,
    breaks: (exchange) => {
      const value = headerOf(exchange, 'retry-after')!;
      return /^\d+$/.test(value) || httpDateSeconds(value) !== undefined
        ? []
        : received(`Retry-After: ${value}`, 'digits (delay-seconds) or an HTTP-date');
    },
  },
  {
    rule: 'vary_names_what_selects',
    applies: (exchange) => {
      const origin = headerOf(exchange, 'access-control-allow-origin');
      return headerOf(exchange, 'vary') !== undefined || (origin !== undefined && origin.trim() !== '*');
    },
    breaks: (exchange) => {
      const vary = headerOf(exchange, 'vary');
      const fields = (vary ?? '')
        .split(',')
        .map((field) => field.trim().toLowerCase())
        .filter(Boolean);
      if (vary !== undefined && !(fields.length === 1 && fields[0] === '*') && !fields.every(isToken))
        return received(`Vary: ${vary}`, '* or a comma list of field names');
      const origin = headerOf(exchange, 'access-control-allow-origin');
      if (origin !== undefined && origin.trim() !== '*' && !fields.includes('origin') && !fields.includes('*'))
        return received(`Access-Control-Allow-Origin: ${origin} with Vary: ${vary ?? '(none)'}`, 'Vary: Origin');
      return [];
    },
  },
];
