import type { ContractRequest, WireForm } from '../core/exchange.js';

/**
 * Where an element around a request comes from: the spec (a name, media type or path it declares, tried
 * where it does not declare it), HTTP's grammar and registries (a request field with a value its ABNF
 * defines, a form of the request line or of framing RFC 9112 defines), or a list of tempting values
 * someone wrote (what proxies and frameworks add; a list may add values, never be an axis's only source).
 */
export type SurroundingSource = 'spec' | 'grammar' | 'listed';

/**
 * What a client or an intermediary puts around a request that the spec never declares there: a header
 * field, a query parameter, a form of the request line or of its framing. A service may ignore each;
 * none may change who is admitted, what is charged, or an answer's status and machine-readable content.
 */
export interface Surrounding {
  /** Its entry in the evidence catalogue: `header X-Forwarded-For: 127.0.0.1`, `query debug`, `request-line HTTP/1.0`. */
  id: string;
  axis: 'header' | 'query' | 'request-line' | 'framing';
  source: SurroundingSource;
  /** Where the element is defined, or who sends it. */
  basis: string;
  /** What it is sent as, for people. */
  spelt: string;
  /** The header field or query parameter it sets: a request carries one value of each. */
  field?: string;
  /** Only on a request with a body (framing, an expectation of one). */
  withBody?: true;
  /** Only on a request without a body (a media type the spec declares for bodies, as `Content-Type`). */
  bodiless?: true;
  /** Other answers HTTP lets a server give to this element, and the sentence that does. */
  mayRefuse?: { statuses: readonly number[]; because: string };
  /** A form HTTP requires every server to accept: the sentence that requires it (`required_forms_accepted`). */
  required?: string;
  /** The request with the element added. */
  apply(request: ContractRequest): ContractRequest;
}

/** The request with one more query parameter. */
export const withQuery = (request: ContractRequest, name: string, value: string): ContractRequest => ({
  ...request,
  path: `${request.path}${request.path.includes('?') ? '&' : '?'}${encodeURIComponent(name)}=${encodeURIComponent(value)}`,
});

/** The request with one more header field (replacing one of that name). */
export const withHeader = (request: ContractRequest, field: string, value: string): ContractRequest => ({
  ...request,
  headers: { ...request.headers, [field]: value },
});

/** The request in another form on the wire. */
export const withWire = (request: ContractRequest, wire: WireForm): ContractRequest => ({
  ...request,
  wire: { ...request.wire, ...wire },
});

/**
 * The request with `option` added to its `Connection` list (RFC 9110 §7.6.1: a field meant for this
 * connection only is named there), so several hop-by-hop fields go together in one request.
 */
export function withConnectionOption(request: ContractRequest, option: string): ContractRequest {
  const [name, value] = Object.entries(request.headers ?? {}).find(([field]) => /^connection$/i.test(field)) ?? [
    'Connection',
    null,
  ];
  return withHeader(request, name, value ? `${value}, ${option}` : option);
}

/** A header element: `header <field>: <value>`, sent as that field. */
export function headerElement(
  field: string,
  value: string,
  about: Pick<Surrounding, 'source' | 'basis'> & Partial<Pick<Surrounding, 'mayRefuse' | 'bodiless'>>,
): Surrounding {
  return {
    id: `header ${field}: ${value}`,
    axis: 'header',
    spelt: `${field}: ${value}`,
    field,
    ...about,
    apply: (request) => withHeader(request, field, value),
  };
}

/** A query element: `query <name>`, sent as `?name=value`. */
export function queryElement(
  name: string,
  value: string,
  about: Pick<Surrounding, 'source' | 'basis'> & Partial<Pick<Surrounding, 'mayRefuse'>>,
): Surrounding {
  return {
    id: `query ${name}`,
    axis: 'query',
    spelt: `?${name}=${value}`,
    field: `?${name}`,
    ...about,
    apply: (request) => withQuery(request, name, value),
  };
}
