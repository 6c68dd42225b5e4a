import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type AddressInfo, type Server } from 'node:net';
import type { ContractRequest } from '../core/exchange.js';
import { curlCommand } from './curl-command.js';
import { sendRequest } from './send-request.js';

// The forms curl cannot send (a trailer section, a body without framing ended by the close) are printed
// as the bytes themselves: the suite's sender and the printed command must write the same bytes.

const KEY = 'trailer-key_1';

// A raw socket that keeps every byte of a connection until the client ends its side or falls silent.
let server: Server;
let origin = '';
let captured: Buffer[] = [];
beforeAll(async () => {
  server = createServer((socket) => {
    let bytes = Buffer.alloc(0);
    let timer: NodeJS.Timeout | undefined;
    const answer = () => {
      clearTimeout(timer);
      if (socket.destroyed || socket.writableEnded) return;
      captured.push(bytes);
      socket.end('HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n');
    };
    socket.on('data', (chunk: Buffer) => {
      bytes = Buffer.concat([bytes, chunk]);
      clearTimeout(timer);
      timer = setTimeout(answer, 300);
    });
    socket.on('end', answer);
    socket.on('error', () => socket.destroy());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.close();
});

const CASES: Array<[string, ContractRequest]> = [
  [
    'the key in a trailer section, none in the header section',
    { method: 'POST', path: '/categories', json: { name: 'x' }, auth: 'none', wire: { trailerAuth: 'key' } },
  ],
  [
    'a Content-Type in a trailer section',
    {
      method: 'POST',
      path: '/categories',
      json: { name: 'x' },
      contentType: 'text/plain',
      wire: { trailers: { 'Content-Type': 'application/json' } },
    },
  ],
  [
    'HTTP/1.0, the body ended by the close',
    { method: 'POST', path: '/categories', json: { name: 'x' }, wire: { version: '1.0', unframed: true } },
  ],
];

describe('the printed reproduction of a form curl cannot send writes what the suite wrote', () => {
  it.each(CASES)(
    '%s',
    async (_what, request) => {
      captured = [];
      const exchange = await sendRequest(`${origin}/v1`, KEY, request);
      expect(exchange.status).toBe(204);
      const command = curlCommand(exchange.request, KEY);
      expect(command).not.toContain(KEY);
      const child = spawn('bash', ['-c', command], { env: { ...process.env, PETSTORE_API_KEY: KEY } });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('latin1')));
      await once(child, 'close');
      expect(output).toMatch(/^HTTP\/1\.1 204 /);
      expect(captured).toHaveLength(2);
      expect(captured[1]!.toString('latin1')).toBe(captured[0]!.toString('latin1'));
      if (request.wire?.trailerAuth)
        expect(captured[0]!.toString('latin1')).toMatch(/\r\n0\r\nAuthorization: Bearer trailer-key_1\r\n\r\n$/);
      if (request.wire?.unframed)
        expect(captured[0]!.toString('latin1')).not.toMatch(/\r\n(content-length|transfer-encoding):/i);
    },
    20_000,
  );
});
