import { requestHeaderOf, type Exchange } from '../core/exchange.js';
import type { BrokenPromise } from './broken-promise.js';

/**
 * The statuses a request asked for through `Prefer: code=<status>` (the fake's and Prism's test control
 * of which declared answer to give); empty for every request a client sends in earnest.
 */
function askedStatuses(exchange: Exchange): number[] {
  const prefer = requestHeaderOf(exchange, 'prefer') ?? '';
  return [...prefer.matchAll(/(?:^|[,;\s])code\s*=\s*"?(\d{3})/gi)].map((match) => Number(match[1]));
}

/**
 * The spec declares a 500 on every operation (a service may fail, and says so with its `Error`), but no
 * request is meant to provoke one: a 5xx to a request that did not ask for it is a defect the request
 * found, whichever check sent it and whatever status it expected.
 */
export function serverErrorBreaks(exchange: Exchange): BrokenPromise[] {
  if (exchange.status < 500 || exchange.status > 599 || askedStatuses(exchange).includes(exchange.status)) return [];
  const { method, url } = exchange.request;
  return [
    {
      promise: 'no_server_error',
      title: `${method} answered ${exchange.status}: the request made the service fail`,
      lines: [
        `Received: ${exchange.status} ${exchange.text.slice(0, 120).replace(/\s+/g, ' ')} to ${method} ${url} / Expected: an answer the spec declares for what was sent (a 4xx refusal, or success)`,
      ],
      exchange,
    },
  ];
}
