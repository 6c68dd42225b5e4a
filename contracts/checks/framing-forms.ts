import { bucketOfRequest } from '../core/described-bucket.js';
import type { ContractRequest, WireForm } from '../core/exchange.js';
import { framingEntry } from '../protocol/grammar-surroundings.js';
import { surroundings, type Surrounding } from '../protocol/surroundings.js';
import type { RuleName } from '../rules/rule-table.js';

/**
 * A form of framing or of the request line a write may take, with what HTTP says it means: the rule a
 * changed answer breaks, and the request it must be answered as (by default the same request with
 * Content-Length: the form changes nothing the spec states).
 */
export interface FramingForm extends Surrounding {
  rule: RuleName;
  /** The request whose answer this form's must equal, where it is not the same with Content-Length, and that request for people. */
  answeredAs?: { request: (request: ContractRequest) => ContractRequest; said: string };
  /** Sent alone, never grouped with other forms: even a correct server answers it otherwise than Content-Length. */
  alone?: true;
}

const withWire = (request: ContractRequest, wire: WireForm): ContractRequest => ({
  ...request,
  wire: { ...request.wire, ...wire },
});

/** What RFC 9110 lets a server answer a body it is not told the length of. */
const LENGTH_REQUIRED = {
  statuses: [411],
  because: 'RFC 9110 §15.5.12: a server may refuse a request without a Content-Length (411)',
};

/**
 * The chunked body with a trailer section holding the field that would change the answer if it were
 * merged into the header section: the key, on a request without a valid one; else the other media type
 * (`text/plain` for JSON, JSON for anything else). RFC 9110 §6.5.1: a trailer never changes what the
 * header section means, so the request is answered as the same chunks without it.
 */
export const KEYED_TRAILER: FramingForm = {
  id: framingEntry('chunked with trailers'),
  axis: 'framing',
  source: 'grammar',
  basis: 'RFC 9112 §7.1.2, RFC 9110 §6.5.1',
  spelt: 'the body in chunks, with the key (or the other Content-Type) in a trailer section',
  withBody: true,
  mayRefuse: LENGTH_REQUIRED,
  rule: 'trailers_change_no_header',
  // Held to the same chunks without the trailer section: what chunks alone change is the chunked form's finding.
  answeredAs: {
    request: (request) => withWire(request, { chunked: true }),
    said: 'as the same request in chunks without the trailer section',
  },
  apply: (request) =>
    bucketOfRequest(request) === 'unauthenticated'
      ? withWire(request, { trailerAuth: 'key' })
      : withWire(request, {
          trailers: { 'Content-Type': request.contentType === 'text/plain' ? 'application/json' : 'text/plain' },
        }),
};

/**
 * HTTP/1.0 with the body after the header section and neither Content-Length nor chunks, the client
 * ending its side after it: RFC 9112 §6.3 gives such a request no content ("If this is a request message
 * and none of the above are true, then the message body length is zero"), so it is answered as the same
 * request without a body; a server that reads the bytes to the close as its body reads what no client
 * framed (and skips whatever it checks only on a declared length).
 */
export const UNFRAMED_BODY: FramingForm = {
  id: framingEntry('none'),
  axis: 'framing',
  source: 'grammar',
  basis: 'RFC 9112 §6.3',
  spelt: 'HTTP/1.0 with the body unframed (neither Content-Length nor chunks), ended by the close',
  withBody: true,
  mayRefuse: LENGTH_REQUIRED,
  rule: 'limits_hold_under_every_framing',
  alone: true,
  answeredAs: {
    // The same request with no body bytes and no framing (RFC 9112 §6.3: a request with neither
    // Content-Length nor chunks has no content), in HTTP/1.1, where no server reads to the close. Not
    // declared empty with Content-Length: 0, which a service may read as an empty body with a media type
    // to judge (Express's type-is does); and the client's side not ended, which on a server whose answer
    // waits on a store (the fake on Redis) can lose an answer the request was counted for.
    request: (request) => {
      const { json: _json, ...bodyless } = request;
      return withWire({ ...bodyless, rawBody: '' }, { unframed: true });
    },
    said: 'as the same request without a body (RFC 9112 §6.3)',
  },
  apply: (request) => withWire(request, { version: '1.0', unframed: true }),
};

/**
 * Every form of framing and of the request line a write may take: the surroundings of those axes (HTTP/1.0,
 * absolute-form, chunks), a trailer section, and no framing at all.
 */
export function framingForms(): FramingForm[] {
  const derived = surroundings()
    .filter(({ axis }) => axis === 'framing' || axis === 'request-line')
    .map((form): FramingForm => ({ ...form, rule: 'limits_hold_under_every_framing' }));
  return [...derived, KEYED_TRAILER, UNFRAMED_BODY];
}

/**
 * The groups a run sends: each form alone where the target has room; else the forms that combine in one
 * request (chunks, a trailer section, absolute-form) together (answered as with Content-Length, each is
 * held to its own meaning once halved), HTTP/1.0 (which has no chunked coding) apart, and a body without
 * framing, which means no body at all, alone.
 */
export function formGroups(budgeted: boolean): FramingForm[][] {
  const forms = framingForms();
  if (!budgeted) return forms.map((form) => [form]);
  const apart = forms.filter(({ alone }) => alone);
  const http10 = forms.filter((form) => !form.alone && form.id.includes('HTTP/1.0'));
  const together = forms.filter((form) => !form.alone && !http10.includes(form));
  return [together, http10, ...apart.map((form) => [form])].filter((group) => group.length > 0);
}
