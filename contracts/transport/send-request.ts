import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import request from 'supertest';
import {
  parsedJson,
  type ContractRequest,
  type Exchange,
  type RequestAuth,
  type SentRequest,
  type WireForm,
} from '../core/exchange.js';
import { needsRawSocket, sendRaw } from './raw-request.js';

const RESPONSE_TIMEOUT_MS = 30_000;

// One connection reused across requests, as a real client does (a new one each time was a fifth of a run).
const AGENTS = {
  'http:': new HttpAgent({ keepAlive: true, maxSockets: 4 }),
  'https:': new HttpsAgent({ keepAlive: true, maxSockets: 4 }),
};

function authorizationField(auth: RequestAuth, apiKey: string): [string, string] | undefined {
  if (auth === 'none') return undefined;
  if (auth === 'key') return ['Authorization', `Bearer ${apiKey}`];
  if ('spell' in auth)
    return auth.query === undefined && auth.body === undefined
      ? [auth.header ?? 'Authorization', auth.spell(apiKey)]
      : undefined;
  return ['Authorization', 'bearer' in auth ? `Bearer ${auth.bearer}` : auth.authorization];
}

/** Sets a field, replacing one of the same name in any case, so a check can send `content-TYPE` alone. */
function setField(headers: Record<string, string>, name: string, value: string | null): void {
  for (const existing of Object.keys(headers))
    if (existing.toLowerCase() === name.toLowerCase()) delete headers[existing];
  if (value !== null) headers[name] = value;
}

/** The request as it goes on the wire (without what Node adds: Host, Connection, Content-Length). */
export function sentRequest(baseUrl: string, contract: ContractRequest, apiKey: string): SentRequest {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const authorization = authorizationField(contract.auth ?? 'key', apiKey);
  if (authorization) setField(headers, ...authorization);
  let body: string | Uint8Array | undefined;
  const auth = contract.auth;
  const inBody = typeof auth === 'object' && 'spell' in auth ? auth.body : undefined;
  const bodyKey = inBody && (auth as { spell: (key: string) => string }).spell(apiKey);
  if (inBody === 'form') body = `access_token=${encodeURIComponent(bodyKey!)}`;
  else if (contract.rawBody !== undefined) body = contract.rawBody;
  else if (inBody === 'json') body = JSON.stringify({ ...(contract.json as object), access_token: bodyKey });
  else if (contract.json !== undefined) body = JSON.stringify(contract.json);
  if (body !== undefined && contract.contentType !== null)
    setField(
      headers,
      'Content-Type',
      inBody === 'form' ? 'application/x-www-form-urlencoded' : (contract.contentType ?? 'application/json'),
    );
  for (const [name, value] of Object.entries(contract.headers ?? {})) setField(headers, name, value);
  const shown =
    typeof auth === 'object' && 'spell' in auth && auth.shown !== undefined && authorization
      ? { [authorization[0]]: auth.shown }
      : undefined;
  let url = `${baseUrl.replace(/\/$/, '')}${contract.path}`;
  if (typeof auth === 'object' && 'spell' in auth && auth.query !== undefined) {
    url += `${contract.path.includes('?') ? '&' : '?'}${encodeURIComponent(auth.query)}=${encodeURIComponent(auth.spell(apiKey))}`;
  }
  return {
    method: contract.method,
    url,
    headers,
    ...(body !== undefined && { body }),
    ...(shown && { shown }),
    ...(contract.wire && { wire: wireSent(contract.wire, apiKey) }),
  };
}

/** A wire form as it goes out: an `Authorization` the trailer section carries spelt into its fields. */
function wireSent({ trailerAuth, ...wire }: WireForm, apiKey: string): WireForm {
  const field = trailerAuth && authorizationField(trailerAuth, apiKey);
  return field ? { ...wire, trailers: { ...wire.trailers, [field[0]]: field[1] } } : wire;
}

/**
 * Whether a request failed because the server closed the pooled connection as the request went out
 * (an idle connection past the server's keep-alive timeout: Node's is 5 s, proxies close them too). No
 * answer came, so the request is sent again on a new connection.
 */
function closedIdleConnection(error: unknown): boolean {
  const { code, message, response } = error as { code?: string; message?: string; response?: unknown };
  return response === undefined && (code === 'ECONNRESET' || code === 'EPIPE' || message === 'socket hang up');
}

/**
 * Sends one request with supertest and returns it with the response, the body kept as raw text.
 * Header names go out in the case given (Node keeps it), bodies byte for byte. A connection the server
 * closed while it sat idle in the pool is never a failure: the request goes again, once, on a new one.
 * @example await sendRequest('http://127.0.0.1:4010/v1', 'free-test-key', { method: 'GET', path: '/categories' })
 */
export async function sendRequest(
  baseUrl: string,
  apiKey: string,
  contract: ContractRequest,
  extra: ExtraHeaders = { headers: [], shown: false },
): Promise<Exchange> {
  const sent = sentRequest(baseUrl, contract, apiKey);
  // A method token Node would rewrite or fetch refuses, or a field sent twice: written on a socket as given.
  const repeated = Object.values(sent.headers).some((value) => value.includes('\n'));
  // A form of the request line or framing, or an expectation (Node's client would wait on a 100 itself).
  const ownForm = sent.wire !== undefined || Object.keys(sent.headers).some((name) => /^expect$/i.test(name));
  // A character above U+00FF in a field, which Node's client refuses: its UTF-8 bytes, on a socket.
  const wide = Object.entries(sent.headers).some(([name, value]) => /[\u0100-\uffff]/.test(name + value));
  // A HEAD: Node's client never reads past its header section, so content a server wrongly sends after
  // it (RFC 9110 §9.3.2) is seen only on a socket read to the close.
  const head = sent.method === 'HEAD';
  if (needsRawSocket(sent.method, repeated) || ownForm || wide || head) return sendRaw(sent);
  try {
    return await sendOnce(baseUrl, sent, extra);
  } catch (error) {
    if (!closedIdleConnection(error)) throw error;
    return sendOnce(baseUrl, sent, extra);
  }
}

/**
 * Headers the user adds to every request (`--header`: a gateway's, tracing's). They go on the wire
 * but not into the exchange, so nothing judges them and no curl shows them, unless `shown`.
 * A header the request sets itself wins.
 */
export interface ExtraHeaders {
  headers: ReadonlyArray<readonly [string, string]>;
  shown: boolean;
}

async function sendOnce(baseUrl: string, sent: SentRequest, extra: ExtraHeaders): Promise<Exchange> {
  const origin = new URL(baseUrl).origin;
  const agent = request(origin);
  const method = sent.method.toLowerCase() as 'get';
  // The path as written (not re-encoded by URL): percent-escapes and odd bytes are part of the test.
  let test = agent[method](sent.url.slice(origin.length))
    .agent(AGENTS[new URL(baseUrl).protocol as keyof typeof AGENTS])
    .redirects(0)
    .timeout({ response: RESPONSE_TIMEOUT_MS })
    // Bytes as they are: superagent would otherwise JSON-serialise a Buffer sent as application/json.
    .serialize((body: unknown) => body as string)
    // Keep every body as text, whatever its media type: conformance judges the bytes, not superagent.
    .buffer(true)
    .parse((response, done) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => done(null, Buffer.concat(chunks)));
    });
  const own = new Set(Object.keys(sent.headers).map((name) => name.toLowerCase()));
  // Only the request's own fields (and Host, Connection, Content-Length): superagent's default
  // Accept-Encoding would be a field no reproduction shows.
  if (!own.has('accept-encoding')) test = test.unset('Accept-Encoding');
  const added = extra.headers.filter(([name]) => !own.has(name.toLowerCase()));
  for (const [name, value] of added) test = test.set(name, value);
  for (const [name, value] of Object.entries(sent.headers)) test = test.set(name, value);
  // Always bytes: given a string without a Content-Type, superagent would declare it a form.
  const body = sent.body === undefined ? undefined : Buffer.from(sent.body);
  const response = body === undefined ? await test : await test.send(body);
  const bytes = Buffer.isBuffer(response.body) ? new Uint8Array(response.body) : new Uint8Array();
  const text = Buffer.from(bytes).toString('utf8');
  const headers = Object.fromEntries(
    Object.entries(response.headers as Record<string, string | string[]>).map(([name, value]) => [
      name.toLowerCase(),
      Array.isArray(value) ? value.join(', ') : value,
    ]),
  );
  // The target as it went out: superagent parses the URL, which escapes a space or a non-ASCII character.
  const path = (response as { req?: { path?: string } }).req?.path;
  const asSent = path === undefined ? sent : { ...sent, url: `${origin}${path}` };
  const shown =
    extra.shown && added.length > 0
      ? { ...asSent, headers: { ...asSent.headers, ...Object.fromEntries(added) } }
      : asSent;
  return { request: shown, status: response.status, headers, text, json: parsedJson(text), bytes };
}
