import { afterEach, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { sendRequest, sentRequest } from './send-request.js';

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A server on a random loopback port answering 200 `{"n":<count>}`, with `onRequest` deciding first. */
async function listening(
  configure: (server: Server) => void,
  onRequest: (socketRequests: number) => 'answer' | 'destroy' = () => 'answer',
): Promise<string> {
  let count = 0;
  const perSocket = new WeakMap<object, number>();
  server = createServer((request, response) => {
    const seen = (perSocket.get(request.socket) ?? 0) + 1;
    perSocket.set(request.socket, seen);
    if (onRequest(seen) === 'destroy') return void request.socket.destroy();
    count += 1;
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ n: count }));
  });
  configure(server);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

describe('sendRequest over pooled connections', () => {
  it('sends again on a new connection when the server closed the pooled one as the request went out', async () => {
    // Every connection dies on its second request, as when a keep-alive timeout and a request cross.
    const baseUrl = await listening(
      () => undefined,
      (seen) => (seen > 1 ? 'destroy' : 'answer'),
    );
    const answers = [];
    for (let index = 0; index < 3; index += 1)
      answers.push(await sendRequest(baseUrl, 'k', { method: 'GET', path: '/categories' }));
    expect(answers.map(({ status, json }) => [status, json])).toEqual([
      [200, { n: 1 }],
      [200, { n: 2 }],
      [200, { n: 3 }],
    ]);
  });

  it('survives a server whose keep-alive timeout is shorter than the pause between requests', async () => {
    const baseUrl = await listening((created) => (created.keepAliveTimeout = 50));
    expect((await sendRequest(baseUrl, 'k', { method: 'GET', path: '/categories' })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(
      (await sendRequest(baseUrl, 'k', { method: 'POST', path: '/categories', json: { name: 'x' } })).json,
    ).toEqual({ n: 2 });
  });

  it('still fails when the server never answers at all', async () => {
    const baseUrl = await listening(
      () => undefined,
      () => 'destroy',
    );
    await expect(sendRequest(baseUrl, 'k', { method: 'GET', path: '/categories' })).rejects.toThrow(
      /socket hang up|ECONNRESET/,
    );
  });
});

describe('answers read alike by both senders', () => {
  it('keeps a header value that ends in the byte 0xA0 (only SP and HTAB are padding), on node:http and on the raw socket', async () => {
    // The answer's bytes exactly: Node's own server would choose the header's encoding itself.
    const answer = Buffer.concat([
      Buffer.from('HTTP/1.1 200 OK\r\nX-Note: caf'),
      Buffer.from([0xe9, 0xa0]),
      Buffer.from(' \r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}'),
    ]);
    const raw = createNetServer((socket) => socket.once('data', () => socket.end(answer)));
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    try {
      const baseUrl = `http://127.0.0.1:${(raw.address() as AddressInfo).port}/v1`;
      const pooled = await sendRequest(baseUrl, 'k', { method: 'GET', path: '/categories' });
      // Two Authorization fields go out on a socket of their own.
      const onSocket = await sendRequest(baseUrl, 'k', {
        method: 'GET',
        path: '/categories',
        auth: { authorization: 'Bearer a\nBearer b' },
      });
      expect([pooled.headers['x-note'], onSocket.headers['x-note']]).toEqual(['caf\u00e9\u00a0', 'caf\u00e9\u00a0']);
    } finally {
      raw.close();
    }
  });
});

describe('sentRequest', () => {
  it('puts a key meant for the query there, percent-encoded after any query the path has, and sends no Authorization', () => {
    const auth = { spell: (key: string) => key, query: 'api_key', invalid: true as const };
    expect(sentRequest('http://x/v1/', { method: 'GET', path: '/categories', auth }, 'k+y/1')).toEqual({
      method: 'GET',
      url: 'http://x/v1/categories?api_key=k%2By%2F1',
      headers: { Accept: 'application/json' },
    });
    expect(sentRequest('http://x/v1', { method: 'GET', path: '/categories?x=1', auth }, 'k').url).toBe(
      'http://x/v1/categories?x=1&api_key=k',
    );
  });
});
