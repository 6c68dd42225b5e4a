import { bearerTokenOf, headerOf, type ContractRequest, type Exchange } from './exchange.js';
import { carriesNoRateLimitFields } from './rate-limit-headers.js';

/**
 * Whose limit an answer's `X-RateLimit-*` describe (the spec's "Quotas" rules):
 * - `key`: the windows of the key the request carried, which the target accepted;
 * - `unauthenticated`: the limit a target may keep on requests without a valid key from this client (a
 *   401, a request with no credential such as a CORS preflight); the spec promises no such limit;
 * - `none`: no window the suite can name: an answer before any operation (to a request an HTTP parser
 *   may refuse: an extension method, a repeated field), a credential the suite cannot read, or a 429 for
 *   a token the target has not yet answered as a key.
 * Only a `key` answer is evidence about a key's windows; the others describe what they describe.
 */
export type DescribedBucket = { kind: 'key'; token: string } | { kind: 'unauthenticated' } | { kind: 'none' };

/** Whether the target has answered a token as a key it accepts (true), refused it (false), or not said. */
export type TokenAcceptance = (token: string) => boolean | undefined;

/**
 * Whether a request needs the raw sender: a method token Node's client would rewrite (it upper-cases
 * `get`) or that fetch-based clients refuse (TRACE, CONNECT, TRACK), or header fields sent more than once.
 */
export function needsRawSocket(method: string, repeated: boolean): boolean {
  return repeated || !/^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)$/.test(method);
}

/**
 * The statuses the spec lets the HTTP layer answer on its own, before any operation: "a request that is
 * not well-formed HTTP (`400`, a closed connection), one too slow (`408`), a target or header section
 * too long (`414`, `431`), a transfer coding it does not implement (`501`), a body without
 * `Content-Length` it will not read (`411`), an HTTP version it does not take (`505`, `426`), an
 * expectation it cannot meet (`417`)".
 */
export const HTTP_LAYER_STATUSES: ReadonlySet<number> = new Set([400, 408, 411, 414, 417, 426, 431, 501, 505]);

/** Whether a body is the service's own `Error` (`{ code, message, status }`): what no HTTP parser writes. */
function isErrorBody(json: unknown): boolean {
  if (typeof json !== 'object' || json === null) return false;
  const { code, status } = json as { code?: unknown; status?: unknown };
  return typeof code === 'string' && typeof status === 'number';
}

/**
 * Whether an answer is one the HTTP layer may give on its own, whatever the request looked like (a
 * parser's view of what is well-formed is its own): one of {@link HTTP_LAYER_STATUSES}, "in its own
 * format and without `X-RateLimit-*`", so no field of the triple and not the service's `Error`. Such an
 * answer "counts in no key's window" and owes none of a service answer's fields; an answer with any
 * `X-RateLimit-*` field, or an `Error` body, is the service's and is judged as one.
 * @example bareHttpLayerAnswer({ status: 411, headers: { 'content-type': 'text/html' }, ... }) // true
 */
export function bareHttpLayerAnswer(exchange: Exchange): boolean {
  return HTTP_LAYER_STATUSES.has(exchange.status) && carriesNoRateLimitFields(exchange) && !isErrorBody(exchange.json);
}

/**
 * Whether the HTTP layer, not the service, refused a request a check sent in a form of its own (an
 * undeclared field, a framing, a malformed query): a closed connection, or one of
 * {@link HTTP_LAYER_STATUSES} without any `X-RateLimit-*` field, in whatever format (a framework's
 * parser may write an `Error` too). Design section 7 keeps such a refusal a warning: a parser's leniency
 * is its own, never the service's failure.
 */
export function httpLayerRefusal(answer: Exchange | undefined): boolean {
  if (!answer || unframedBytesRefused(answer)) return true;
  return HTTP_LAYER_STATUSES.has(answer.status) && carriesNoRateLimitFields(answer);
}

/**
 * A 400 to an HTTP/1.0 request whose body went unframed: to the server those bytes are no content (RFC
 * 9112 §6.3) but the start of a next request that is not well-formed HTTP, which its HTTP layer may
 * refuse with a 400 of its own, with whatever fields its error handler adds (Fastify's adds the client
 * address's X-RateLimit-*), and that refusal may be the first answer on the connection.
 */
function unframedBytesRefused(answer: Exchange): boolean {
  return answer.request.wire?.unframed === true && answer.status === 400;
}

// The method tokens common HTTP parsers (Node's llhttp, nginx) read, so a service sees them: its 400 or
// 501 to one, with rate-limit fields, is its own answer, not a parser's refusal.
const PARSED_METHODS = new Set(
  'ACL BIND CHECKOUT CONNECT COPY DELETE GET HEAD LINK LOCK M-SEARCH MERGE MKACTIVITY MKCALENDAR MKCOL MOVE NOTIFY OPTIONS PATCH POST PROPFIND PROPPATCH PURGE PUT QUERY REBIND REPORT SEARCH SOURCE SUBSCRIBE TRACE UNBIND UNLINK UNLOCK UNSUBSCRIBE'.split(
    ' ',
  ),
);

/**
 * Whether a request may have been answered before any operation saw it: a {@link bareHttpLayerAnswer},
 * whatever the request; or it went in a form of its own (a wire form: HTTP/1.0, absolute-form, chunked; or on a raw socket: a method
 * token fetch would not send, a repeated or folded field) and came back as an HTTP parser refuses one.
 * A parser's own answer carries no `X-RateLimit-*`; a service's handler of its parser's errors may add
 * some (still describing no key's window: the spec says such an answer "counts in no key's window"),
 * but only for what a parser refuses: a token parsers read (PROPFIND, QUERY) reached the service.
 */
export function answeredBeforeAnyOperation(exchange: Exchange): boolean {
  if (bareHttpLayerAnswer(exchange) || unframedBytesRefused(exchange)) return true;
  const { method, headers, wire } = exchange.request;
  const repeated = Object.values(headers).some((value) => value.includes('\n'));
  // A framing or request line of its own (HTTP/1.0, absolute-form, chunked) is a form a parser may refuse too.
  const rawForm = needsRawSocket(method, repeated) || wire !== undefined;
  if (!rawForm || !HTTP_LAYER_STATUSES.has(exchange.status)) return false;
  return repeated || !PARSED_METHODS.has(method) || headerOf(exchange, 'x-ratelimit-limit') === undefined;
}

/**
 * An HTTP parser's bare refusal, which the model does not hold to a service answer's promises (no
 * window counted it, it owes no `X-RateLimit-*`): an answer before any operation
 * ({@link answeredBeforeAnyOperation}, every {@link bareHttpLayerAnswer} among them) with no rate-limit
 * fields at all.
 */
export function refusedByParser(exchange: Exchange): boolean {
  return answeredBeforeAnyOperation(exchange) && carriesNoRateLimitFields(exchange);
}

/**
 * Which bucket an answer describes. `accepted` says what the target answered for a token before; a
 * 429 is a key's only once the target has admitted that token (a 429 could also be a throttle on
 * guessed keys).
 * @example bucketDescribed(exchange, (token) => known.get(token)) // { kind: 'key', token: 'free-test-key' }
 */
export function bucketDescribed(exchange: Exchange, accepted: TokenAcceptance = () => undefined): DescribedBucket {
  if (exchange.status === 401) return { kind: 'unauthenticated' };
  if (answeredBeforeAnyOperation(exchange)) return { kind: 'none' };
  const token = bearerTokenOf(exchange);
  if (token === '') return { kind: 'unauthenticated' };
  if (token === undefined) return { kind: 'none' };
  if (exchange.status !== 429) return { kind: 'key', token };
  const known = accepted(token);
  return known === undefined ? { kind: 'none' } : known ? { kind: 'key', token } : { kind: 'unauthenticated' };
}

/** The bucket a request will count in, before it is sent: the key's when it carries the target's key as the spec asks. */
export function bucketOfRequest(request: ContractRequest): 'key' | 'unauthenticated' {
  const auth = request.auth ?? 'key';
  return auth === 'key' || (typeof auth === 'object' && 'spell' in auth && !auth.invalid) ? 'key' : 'unauthenticated';
}
