import type { Exchange } from '../../contracts/core/exchange.js';

/**
 * An answer to `GET /v1/categories` with the given headers (names lower-cased, as exchanges keep them),
 * for unit tests of what the suite reads from headers.
 * @example answerWith({ 'retry-after': '30' }, 429)
 */
export function answerWith(headers: Record<string, string>, status = 200): Exchange {
  return {
    request: { method: 'GET', url: 'http://127.0.0.1/v1/categories', headers: {} },
    status,
    headers,
    text: '',
    json: undefined,
  };
}
