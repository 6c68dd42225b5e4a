import type { Exchange, SentRequest } from '../core/exchange.js';
import { exchangeOf } from './http1-answers.js';
import { sendOnConnection } from './raw-connection.js';
import { rawRequestOf } from './request-bytes.js';

const RAW_TIMEOUT_MS = 15_000;
/** How long a whole answer waits for the close its request asked for, to read what the server sends past its framing. */
const STRAY_GRACE_MS = 150;

export { needsRawSocket } from '../core/described-bucket.js';

/** The connection ended (or timed out) before a whole answer came: what a strict HTTP parser may do to a request it refuses. */
export class NoAnswer extends Error {
  override readonly name = 'NoAnswer';
}

/**
 * Sends one request over a fresh connection, byte for byte as given (the method token as written,
 * repeated header fields as separate lines, the framing its wire form names: {@link rawRequestOf}), and
 * reads one answer. `sent.headers` values that hold `\n` are sent as several fields of that name. A body
 * without framing ends where the client ends its side of the connection.
 * @example await sendRaw({ method: 'get', url: 'http://127.0.0.1:4010/v1/categories', headers: {} })
 */
export async function sendRaw(sent: SentRequest): Promise<Exchange> {
  const url = new URL(sent.url);
  const { answers, closedByServer } = await sendOnConnection(url.origin, [rawRequestOf(sent)], {
    // A body without framing ends where the client ends its side; with no body there is nothing to end.
    halfClose: sent.wire?.unframed === true && Buffer.byteLength(sent.body ?? '') > 0,
    // One answer: however slowly it comes, only the connection's own bound ends the wait. The request asks
    // for the close: what comes before it, past the answer's framing (content after HEAD, past
    // Content-Length), is content the server sent with it; a server that keeps the connection open is
    // waited for a moment only.
    idleMs: RAW_TIMEOUT_MS,
    timeoutMs: RAW_TIMEOUT_MS,
    awaitClose: true,
    graceMs: STRAY_GRACE_MS,
  });
  const [answer] = answers;
  if (!answer)
    throw new NoAnswer(
      closedByServer ? 'the connection closed with no whole answer' : 'no whole answer before the connection timed out',
    );
  // The URL as it went out (URL's parsing removed dot segments and escaped what it escapes).
  return exchangeOf(
    { ...sent, url: `${url.origin}${url.pathname}${url.search}`, headers: { ...sent.headers } },
    answer,
  );
}
