import request from 'supertest';
import type { ContractRequest, Exchange, RequestAuth, SentRequest } from './exchange.js';

const RESPONSE_TIMEOUT_MS = 30_000;

function authorizationHeader(auth: RequestAuth, apiKey: string): string | undefined {
  if (auth === 'none') return undefined;
  if (auth === 'key') return `Bearer ${apiKey}`;
  return 'bearer' in auth ? `Bearer ${auth.bearer}` : auth.authorization;
}

function sentRequest(baseUrl: string, contract: ContractRequest, apiKey: string): SentRequest {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const authorization = authorizationHeader(contract.auth ?? 'key', apiKey);
  if (authorization !== undefined) headers.Authorization = authorization;
  let body: string | undefined;
  if (contract.rawBody !== undefined) body = contract.rawBody;
  else if (contract.json !== undefined) body = JSON.stringify(contract.json);
  if (body !== undefined) headers['Content-Type'] = contract.contentType ?? 'application/json';
  return { method: contract.method, url: `${baseUrl.replace(/\/$/, '')}${contract.path}`, headers, body };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Sends one request with supertest and returns it with the response, the body kept as raw text.
 * @example await sendRequest('http://127.0.0.1:4010/v1', 'free-test-key', { method: 'GET', path: '/categories' })
 */
export async function sendRequest(baseUrl: string, apiKey: string, contract: ContractRequest): Promise<Exchange> {
  const sent = sentRequest(baseUrl, contract, apiKey);
  const url = new URL(sent.url);
  const agent = request(url.origin);
  const method = sent.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
  let test = agent[method](`${url.pathname}${url.search}`)
    .redirects(0)
    .timeout({ response: RESPONSE_TIMEOUT_MS })
    // Keep every body as text, whatever its media type: conformance judges the bytes, not superagent.
    .buffer(true)
    .parse((response, done) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => done(null, text));
    });
  for (const [name, value] of Object.entries(sent.headers)) test = test.set(name, value);
  const response = sent.body === undefined ? await test : await test.send(sent.body);
  const text = typeof response.body === 'string' ? response.body : '';
  const headers = Object.fromEntries(
    Object.entries(response.headers as Record<string, string | string[]>).map(([name, value]) => [
      name.toLowerCase(),
      Array.isArray(value) ? value.join(', ') : value,
    ]),
  );
  return { request: sent, status: response.status, headers, text, json: parseJson(text) };
}
