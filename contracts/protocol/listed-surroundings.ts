import { headerElement, queryElement, type Surrounding } from './surrounding.js';

/**
 * Tempting values for request fields, most of them outside HTTP's registry (what proxies, gateways, CDNs
 * and browsers add every day), each value the one that tempts a service most: an address on the loopback or
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
  // Hop-by-hop by custom only: no RFC defines it, and proxies still send it.
  { field: 'Proxy-Connection', basis: 'de facto (old proxies, browsers)', values: ['keep-alive'] },
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

/**
 * The listed elements: each tempting value of each field, each query name real APIs take. An axis has
 * other sources too (the spec's own names, HTTP's registry): this list only adds the values that tempt.
 * @example listedSurroundings().map(({ id }) => id) // ['header X-Forwarded-For: 127.0.0.1', ..., 'query limit', ...]
 */
export function listedSurroundings(): Surrounding[] {
  return [
    ...FIELD_REGISTRY.flatMap(({ field, basis, values, mayRefuse }) =>
      values.map((value) => headerElement(field, value, { source: 'listed', basis, ...(mayRefuse && { mayRefuse }) })),
    ),
    ...QUERY_REGISTRY.map(({ name, basis, value, mayRefuse }) =>
      queryElement(name, value, { source: 'listed', basis, ...(mayRefuse && { mayRefuse }) }),
    ),
  ];
}
