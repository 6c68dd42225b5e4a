import { documentedSpec, type SpecDocument } from '../core/spec-document.js';
import type { ContractRequest, WireForm } from '../core/exchange.js';

/**
 * What a client or an intermediary puts around a request that the spec never declares: a header field, a
 * query parameter, a form of the request line or of its framing. A service may ignore each; none may
 * change who is admitted, what is charged, or an answer's status and machine-readable content.
 */
export interface Surrounding {
  /** Its entry in the evidence catalogue: `header X-Forwarded-For: 127.0.0.1`, `query debug`, `request-line HTTP/1.0`. */
  id: string;
  axis: 'header' | 'query' | 'request-line' | 'framing';
  /** Where the element is defined, or who sends it. */
  basis: string;
  /** What it is sent as, for people. */
  spelt: string;
  /** The header field or query parameter it sets: a request carries one value of each. */
  field?: string;
  /** Only on a request with a body (framing, an expectation of one). */
  withBody?: true;
  /** Other answers HTTP lets a server give to this element, and the sentence that does. */
  mayRefuse?: { statuses: readonly number[]; because: string };
  /** A form HTTP requires every server to accept: the sentence that requires it (`required_forms_accepted`). */
  required?: string;
  /** The request with the element added. */
  apply(request: ContractRequest): ContractRequest;
}

/**
 * Request fields of the IANA HTTP Field Name Registry and of the fields proxies, gateways, CDNs and
 * browsers add every day, each with the values that tempt a service most: an address on the loopback or
 * a private range (read as the client's, it can lift a limit or an allow-list), another host or path (read
 * as the request's, it can reroute it), another language, encoding or charset (which must not touch a
 * machine-readable field), a session cookie, a client hint, a preference.
 */
const FIELD_REGISTRY: ReadonlyArray<{
  field: string;
  basis: string;
  values: readonly string[];
  mayRefuse?: Surrounding['mayRefuse'];
}> = [
  { field: 'X-Forwarded-For', basis: 'de facto (proxies, load balancers)', values: ['127.0.0.1', '10.0.0.1'] },
  { field: 'Forwarded', basis: 'RFC 7239', values: ['for=127.0.0.1;proto=https;host=localhost'] },
  { field: 'X-Real-IP', basis: 'de facto (nginx)', values: ['127.0.0.1'] },
  { field: 'X-Client-IP', basis: 'de facto (proxies)', values: ['127.0.0.1'] },
  { field: 'True-Client-IP', basis: 'de facto (CDNs)', values: ['127.0.0.1'] },
  { field: 'CF-Connecting-IP', basis: 'de facto (CDNs)', values: ['127.0.0.1'] },
  { field: 'X-Originating-IP', basis: 'de facto (gateways)', values: ['127.0.0.1'] },
  { field: 'Via', basis: 'RFC 9110 §7.6.3', values: ['1.1 internal-gateway'] },
  { field: 'X-Forwarded-Host', basis: 'de facto (proxies)', values: ['localhost'] },
  {
    field: 'X-Forwarded-Proto',
    basis: 'de facto (proxies)',
    values: ['http'],
    mayRefuse: {
      statuses: [301, 302, 307, 308],
      because:
        "a service behind a TLS proxy may send a request it reads as plain http to https (Spring's and Django's secure redirects)",
    },
  },
  { field: 'X-Forwarded-Prefix', basis: 'de facto (proxies)', values: ['/admin'] },
  { field: 'X-Original-URL', basis: 'de facto (IIS, gateways)', values: ['/admin'] },
  { field: 'X-Rewrite-URL', basis: 'de facto (IIS, gateways)', values: ['/admin'] },
  { field: 'Accept-Language', basis: 'RFC 9110 §12.5.4', values: ['fr-CH, fr;q=0.9, de;q=0.8, *;q=0.5'] },
  // Not `gzip, deflate`: the suite's client sends that on every request already.
  { field: 'Accept-Encoding', basis: 'RFC 9110 §12.5.3', values: ['br, gzip;q=0.8, *;q=0.1'] },
  // UTF-8 stays acceptable: without it RFC 9110 §12.5.2 would let the service answer 406.
  { field: 'Accept-Charset', basis: 'RFC 9110 §12.5.2', values: ['iso-8859-1, utf-8;q=0.5'] },
  { field: 'Cache-Control', basis: 'RFC 9111 §5.2', values: ['no-cache, max-age=0'] },
  { field: 'Pragma', basis: 'RFC 9111 §5.4', values: ['no-cache'] },
  // Not 0: a proxy in front (Apache's mod_proxy) answers 502 to 0 on any method but TRACE and OPTIONS.
  { field: 'Max-Forwards', basis: 'RFC 9110 §7.6.2', values: ['10'] },
  { field: 'Prefer', basis: 'RFC 7240', values: ['handling=lenient, wait=1'] },
  { field: 'Cookie', basis: 'RFC 6265', values: ['session=admin; role=admin'] },
  { field: 'User-Agent', basis: 'RFC 9110 §10.1.5', values: ['Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0'] },
  { field: 'Referer', basis: 'RFC 9110 §10.1.3', values: ['http://localhost/admin'] },
  { field: 'DNT', basis: 'browsers', values: ['1'] },
  { field: 'Sec-Fetch-Site', basis: 'Fetch metadata (browsers)', values: ['cross-site'] },
  { field: 'Sec-Fetch-Mode', basis: 'Fetch metadata (browsers)', values: ['cors'] },
  { field: 'X-Requested-With', basis: 'de facto (browser libraries)', values: ['XMLHttpRequest'] },
  { field: 'X-Request-ID', basis: 'de facto (tracing)', values: ['00000000-0000-4000-8000-000000000000'] },
  {
    field: 'Traceparent',
    basis: 'W3C Trace Context',
    values: ['00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01'],
  },
  { field: 'X-Debug', basis: 'de facto (frameworks)', values: ['true'] },
  { field: 'X-Api-Version', basis: 'de facto (versioned APIs)', values: ['0'] },
];

/**
 * Query parameters real APIs often take, none declared by the spec: paging, sorting, field selection,
 * output format, JSONP, debugging, a tenant or role. Each value is one a service that reads the name
 * would act on.
 */
const QUERY_REGISTRY: ReadonlyArray<{
  name: string;
  basis: string;
  value: string;
  mayRefuse?: Surrounding['mayRefuse'];
}> = [
  { name: 'limit', basis: 'paging', value: '1' },
  { name: 'offset', basis: 'paging', value: '1' },
  { name: 'page', basis: 'paging', value: '2' },
  { name: 'sort', basis: 'sorting', value: '-id' },
  { name: 'fields', basis: 'field selection (JSON:API, Google APIs)', value: 'id' },
  { name: 'include', basis: 'JSON:API', value: 'owner' },
  { name: '$select', basis: 'OData', value: 'id' },
  {
    name: 'format',
    basis: 'output format',
    value: 'xml',
    mayRefuse: {
      statuses: [404, 406],
      because: "a framework's format override refuses a format it cannot render (Django REST framework's 404)",
    },
  },
  { name: 'callback', basis: 'JSONP', value: 'cb' },
  { name: 'pretty', basis: 'output format', value: 'true' },
  { name: 'debug', basis: 'debugging', value: 'true' },
  { name: 'admin', basis: 'a role', value: 'true' },
  { name: 'tenant', basis: 'multi-tenancy', value: 'other' },
  { name: 'lang', basis: 'localisation', value: 'fr' },
];

/** Fields another table of the suite varies already (and the case-insensitive names the spec declares). */
/** The fields frameworks read a method from in place of the request line's (`method_overrides_ignored` sends them). */
export const METHOD_OVERRIDE_FIELDS = ['X-HTTP-Method-Override', 'X-HTTP-Method', 'X-Method-Override'];

const VARIED_ELSEWHERE = new Set([
  // The equivalences (contracts/protocol/equivalences.ts), CORS (every_method_routed), conditional requests.
  'accept',
  'origin',
  'if-none-match',
  'if-modified-since',
  ...METHOD_OVERRIDE_FIELDS.map((field) => field.toLowerCase()),
]);

/** The request header fields the spec declares: `Authorization` (its scheme), `Content-Type`, and header parameters. */
function declaredFields(spec: SpecDocument): Set<string> {
  const declared = new Set(['authorization', 'content-type', 'content-length', 'host']);
  for (const operation of Object.values(spec.operations))
    for (const parameter of operation.parameters)
      if (parameter.in === 'header') declared.add(parameter.name.toLowerCase());
  return declared;
}

/** The spec's query parameters, by name (any operation's). */
function declaredQuery(spec: SpecDocument): Set<string> {
  return new Set(
    Object.values(spec.operations).flatMap(({ parameters }) =>
      parameters.filter((parameter) => parameter.in === 'query').map(({ name }) => name),
    ),
  );
}

const withQuery = (request: ContractRequest, query: string): ContractRequest => ({
  ...request,
  path: `${request.path}${request.path.includes('?') ? '&' : '?'}${query}`,
});

const withWire = (request: ContractRequest, wire: WireForm): ContractRequest => ({
  ...request,
  wire: { ...request.wire, ...wire },
});

/**
 * Every undeclared element a client or an intermediary may put around a request of this spec, derived:
 * the registries' fields less those the spec declares or the suite varies elsewhere, each value its own
 * entry; the registries' query names less the spec's own; the forms of the request line and of framing
 * HTTP/1.1 defines (RFC 9112), and an expectation (RFC 9110 §10.1.1).
 * @example surroundings().map(({ id }) => id) // ['header X-Forwarded-For: 127.0.0.1', ..., 'request-line HTTP/1.0', ...]
 */
export function surroundings(spec: SpecDocument = documentedSpec()): Surrounding[] {
  const declared = declaredFields(spec);
  const fields = FIELD_REGISTRY.filter(
    ({ field }) => !declared.has(field.toLowerCase()) && !VARIED_ELSEWHERE.has(field.toLowerCase()),
  ).flatMap(({ field, basis, values, mayRefuse }) =>
    values.map((value): Surrounding => ({
      id: `header ${field}: ${value}`,
      axis: 'header',
      basis,
      spelt: `${field}: ${value}`,
      field,
      ...(mayRefuse && { mayRefuse }),
      apply: (request) => ({ ...request, headers: { ...request.headers, [field]: value } }),
    })),
  );
  const queryNames = declaredQuery(spec);
  const queries = QUERY_REGISTRY.filter(({ name }) => !queryNames.has(name)).map(
    ({ name, basis, value, mayRefuse }): Surrounding => ({
      id: `query ${name}`,
      axis: 'query',
      basis,
      spelt: `?${name}=${value}`,
      field: `?${name}`,
      ...(mayRefuse && { mayRefuse }),
      apply: (request) => withQuery(request, `${encodeURIComponent(name)}=${encodeURIComponent(value)}`),
    }),
  );
  return [
    ...fields,
    ...queries,
    {
      id: 'request-line HTTP/1.0',
      axis: 'request-line',
      basis: 'RFC 9112 §2.3, RFC 9110 §6.2',
      spelt: 'the request line in HTTP/1.0',
      mayRefuse: {
        statuses: [505, 426],
        because:
          'RFC 9110 §15.6.6, §15.5.22: a server may refuse a version it does not support (505, or 426 to ask for an upgrade)',
      },
      apply: (request) => withWire(request, { version: '1.0' }),
    },
    {
      id: 'request-line absolute-form',
      axis: 'request-line',
      basis: 'RFC 9112 §3.2.2',
      spelt: 'the target in absolute-form (http://host/v1/...)',
      required:
        'A server MUST accept the absolute-form in requests even though most HTTP/1.1 clients will only send the absolute-form to a proxy.',
      apply: (request) => withWire(request, { target: 'absolute' }),
    },
    {
      id: 'framing chunked',
      axis: 'framing',
      basis: 'RFC 9112 §7.1',
      spelt: 'the body in chunks (Transfer-Encoding: chunked)',
      withBody: true,
      required:
        'A recipient MUST be able to parse the chunked transfer coding because it plays a crucial role in framing messages when the content size is not known in advance.',
      mayRefuse: {
        statuses: [411],
        because: 'RFC 9110 §15.5.12: a server may refuse a request without a Content-Length (411)',
      },
      apply: (request) => withWire(request, { chunked: true }),
    },
    {
      id: 'header Expect: 100-continue',
      axis: 'header',
      basis: 'RFC 9110 §10.1.1',
      spelt: 'Expect: 100-continue, the body sent at once',
      withBody: true,
      required:
        'A server that receives a 100-continue expectation in an HTTP/1.1 (or later) request … MUST either send an immediate response with a final status code, if that status can be determined by examining just the request line and header fields, or send an immediate 100 (Continue) response to encourage the client to send the request content.',
      apply: (request) => ({ ...request, headers: { ...request.headers, Expect: '100-continue' } }),
    },
  ];
}
