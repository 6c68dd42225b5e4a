import { MAX_BODY_BYTES } from '../../mocks/domain/request-body.js';
import type { OverrideRequest } from '../../mocks/handlers/overrides.js';
import { codeOf, withHeaders, wrapping, type BrokenVariant } from './variant.js';

/** A body in chunks: no `Content-Length` declares its size (RFC 9112 §7.1). */
const inChunks = (request: OverrideRequest) =>
  request.header('content-length') === null && /chunked/i.test(request.header('transfer-encoding') ?? '');

/**
 * Variants that keep a rule only under the framing most clients use, or break HTTP/1.1's rules for a
 * server's connection, each as a gateway or a hand-written shortcut does.
 */
export const FRAMING_VARIANTS: BrokenVariant[] = [
  {
    name: 'body-limit-only-when-length-declared',
    breaks: 'limits_hold_under_every_framing',
    does: 'the 16 KiB limit is read from Content-Length: a body over it sent in chunks goes through (as the same JSON without its padding)',
    caughtBy: ['limits_hold_under_every_framing'],
    fake: wrapping(async (request, next) => {
      if (!inChunks(request)) return next();
      const text = await request.text();
      if (Buffer.byteLength(text) <= MAX_BODY_BYTES) return next();
      try {
        return await next({ body: JSON.stringify(JSON.parse(text)) });
      } catch {
        return next();
      }
    }),
  },
  {
    name: 'media-type-unchecked-for-chunked-bodies',
    breaks: 'limits_hold_under_every_framing',
    does: 'a body sent in chunks is read as JSON whatever its Content-Type (text/plain is not answered 415)',
    caughtBy: ['limits_hold_under_every_framing'],
    fake: wrapping((request, next) =>
      inChunks(request) ? next({ headers: { 'content-type': 'application/json' } }) : next(),
    ),
  },
  {
    name: 'quota-skipped-for-chunked-bodies',
    breaks: 'limits_hold_under_every_framing',
    does: "a body sent in chunks is metered by another limiter (a streaming upload's): a key whose minute window is used up still creates with it, as the next plan's key would",
    caughtBy: ['limits_hold_under_every_framing'],
    fake: wrapping(async (request, next) => {
      const answer = await next();
      if (!inChunks(request) || codeOf(answer) !== 'rate_limit_exceeded') return answer;
      return next({ headers: { authorization: 'Bearer enterprise-test-key' } });
    }),
  },
  {
    name: 'connection-kept-after-close',
    breaks: 'close_ends_the_connection',
    does: "every answer says Connection: keep-alive, so the server keeps the connection after a client's Connection: close (RFC 9112 §9.6)",
    caughtBy: ['connection_rules_kept'],
    fake: wrapping(async (_request, next) =>
      withHeaders(await next(), (headers) => headers.set('Connection', 'keep-alive')),
    ),
  },
  {
    name: 'chunked-answers-to-http10',
    breaks: 'no_chunked_answer_to_http10',
    does: 'a keyed read sent on a connection the client closes (as an HTTP/1.0 client does) is answered in chunks, which HTTP/1.0 does not have (RFC 9112 §6.1)',
    caughtBy: ['connection_rules_kept'],
    fake: wrapping(async (request, next) => {
      const answer = await next();
      if (
        request.method !== 'GET' ||
        request.header('authorization') === null ||
        request.header('connection') !== 'close'
      )
        return answer;
      return withHeaders(answer, (headers) => headers.set('Transfer-Encoding', 'chunked'));
    }),
  },
];
