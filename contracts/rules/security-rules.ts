import { headerOf, requestHeaderOf, type Exchange } from '../core/exchange.js';
import type { ExchangeRule } from './answer-rules.js';
import { isBearerCredential, parameterList, recoversBearerToken } from './http-grammar.js';

const received = (what: string, expected: string) => [`Received: ${what} / Expected: ${expected}`];

/** Pieces of a credential short enough to occur by chance are not looked for: only runs of 10 or more. */
const LEAST_SECRET_LENGTH = 10;

/**
 * What the request sent as a credential, in every carrier a client (or an attacker) might use: the
 * Authorization value after its scheme, an X-API-Key, cookie values, query values whose name says key
 * or token. Split on what no token holds, so a quoted or listed credential is found too.
 */
function sentSecrets(exchange: Exchange): string[] {
  const carried: string[] = [];
  const authorization = requestHeaderOf(exchange, 'authorization');
  if (authorization) carried.push(authorization.trim().replace(/^\S+\s+/, ''));
  const apiKey = requestHeaderOf(exchange, 'x-api-key');
  if (apiKey) carried.push(apiKey);
  const cookie = requestHeaderOf(exchange, 'cookie');
  if (cookie) carried.push(...cookie.split(';').map((pair) => pair.split('=').slice(1).join('=')));
  try {
    for (const [name, value] of new URL(exchange.request.url).searchParams)
      if (/key|token|auth/i.test(name)) carried.push(value);
  } catch {
    // A URL that does not parse carries nothing we can read.
  }
  return [...new Set(carried.flatMap((value) => value.split(/[\s,;"'=]+/)))].filter(
    (piece) => piece.length >= LEAST_SECRET_LENGTH,
  );
}

/** What a stack trace, a server's file path or an exception dump looks like in the major runtimes. */
const INTERNALS: Array<[RegExp, string]> = [
  [/\bat (?:async )?[\w.$<>[\] ]+ \((?:file:\/\/)?\/?[^()\s]+:\d+:\d+\)/, 'a JavaScript stack frame'],
  [/\bat (?:file:\/\/)?\/[^\s()]+\.[cm]?[jt]s:\d+:\d+/, 'a JavaScript stack frame'],
  [/Traceback \(most recent call last\)|File "[^"]+", line \d+/, 'a Python traceback'],
  [/\bat [\w.$]+\([\w]+\.(?:java|kt|scala):\d+\)|Exception in thread "/, 'a JVM stack trace'],
  [/goroutine \d+ \[|panic: .+\n/, 'a Go panic'],
  [/ in \/[\w/.-]+\.php(?: on line \d+|:\d+)/, 'a PHP error'],
  [
    /(?:^|[\s"'(=:])(?:\/(?:home|usr|var|opt|srv|root|tmp|etc|app|workspace)\/[\w.-]+\/|[A-Za-z]:\\[\w.-]+\\)/,
    'a file path of the server',
  ],
  [/\bnode_modules\/|\bsite-packages\/|\.gradle\/|WEB-INF\//, 'a file path of the server'],
  [/\bSQLSTATE\[|\bORA-\d{5}\b|syntax error at or near "|SqliteError|ER_[A-Z_]+:/, 'a database error'],
];

/** A version number in a header naming the server or framework (`nginx/1.25.3`, `Express 4.19`, `PHP/8.2`). */
const VERSIONED = /\d+\.\d+/;
const SERVER_HEADERS = ['server', 'x-powered-by', 'x-aspnet-version', 'x-aspnetmvc-version', 'x-runtime-version'];
/** A server or framework named with its version in an error body: what a default error page gives away. */
const VERSION_IN_BODY =
  /\b(?:nginx|Apache|Express|Jetty|Tomcat|Kestrel|gunicorn|uvicorn|Werkzeug|PHP|Node\.js|openresty|Spring Boot|Django|Rails|ASP\.NET|IIS)[/ ]v?\d+\.\d+/i;

/** The directives of the answer's Cache-Control, lower-cased, or why they cannot be read. */
function cacheDirectives(exchange: Exchange): Map<string, string | undefined> | string | undefined {
  const value = headerOf(exchange, 'cache-control');
  if (value === undefined) return undefined;
  const params = parameterList(value, { valueRequired: false });
  if (typeof params === 'string') return params;
  return new Map(params.map(({ name, value: argument }) => [name.toLowerCase(), argument]));
}

/** An origin no service trusts: the one the security checks send, so a reflection of it is a reflection of any. */
export const UNTRUSTED_ORIGIN = 'https://attacker.example';
/**
 * Origins no service may grant credentials to: {@link UNTRUSTED_ORIGIN}, and `null`, which a sandboxed
 * iframe, a `data:` page or a redirect sends, so any site can make a browser send it (Fetch standard).
 */
export const UNTRUSTED_ORIGINS = [UNTRUSTED_ORIGIN, 'null'];

const credentialed = (exchange: Exchange) => (requestHeaderOf(exchange, 'authorization') ?? '').trim() !== '';

/** A credential outside `Bearer 1*SP b64token` admitted (key shortened, so a report never shows it). */
const admittedCredential = (expected: string) => (exchange: Exchange) =>
  exchange.status < 400
    ? received(
        `${exchange.status} to Authorization: ${JSON.stringify(requestHeaderOf(exchange, 'authorization')?.replace(/\S{6,}/g, (token) => `${token.slice(0, 2)}...`))}`,
        expected,
      )
    : [];

/** Rules on what an answer must never carry, and on what a credential may get. */
export const SECURITY_RULES: ExchangeRule[] = [
  {
    rule: 'credential_never_echoed',
    applies: (exchange) => sentSecrets(exchange).length > 0,
    breaks: (exchange) => {
      const headers = Object.entries(exchange.headers).map(([name, value]) => `${name}: ${value}`);
      // A 2xx's body holds records, and a record holds what a client stored, the key included if a
      // client named a category so (the spec: "unless a client stored it in a record").
      const body = exchange.status < 300 ? '' : exchange.text;
      for (const secret of sentSecrets(exchange)) {
        const where = body.includes(secret) ? 'the body' : headers.find((line) => line.includes(secret))?.split(':')[0];
        if (where) return received(`the credential sent, in ${where} of a ${exchange.status}`, 'never echoed');
      }
      return [];
    },
  },
  {
    rule: 'no_internals_in_answers',
    applies: (exchange) => exchange.status >= 400,
    breaks: (exchange) => {
      const version = VERSION_IN_BODY.exec(exchange.text);
      if (version)
        return received(`a server version in a ${exchange.status}: ${JSON.stringify(version[0])}`, 'no internals');
      for (const [pattern, what] of INTERNALS) {
        const match = pattern.exec(exchange.text);
        if (match)
          return received(`${what} in a ${exchange.status}: ${JSON.stringify(match[0].slice(0, 80))}`, 'no internals');
      }
      return [];
    },
  },
  {
    rule: 'server_version_hidden',
    applies: (exchange) => SERVER_HEADERS.some((name) => headerOf(exchange, name) !== undefined),
    breaks: (exchange) => {
      for (const name of SERVER_HEADERS) {
        const value = headerOf(exchange, name);
        if (value !== undefined && (VERSIONED.test(value) || name.startsWith('x-aspnet')))
          return received(`${name}: ${value}`, 'no server or framework version');
      }
      return [];
    },
  },
  {
    rule: 'no_cookies',
    applies: () => true,
    breaks: (exchange) => {
      const cookie = headerOf(exchange, 'set-cookie');
      return cookie === undefined ? [] : received(`Set-Cookie: ${cookie.replace(/=[^;]*/, '=...')}`, 'no cookie');
    },
  },
  {
    rule: 'cache_control_syntax',
    applies: (exchange) => headerOf(exchange, 'cache-control') !== undefined,
    breaks: (exchange) => {
      const directives = cacheDirectives(exchange);
      if (typeof directives === 'string')
        return received(`Cache-Control: ${headerOf(exchange, 'cache-control')} (${directives})`, 'directives');
      const value = headerOf(exchange, 'cache-control')!;
      for (const name of ['max-age', 's-maxage']) {
        if (!directives!.has(name)) continue;
        // The token form only (RFC 9111 §5.2.2.1: a sender MUST NOT generate the quoted form).
        if (!new RegExp(`(?:^|,)\\s*${name}\\s*=\\s*\\d+\\s*(?:,|$)`, 'i').test(value))
          return received(`Cache-Control: ${value}`, `${name}=<digits>`);
      }
      return [];
    },
  },
  {
    rule: 'keyed_answers_not_shared',
    applies: credentialed,
    breaks: (exchange) => {
      const directives = cacheDirectives(exchange);
      if (!(directives instanceof Map) || directives.has('private') || directives.has('no-store')) return [];
      const sharing = ['public', 's-maxage', 'must-revalidate'].filter((name) => directives.has(name));
      return sharing.length === 0
        ? []
        : received(
            `Cache-Control: ${headerOf(exchange, 'cache-control')} on an answer to a request with Authorization`,
            'neither public, s-maxage nor must-revalidate (or private / no-store with them)',
          );
    },
  },
  {
    rule: 'keyed_answers_not_stored',
    applies: credentialed,
    breaks: (exchange) => {
      const directives = cacheDirectives(exchange);
      return directives instanceof Map && (directives.has('no-store') || directives.has('private'))
        ? []
        : received(`Cache-Control: ${headerOf(exchange, 'cache-control') ?? '(none)'}`, 'no-store (or private)');
    },
  },
  {
    rule: 'no_sniffing',
    applies: (exchange) => exchange.text.length > 0,
    breaks: (exchange) =>
      headerOf(exchange, 'x-content-type-options')?.trim().toLowerCase() === 'nosniff'
        ? []
        : received(`X-Content-Type-Options: ${headerOf(exchange, 'x-content-type-options') ?? '(none)'}`, 'nosniff'),
  },
  {
    rule: 'cors_not_open_with_credentials',
    applies: (exchange) => headerOf(exchange, 'access-control-allow-credentials')?.trim().toLowerCase() === 'true',
    breaks: (exchange) => {
      const allowed = headerOf(exchange, 'access-control-allow-origin')?.trim();
      const origin = requestHeaderOf(exchange, 'origin')?.trim();
      // `*` with credentials is refused by every browser (Fetch): useless, not open. Reflecting any origin
      // is open. Split: a gateway adding its own value makes a list.
      const listed = (allowed ?? '').split(',').map((value) => value.trim());
      return origin !== undefined && UNTRUSTED_ORIGINS.includes(origin) && listed.includes(origin)
        ? received(
            `Access-Control-Allow-Origin: ${allowed} with Access-Control-Allow-Credentials: true to Origin: ${origin ?? '(none)'}`,
            'credentials allowed only for origins the service trusts',
          )
        : [];
    },
  },
  {
    rule: 'malformed_credentials_refused',
    applies: (exchange) => {
      const authorization = requestHeaderOf(exchange, 'authorization');
      return (
        authorization !== undefined &&
        authorization.trim() !== '' &&
        !authorization.includes('\n') &&
        !isBearerCredential(authorization) &&
        !recoversBearerToken(authorization)
      );
    },
    breaks: admittedCredential('401 (missing_api_key or invalid_api_key): the token is not the one sent'),
  },
  {
    rule: 'credentials_read_strictly',
    applies: (exchange) => {
      const authorization = requestHeaderOf(exchange, 'authorization');
      return authorization !== undefined && !isBearerCredential(authorization) && recoversBearerToken(authorization);
    },
    breaks: admittedCredential(
      'a 401 would read it strictly (RFC 6750 §2.1: Bearer 1*SP b64token); recovering the key is allowed',
    ),
  },
  {
    rule: 'repeated_credentials_refused',
    applies: (exchange) => requestHeaderOf(exchange, 'authorization')?.includes('\n') ?? false,
    breaks: admittedCredential('401: two Authorization fields name no one key (RFC 9110 §5.3)'),
  },
];
