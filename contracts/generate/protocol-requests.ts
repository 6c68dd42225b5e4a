import { documentedSpec, type SpecDocument } from '../core/spec-document.js';
import type { RequestAuth } from '../core/exchange.js';
import type { EvidenceEntry } from './schema-evidence.js';

/**
 * The methods RFC 9110 §9.3 defines, PATCH (RFC 5789), WebDAV's (RFC 4918) that servers and proxies
 * know, and tokens no registry has: what a client, a scanner or a proxy may send to any path.
 */
export const STANDARD_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH'];
const EXTENSION_METHODS = ['PROPFIND', 'MKCOL', 'PURGE', 'QUERY', 'X-PETSTORE'];

/** Methods no server may take to change anything (RFC 9110 §9.2.1), and those only a WebDAV server knows to be read-only. */
export const SAFE_METHODS = ['GET', 'HEAD', 'OPTIONS', 'TRACE', 'PROPFIND', 'QUERY'];

/** How a method token is named in the evidence catalogue. */
export const methodEntry = (method: string) => `method ${method}`;

/**
 * Every method token the spec's paths may be sent, each an entry of the evidence catalogue of its
 * own: a budget drops a path's repetition of a kind, never a token (TRACE is not GET's stand-in).
 * A token that could change something needs a target that allows writes.
 * @example methodEvidence().map(({ id }) => id) // ['method PUT', ..., 'method TRACE', ..., 'method get', ...]
 */
export function methodEvidence(spec: SpecDocument = documentedSpec()): EvidenceEntry[] {
  const paths = [...new Set(Object.values(spec.operations).map(({ path }) => path))];
  const tokens = [...new Set(paths.flatMap((path) => methodProbes(path, spec).map(({ method }) => method)))];
  return tokens.map((method) => ({
    id: methodEntry(method),
    kind: 'method',
    needs: SAFE_METHODS.includes(method.toUpperCase()) ? ['uniformErrors'] : ['uniformErrors', 'writes'],
  }));
}

/** One method token to send to a path, and why it is there. */
export interface MethodProbe {
  method: string;
  why: string;
  /** The path's own method this token spells in another letter case (the spec lets the HTTP layer read it so). */
  respells?: string;
}

/**
 * Every method token a path of the spec may be sent, derived from the spec: the methods of the
 * interface that the path lacks, the standard and extension methods, and each method the path has
 * spelt in other letter cases (a method is case-sensitive, RFC 9110 §9.1: `get` is not GET).
 * @example methodProbes('/categories').map(({ method }) => method) // ['PUT', 'DELETE', ..., 'get', 'Get', ...]
 */
export function methodProbes(path: string, spec: SpecDocument = documentedSpec()): MethodProbe[] {
  const operations = Object.values(spec.operations);
  const own = operations.filter((operation) => operation.path === path).map(({ method }) => method);
  const ofInterface = [...new Set(operations.map(({ method }) => method))];
  const probes: MethodProbe[] = [];
  const add = (method: string, why: string, respells?: string) => {
    if (!own.includes(method) && !probes.some((probe) => probe.method === method))
      probes.push({ method, why, ...(respells && { respells }) });
  };
  for (const method of ofInterface) add(method, `a method of the interface that ${path} does not have`);
  for (const method of STANDARD_METHODS) add(method, 'a method HTTP defines (RFC 9110 §9.3, RFC 5789)');
  for (const method of EXTENSION_METHODS) add(method, 'an extension method (RFC 9110 §16.1)');
  for (const method of own) {
    add(method.toLowerCase(), `${method} in lower case: another method (RFC 9110 §9.1)`, method);
    add(method[0] + method.slice(1).toLowerCase(), `${method} in mixed case: another method (RFC 9110 §9.1)`, method);
  }
  return probes;
}

/** A spelling of the key that the bearer grammar does not allow, and which production it breaks. */
export interface MalformedCredential {
  what: string;
  auth: Extract<RequestAuth, { spell: unknown }>;
  /**
   * Two Authorization fields: RFC 9110 §5.3's MUST binds the sender, and a server that reads the first
   * (Node's http does) breaks no requirement on it; the suite warns (`repeated_credentials_refused`).
   */
  repeatedField?: true;
}

const malformed = (what: string, spell: (key: string) => string, shown: string): MalformedCredential => ({
  what,
  auth: { spell, shown, invalid: true },
  ...(spell('k').includes('\n') && { repeatedField: true as const }),
});

/**
 * The real key in every syntax `credentials = "Bearer" 1*SP b64token` (RFC 6750 §2.1) does not allow,
 * one production broken at a time: a target that accepts one of them parses credentials leniently,
 * and what a lenient parser lets through differs from what a gateway in front of it checks.
 * A value holding `\n` goes out as two Authorization fields (RFC 9110 §5.3: the field is not a list).
 */
export function malformedCredentials(): MalformedCredential[] {
  const K = '${PETSTORE_API_KEY}';
  return [
    malformed('a comma list of two credentials', (key) => `Bearer ${key}, Bearer ${key}`, `Bearer ${K}, Bearer ${K}`),
    malformed('a trailing comma', (key) => `Bearer ${key},`, `Bearer ${K},`),
    malformed('the key as an auth-param', (key) => `Bearer token=${key}`, `Bearer token=${K}`),
    malformed(
      'the key as a quoted auth-param',
      (key) => `Bearer access_token="${key}"`,
      `Bearer access_token=\\"${K}\\"`,
    ),
    malformed('a tab between scheme and key', (key) => `Bearer\t${key}`, `Bearer\\t${K}`),
    malformed('a second token after the key', (key) => `Bearer ${key} extra`, `Bearer ${K} extra`),
    malformed('a parameter after the key', (key) => `Bearer ${key}; realm=petstore`, `Bearer ${K}; realm=petstore`),
    malformed('"=" inside the token', (key) => `Bearer ${key}=x`, `Bearer ${K}=x`),
    malformed('a colon after the scheme', (key) => `Bearer: ${key}`, `Bearer: ${K}`),
    malformed('a non-breaking space before the key', (key) => `Bearer\u00a0${key}`, `Bearer\\u00a0${K}`),
    malformed('a non-breaking space after the key', (key) => `Bearer ${key}\u00a0`, `Bearer ${K}\\u00a0`),
    malformed('two Authorization fields, both the key', (key) => `Bearer ${key}\nBearer ${key}`, `Bearer ${K} (twice)`),
    malformed(
      'two Authorization fields, the key and an unknown token',
      (key) => `Bearer not-the-key\nBearer ${key}`,
      `Bearer not-the-key, then Bearer ${K}`,
    ),
  ];
}
