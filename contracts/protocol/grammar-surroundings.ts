import { withConnectionOption, withHeader, withWire, type Surrounding } from './surrounding.js';

// Productions of RFC 9110 §5.6 the values below are built from, so each value is an instance of its
// field's ABNF rather than a string someone found tempting.
/** `#element`: a comma-separated list (RFC 9110 §5.6.1). */
const list = (...elements: string[]) => elements.join(', ');
/** `token weight`: a member with a `;q=` qvalue (RFC 9110 §12.4.2). */
const weighted = (token: string, q: string) => `${token};q=${q}`;
/** `token "=" ( token / quoted-string )`: a parameter (RFC 9110 §5.6.6). */
const parameter = (name: string, value: string) => `${name}=${value}`;
/** `IMF-fixdate` (RFC 9110 §5.6.7), the RFC's own example instant. */
const IMF_FIXDATE = new Date(Date.UTC(1994, 10, 6, 8, 49, 37)).toUTCString();

/**
 * A request field of HTTP's registry (the IANA HTTP Field Name Registry, as RFC 9110, 9111 and the RFCs
 * it cites define each field), with a value its grammar defines. Hop-by-hop fields (RFC 9110 §7.6.1) go
 * with their name in `Connection`, as their sender must send them.
 */
interface RegisteredField {
  field: string;
  basis: string;
  /** The field's ABNF, as its RFC writes it. */
  abnf: string;
  value: string;
  /** Meant for the next hop only: named in `Connection` too. */
  hopByHop?: true;
  mayRefuse?: Surrounding['mayRefuse'];
}

/**
 * The registry's request fields. Left out, each for its reason: the fields the spec declares
 * (`Authorization`, `Content-Type`) or framing sets (`Content-Length`, `Transfer-Encoding`, `Host`); those
 * HTTP gives a meaning that may change an answer, which another check holds as HTTP defines it
 * (`If-*`, `Range`, `Accept`, `Origin`, `Expect` below, a content coding); `Cache-Control:
 * only-if-cached` (a cache answers 504 to it, RFC 9111 §5.2.1.7); `Prefer` (RFC 7240 lets a server honour
 * `respond-async` with 202: the listed values send what no server honours); `Trailer`, which announces
 * a trailer section only a chunked body has (the framing `chunked with trailers` sends it).
 */
const REGISTERED_FIELDS: readonly RegisteredField[] = [
  { field: 'Connection', basis: 'RFC 9110 §7.6.1', abnf: '#connection-option', value: 'keep-alive', hopByHop: true },
  {
    field: 'Keep-Alive',
    basis: 'RFC 2068 §19.7.1 (registry: obsoleted)',
    abnf: '#keep-alive-info',
    value: list(parameter('timeout', '5'), parameter('max', '100')),
    hopByHop: true,
  },
  {
    field: 'TE',
    basis: 'RFC 9110 §10.1.4',
    abnf: '#t-codings',
    value: list('trailers', weighted('deflate', '0.5')),
    hopByHop: true,
  },
  // A protocol no server implements, so none may switch to it (RFC 9110 §7.8: a server MAY ignore Upgrade).
  { field: 'Upgrade', basis: 'RFC 9110 §7.8', abnf: '#protocol', value: 'example/1', hopByHop: true },
  {
    field: 'Proxy-Authorization',
    basis: 'RFC 9110 §11.7.2',
    abnf: 'credentials',
    value: `Basic ${Buffer.from('proxy-user:proxy-password').toString('base64')}`,
  },
  { field: 'Via', basis: 'RFC 9110 §7.6.3', abnf: '#( received-protocol RWS received-by )', value: '1.1 example.com' },
  // Not 0: a proxy in front answers a request it may forward no further itself (RFC 9110 §7.6.2).
  { field: 'Max-Forwards', basis: 'RFC 9110 §7.6.2', abnf: '1*DIGIT', value: '1' },
  { field: 'From', basis: 'RFC 9110 §10.1.2', abnf: 'mailbox', value: 'webmaster@example.org' },
  { field: 'Referer', basis: 'RFC 9110 §10.1.3', abnf: 'absolute-URI / partial-URI', value: 'https://example.org/' },
  {
    field: 'User-Agent',
    basis: 'RFC 9110 §10.1.5',
    abnf: 'product *( RWS ( product / comment ) )',
    value: 'example/1.0',
  },
  { field: 'Date', basis: 'RFC 9110 §6.6.1', abnf: 'HTTP-date', value: IMF_FIXDATE },
  {
    field: 'Accept-Encoding',
    basis: 'RFC 9110 §12.5.3',
    abnf: '#( codings [ weight ] )',
    value: list(weighted('gzip', '1.0'), weighted('identity', '0.5'), weighted('*', '0')),
  },
  // UTF-8 stays acceptable: without it RFC 9110 §12.5.2 would let the service answer 406.
  {
    field: 'Accept-Charset',
    basis: 'RFC 9110 §12.5.2',
    abnf: '#( ( token / "*" ) [ weight ] )',
    value: list('utf-8', weighted('iso-8859-5', '0.5')),
  },
  {
    field: 'Accept-Language',
    basis: 'RFC 9110 §12.5.4',
    abnf: '#( language-range [ weight ] )',
    value: list('da', weighted('en-gb', '0.8'), weighted('en', '0.7')),
  },
  {
    field: 'Cache-Control',
    basis: 'RFC 9111 §5.2.1',
    abnf: '#cache-directive',
    value: list(
      parameter('max-age', '0'),
      parameter('max-stale', '1'),
      parameter('min-fresh', '1'),
      'no-cache',
      'no-store',
      'no-transform',
    ),
  },
  { field: 'Pragma', basis: 'RFC 9111 §5.4', abnf: '#pragma-directive', value: 'no-cache' },
  {
    field: 'Forwarded',
    basis: 'RFC 7239 §4',
    abnf: '#forwarded-element',
    value: 'for=192.0.2.60;proto=http;by=203.0.113.43',
  },
  { field: 'Cookie', basis: 'RFC 6265 §4.2.1', abnf: 'cookie-pair *( ";" SP cookie-pair )', value: 'a=b; c=d' },
  {
    field: 'Early-Data',
    basis: 'RFC 8470 §5.1',
    abnf: '"1"',
    value: '1',
    mayRefuse: {
      statuses: [425],
      because: 'RFC 8470 §5.2: a server may answer 425 (Too Early) to a request in early data',
    },
  },
  { field: 'Priority', basis: 'RFC 9218 §5', abnf: 'sf-dictionary', value: 'u=1, i' },
  { field: 'CDN-Loop', basis: 'RFC 8586 §2', abnf: '#cdn-info', value: 'example.net; v=1' },
  { field: 'Want-Content-Digest', basis: 'RFC 9530 §4', abnf: 'sf-dictionary', value: 'sha-256=10' },
  {
    field: 'Upgrade-Insecure-Requests',
    basis: 'W3C Upgrade Insecure Requests §3.2 (registry)',
    abnf: '"1"',
    value: '1',
    mayRefuse: {
      statuses: [301, 302, 307, 308],
      because: 'a server may send a client that prefers https to it (Upgrade Insecure Requests §3.2)',
    },
  },
];

/** The registry's fields, each with the value its grammar gives; a hop-by-hop one named in `Connection` too. */
function registeredFields(): Surrounding[] {
  return REGISTERED_FIELDS.map(({ field, basis, abnf, value, hopByHop, mayRefuse }) => ({
    id: `header ${field}: ${value}`,
    axis: 'header',
    source: 'grammar',
    basis: `${basis}: ${field} = ${abnf}${hopByHop ? ', hop-by-hop' : ''}`,
    spelt: hopByHop && field !== 'Connection' ? `${field}: ${value} (with Connection: ${field})` : `${field}: ${value}`,
    field,
    ...(mayRefuse && { mayRefuse }),
    apply: (request) =>
      field === 'Connection'
        ? withConnectionOption(request, value)
        : hopByHop
          ? withConnectionOption(withHeader(request, field, value), field)
          : withHeader(request, field, value),
  }));
}

/**
 * The request forms RFC 9112 defines beside the one every client sends (HTTP/1.1, origin-form, a body
 * with `Content-Length`): the other HTTP/1.x version (§2.3), the absolute-form of the target (§3.2.2;
 * authority-form and asterisk-form are CONNECT's and OPTIONS' only), the chunked framing (§7.1), and the
 * one expectation HTTP defines (RFC 9110 §10.1.1). The other framings of §6.3 (a trailer section, none)
 * are entries `limits_hold_under_every_framing` sends on a connection of its own (framingEvidence).
 */
function requestForms(): Surrounding[] {
  return [
    {
      id: 'request-line HTTP/1.0',
      axis: 'request-line',
      source: 'grammar',
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
      source: 'grammar',
      basis: 'RFC 9112 §3.2.2',
      spelt: 'the target in absolute-form (http://host/v1/...)',
      required:
        'A server MUST accept the absolute-form in requests even though most HTTP/1.1 clients will only send the absolute-form to a proxy.',
      apply: (request) => withWire(request, { target: 'absolute' }),
    },
    {
      id: 'framing chunked',
      axis: 'framing',
      source: 'grammar',
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
      source: 'grammar',
      basis: 'RFC 9110 §10.1.1',
      spelt: 'Expect: 100-continue, the body sent at once',
      withBody: true,
      required:
        'A server that receives a 100-continue expectation in an HTTP/1.1 (or later) request … MUST either send an immediate response with a final status code, if that status can be determined by examining just the request line and header fields, or send an immediate 100 (Continue) response to encourage the client to send the request content.',
      apply: (request) => withHeader(request, 'Expect', '100-continue'),
    },
  ];
}

/**
 * What HTTP's grammar and registries put around any request: every request field of the registry with
 * a value its ABNF defines (hop-by-hop fields named in `Connection`), and the forms of the request line
 * and of framing RFC 9112 defines.
 * @example grammarSurroundings().map(({ id }) => id) // ['header Connection: keep-alive', 'header TE: trailers, deflate;q=0.5', ...]
 */
export function grammarSurroundings(): Surrounding[] {
  return [...registeredFields(), ...requestForms()];
}

/** How a framing of RFC 9112 §6.3 is named in the evidence catalogue. */
export const framingEntry = (framing: string) => `framing ${framing}`;

/**
 * The framings a request body may take (RFC 9112 §6.3, the rules of a message body's length), each an
 * entry of the evidence catalogue: `Content-Length` (§8.6; any write), chunked (§7.1; a form above),
 * chunked with a trailer section (§7.1.2) and none (§6.3: a request with neither has no content). The
 * last two are written on a connection of `limits_hold_under_every_framing`'s own, so that check tries
 * them when it runs to its end.
 */
export const FRAMINGS = [
  { framing: 'Content-Length', basis: 'RFC 9112 §8.6' },
  { framing: 'chunked', basis: 'RFC 9112 §7.1' },
  { framing: 'chunked with trailers', basis: 'RFC 9112 §7.1.2', triedBy: 'limits_hold_under_every_framing' },
  { framing: 'none', basis: 'RFC 9112 §6.3', triedBy: 'limits_hold_under_every_framing' },
] as const;
