import type { ContractRequest, Exchange, SentRequest } from '../core/exchange.js';
import type { PacedSend } from '../transport/paced-sender.js';
import {
  exchangeOf,
  sendOnConnection,
  type ConnectionOptions,
  type ConnectionOutcome,
} from '../transport/raw-connection.js';
import type { RawRequest } from '../transport/request-bytes.js';

// Requests a check writes on a raw connection of its own (the connection and framing rules: pipelining,
// Connection: close, two Host fields) go through the run's session as every other request does: the
// budget admits and counts them (--max-requests, --max-minutes, --operations), the pacer waits out a
// used-up window before them and learns from their answers, and coverage sees each answer.

/** What the session lends a connection: where its target is, its admission, its pacer, its coverage. */
export interface ConnectionSession {
  baseUrl: string;
  apiKey: string;
  /** Admits and counts the requests (or throws: a budget used up, an operation outside --operations). */
  admit(requests: readonly ContractRequest[]): void;
  pacer: PacedSend;
  /** What an answer shows (coverage, the statuses with their error codes). */
  observe(exchange: Exchange): void;
}

/** Whether a field list carries the target's key as a bearer token. */
const carriesKey = (fields: ReadonlyArray<readonly [string, string]>, apiKey: string) =>
  fields.some(([name, value]) => /^authorization$/i.test(name) && value.trim() === `Bearer ${apiKey}`);

/**
 * A raw request as the budget and the pacer see one: its method, its path below the base URL, and
 * whether it carries the key (in its header section or its trailer section: either may be charged).
 * @example contractOf({ method: 'GET', target: '/v1/categories', headers: [] }, 'http://h/v1', 'k') // { method: 'GET', path: '/categories', auth: 'none' }
 */
export function contractOf(request: RawRequest, baseUrl: string, apiKey: string): ContractRequest {
  const base = new URL(baseUrl);
  const url = new URL(request.target, base.origin);
  const below = url.pathname.startsWith(base.pathname) ? url.pathname.slice(base.pathname.length) : url.pathname;
  const keyed = carriesKey(request.headers, apiKey) || carriesKey(request.body?.trailers ?? [], apiKey);
  return { method: request.method, path: `${below}${url.search}`, auth: keyed ? 'key' : 'none' };
}

/** The request as coverage and reports see it: its URL and its fields other than Host. */
function sentOf(origin: string, request: RawRequest): SentRequest {
  const url = new URL(request.target, origin);
  const headers = Object.fromEntries(request.headers.filter(([name]) => !/^host$/i.test(name)));
  return { method: request.method, url: url.href, headers };
}

/**
 * Writes `requests` on one connection to `origin` ({@link sendOnConnection}), admitted, paced, counted
 * and observed by the session as the requests of `send` are.
 * @example await sendCountedConnection(session, 'http://127.0.0.1:4010', [request], { pipelined: true })
 */
export async function sendCountedConnection(
  session: ConnectionSession,
  origin: string,
  requests: readonly RawRequest[],
  options: ConnectionOptions = {},
): Promise<ConnectionOutcome> {
  const contracts = requests.map((request) => contractOf(request, session.baseUrl, session.apiKey));
  session.admit(contracts);
  for (const contract of new Map(contracts.map((each) => [each.auth, each])).values())
    await session.pacer.turn(contract);
  const outcome = await sendOnConnection(origin, requests, options);
  outcome.answers.forEach((answer, index) => {
    const exchange = exchangeOf(sentOf(origin, requests[index]!), answer);
    session.pacer.observe(contracts[index]!, exchange);
    session.observe(exchange);
  });
  return outcome;
}
