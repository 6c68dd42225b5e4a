import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { SentRequest } from '../core/exchange.js';
import { curlCommand } from './curl-command.js';

describe('curlCommand', () => {
  it('replaces the key with ${PETSTORE_API_KEY}, in double quotes so the shell expands it', () => {
    const command = curlCommand(
      { method: 'GET', url: 'http://127.0.0.1:4010/v1/categories', headers: { Authorization: 'Bearer s3cret-key' } },
      's3cret-key',
    );
    expect(command).toBe(
      `curl -X GET 'http://127.0.0.1:4010/v1/categories' -H "Authorization: Bearer \${PETSTORE_API_KEY}"`,
    );
    expect(command).not.toContain('s3cret-key');
  });

  it('prints a value derived from the key as the shell expression given, never the value', () => {
    const command = curlCommand(
      {
        method: 'GET',
        url: 'http://x/v1/categories',
        headers: { Authorization: 'Bearer S3CRET-KEY' },
        shown: { Authorization: 'Bearer ${PETSTORE_API_KEY^^}' },
      },
      's3cret-key',
    );
    expect(command).toBe(`curl -X GET 'http://x/v1/categories' -H "Authorization: Bearer \${PETSTORE_API_KEY^^}"`);
  });

  it('replaces a key sent in the query, as written or percent-encoded, and escapes the rest for double quotes', () => {
    for (const url of [
      'http://x/v1/categories?api_key=k+y/1&q=$HOME',
      'http://x/v1/categories?api_key=k%2By%2F1&q=$HOME',
    ]) {
      const command = curlCommand({ method: 'GET', url, headers: {} }, 'k+y/1');
      expect(command).toBe(`curl -X GET "http://x/v1/categories?api_key=\${PETSTORE_API_KEY}&q=\\$HOME"`);
    }
  });

  it('escapes bodies that are not UTF-8 byte for byte, read through process substitution', () => {
    const command = curlCommand({
      method: 'POST',
      url: 'http://x/v1/categories',
      headers: {},
      body: new Uint8Array([0x7b, 0xff, 0x00, 0x7d]),
    });
    expect(command).toBe(`curl -X POST 'http://x/v1/categories' --data-binary @<(printf '\\x7b\\xff\\x00\\x7d')`);
  });

  it('quotes bodies for the shell, single quotes included', () => {
    const command = curlCommand({
      method: 'POST',
      url: 'http://x/v1/categories',
      headers: { 'Content-Type': 'application/json' },
      body: `{'name': 'x'}`,
    });
    expect(command).toBe(
      `curl -X POST 'http://x/v1/categories' -H 'Content-Type: application/json' --data-binary '{'\\''name'\\'': '\\''x'\\''}'`,
    );
  });

  it('rebuilds a body padded with kilobytes of spaces with printf, byte for byte', () => {
    const body = `{"name":"big"}${' '.repeat(17_000)}`;
    const command = curlCommand({ method: 'POST', url: 'http://x/v1/categories', headers: {}, body });
    expect(command).toContain(`--data-binary '{"name":"big"}'"$(printf ' %.0s' {1..17000})"`);
    expect(command.length).toBeLessThan(200);
  });

  it("quotes what is not printable ASCII as $'...', next to the key as the variable", () => {
    const command = curlCommand(
      { method: 'GET', url: 'http://x/v1/categories', headers: { Authorization: 'Bearer s3cret-key\u00a0' } },
      's3cret-key',
    );
    expect(command).toBe(
      `curl -X GET 'http://x/v1/categories' -H 'Authorization: Bearer '"\${PETSTORE_API_KEY}"$'\\xc2\\xa0'`,
    );
  });

  it('sends a field given twice as two -H, and a method fetch would rewrite as it is', () => {
    const command = curlCommand(
      { method: 'get', url: 'http://x/v1/categories', headers: { Authorization: 'Bearer k1\nBearer s3cret-key' } },
      's3cret-key',
    );
    expect(command).toBe(
      `curl -X get 'http://x/v1/categories' -H 'Authorization: Bearer k1' -H "Authorization: Bearer \${PETSTORE_API_KEY}"`,
    );
  });
});

describe('curlCommand, run in bash', () => {
  const KEY = 'repro-key_1';
  let server: Server;
  let origin = '';
  // A raw socket, not node:http: its parser would refuse a lower-case method before we saw it.
  let received: { head: string; body: Buffer } | undefined;
  beforeAll(async () => {
    server = createServer((socket) => {
      let data = Buffer.alloc(0);
      socket.on('data', (chunk: Buffer) => {
        data = Buffer.concat([data, chunk]);
        const end = data.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = data.subarray(0, end).toString('latin1');
        if (/\r\ntransfer-encoding: *chunked/i.test(head)) {
          const rest = data.subarray(end + 4).toString('latin1');
          if (!rest.endsWith('0\r\n\r\n')) return;
          // Chunk sizes and their data, joined: what a reader of chunked framing gets.
          let body = '';
          for (let at = 0, size = 1; size > 0;) {
            const lineEnd = rest.indexOf('\r\n', at);
            size = parseInt(rest.slice(at, lineEnd), 16);
            body += rest.slice(lineEnd + 2, lineEnd + 2 + size);
            at = lineEnd + 2 + size + 2;
          }
          received = { head, body: Buffer.from(body, 'latin1') };
        } else {
          const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
          if (data.length < end + 4 + length) return;
          received = { head, body: data.subarray(end + 4, end + 4 + length) };
        }
        socket.end('HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.close();
  });

  const CASES: Array<[string, SentRequest]> = [
    [
      'U+00A0 after the key',
      { method: 'GET', url: '/v1/categories', headers: { Authorization: `Bearer ${KEY}\u00a0` } },
    ],
    ['a tab after the scheme', { method: 'GET', url: '/v1/categories', headers: { Authorization: `Bearer\t${KEY}` } }],
    ['two fields', { method: 'GET', url: '/v1/categories', headers: { Authorization: `Bearer x\nBearer ${KEY}` } }],
    ['a lower-case method', { method: 'get', url: '/v1/categories', headers: {} }],
    ['the key in the query', { method: 'GET', url: `/v1/categories?api_key=${KEY}&q=$HOME`, headers: {} }],
    [
      'bytes that are not UTF-8',
      {
        method: 'POST',
        url: '/v1/categories',
        headers: { 'Content-Type': 'application/json' },
        body: new Uint8Array([0x7b, 0xff, 0x00, 0x7d, 0x0a]),
      },
    ],
    [
      'quotes, a newline, non-ASCII and 7,000 brackets',
      {
        method: 'POST',
        url: '/v1/categories',
        headers: { 'Content-Type': 'application/json' },
        body: `{"name":"it's \\"x\\"\\n","d":"naïve ☃ $HOME \`id\`"}${'['.repeat(7_000)}${' '.repeat(100)}`,
      },
    ],
  ];

  async function sentByCurl(sent: SentRequest) {
    const command = curlCommand({ ...sent, url: `${origin}${sent.url}` }, KEY);
    expect(command).not.toContain(KEY);
    received = undefined;
    const child = spawn('bash', ['-c', `${command} -s -o /dev/null`], {
      env: { ...process.env, PETSTORE_API_KEY: KEY },
    });
    const [code] = (await once(child, 'close')) as [number];
    expect(code).toBe(0);
    return received!;
  }

  it('sends the request line and framing of a wire form: HTTP/1.0, absolute-form, chunks', async () => {
    const request: SentRequest = {
      method: 'GET',
      url: '/v1/categories',
      headers: {},
      wire: { version: '1.0', target: 'absolute' },
    };
    expect((await sentByCurl(request)).head.split('\r\n')[0]).toBe(`GET ${origin}/v1/categories HTTP/1.0`);
    const body = '{"name":"chunked"}';
    const chunked = await sentByCurl({
      method: 'POST',
      url: '/v1/categories',
      headers: {},
      body,
      wire: { chunked: true },
    });
    expect(chunked.head).toMatch(/\r\nTransfer-Encoding: chunked/i);
    expect(chunked.body.toString('latin1')).toBe(body);
  });

  it.each(CASES)('sends the same bytes: %s', async (_what, sent) => {
    const [requestLine = '', ...fields] = (await sentByCurl(sent)).head.split('\r\n');
    expect(requestLine).toBe(`${sent.method} ${sent.url} HTTP/1.1`);
    const latin1 = (text: string) => Buffer.from(text, 'utf8').toString('latin1');
    for (const [name, value] of Object.entries(sent.headers)) {
      const values = fields
        .filter((field) => field.toLowerCase().startsWith(`${name.toLowerCase()}:`))
        .map((field) => field.slice(name.length + 1).replace(/^ /, ''));
      expect(values).toEqual(value.split('\n').map(latin1));
    }
    const body = typeof sent.body === 'string' ? Buffer.from(sent.body, 'utf8') : Buffer.from(sent.body ?? []);
    expect(received!.body.equals(body)).toBe(true);
  });
});
