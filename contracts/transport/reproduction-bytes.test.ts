import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { startFakeServer } from '../../mocks/server/index.js';
import { wrapping } from '../broken-variants/variant.js';
import type { ContractRequest, SentRequest } from '../core/exchange.js';
import { curlCommand } from './curl-command.js';
import { sendRequest } from './send-request.js';

// What the suite sends and what the printed curl sends, captured as bytes on one loopback socket server
// and compared field by field: the reproduction is only worth printing if it sends what went out.

const KEY = 'repro-key_1';

interface Captured {
  head: Buffer;
  body: Buffer;
}

/** A chunked body's data, joined (what a reader of chunked framing gets), or undefined while incomplete. */
function dechunked(rest: Buffer): Buffer | undefined {
  const parts: Buffer[] = [];
  for (let at = 0; ;) {
    const lineEnd = rest.indexOf('\r\n', at);
    if (lineEnd < 0) return undefined;
    const size = parseInt(rest.subarray(at, lineEnd).toString('latin1'), 16);
    if (size === 0) return Buffer.concat(parts);
    if (rest.length < lineEnd + 2 + size + 2) return undefined;
    parts.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

// A raw socket, not node:http: its parser would refuse a lower-case method or bytes before we saw them.
let server: Server;
let origin = '';
let captured: Captured[] = [];
beforeAll(async () => {
  server = createServer((socket) => {
    let data = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      const end = data.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = data.subarray(0, end);
      const rest = data.subarray(end + 4);
      const text = head.toString('latin1');
      let body: Buffer | undefined;
      if (/\r\ntransfer-encoding: *chunked/i.test(text)) body = dechunked(rest);
      else {
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(text)?.[1] ?? 0);
        body = rest.length >= length ? rest.subarray(0, length) : undefined;
      }
      if (!body) return;
      captured.push({ head, body });
      socket.end(
        'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}',
      );
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.close();
});

/** The one request the server gets while `send` runs. */
async function captureOf(send: () => Promise<unknown>): Promise<Captured> {
  captured = [];
  await send();
  expect(captured).toHaveLength(1);
  return captured[0]!;
}

/** What curl sends for `sent`, in bash, with the key in the environment only. */
function sentByCurl(sent: SentRequest): Promise<Captured> {
  const command = curlCommand(sent, KEY);
  expect(command).not.toContain(KEY);
  return captureOf(async () => {
    const child = spawn('bash', ['-c', `${command} -s -o /dev/null`], {
      env: { ...process.env, PETSTORE_API_KEY: KEY },
    });
    const [code] = (await once(child, 'close')) as [number];
    expect(code).toBe(0);
  });
}

/**
 * A request as comparable bytes: its request line, and each field as `name: value` in hex (the one space
 * a sender writes after the colon dropped), sorted; Connection is each client's own business.
 */
function wireOf({ head, body }: Captured, { ignore = [] as string[] } = {}) {
  const lines: Buffer[] = [];
  for (let at = 0; at <= head.length;) {
    const end = head.indexOf('\r\n', at);
    lines.push(head.subarray(at, end < 0 ? head.length : end));
    at = end < 0 ? head.length + 1 : end + 2;
  }
  const [requestLine, ...fields] = lines;
  const named = fields.flatMap((field) => {
    const colon = field.indexOf(':');
    const name = field.subarray(0, colon).toString('latin1');
    const value = field.subarray(field[colon + 1] === 0x20 ? colon + 2 : colon + 1);
    return [...ignore, 'connection'].includes(name.toLowerCase()) ? [] : [`${name}: ${value.toString('hex')}`];
  });
  return { requestLine: requestLine!.toString('latin1'), fields: named.sort(), body: body.toString('hex') };
}

const CASES: Array<[string, ContractRequest]> = [
  [
    'U+00A0 after the key (one byte, 0xA0)',
    { method: 'GET', path: '/categories', auth: { spell: (key) => `Bearer ${key}\u00a0` } },
  ],
  ['é and a tab inside a field', { method: 'GET', path: '/categories', headers: { 'X-Note': 'caf\u00e9\tend\t' } }],
  ['an empty field', { method: 'GET', path: '/categories', headers: { 'X-Empty': '' } }],
  ['a character above U+00FF in a field', { method: 'GET', path: '/categories', headers: { 'X-Snow': 'a\u2603' } }],
  ['a space and non-ASCII in the path and query', { method: 'GET', path: '/caté s?q=ü&r=a b' }],
  ['a dot segment', { method: 'GET', path: '/pets/../categories' }],
  ['brackets and braces in the query', { method: 'GET', path: '/categories?f[0]={x}' }],
  ['no Accept field', { method: 'GET', path: '/categories', headers: { Accept: null } }],
  [
    'a body without a Content-Type',
    { method: 'POST', path: '/categories', rawBody: '{"name":"x"}', contentType: null },
  ],
  ['HEAD', { method: 'HEAD', path: '/categories' }],
  ['a lower-case method (raw socket)', { method: 'get', path: '/categories' }],
  [
    'two Authorization fields (raw socket)',
    { method: 'GET', path: '/categories', auth: { authorization: `Bearer x\nBearer y\u00a0` } },
  ],
  [
    'bytes that are not UTF-8',
    { method: 'POST', path: '/categories', rawBody: new Uint8Array([0x7b, 0xff, 0x00, 0x7d, 0x0a]) },
  ],
  [
    'quotes, a newline, non-ASCII and 7,000 brackets',
    {
      method: 'POST',
      path: '/categories',
      rawBody: `{"name":"it's \\"x\\"\\n","d":"naïve ☃ $HOME \`id\`"}${'['.repeat(7_000)}${' '.repeat(100)}`,
    },
  ],
  [
    'HTTP/1.0 in absolute-form (raw socket)',
    { method: 'GET', path: '/categories', wire: { version: '1.0', target: 'absolute' } },
  ],
  [
    'a chunked body (raw socket)',
    { method: 'POST', path: '/categories', json: { name: 'chunked' }, wire: { chunked: true } },
  ],
];

describe('the printed curl sends what the suite sent, byte for byte', () => {
  it.each(CASES)('node:http and the raw socket sender: %s', async (_what, request) => {
    let sent: SentRequest | undefined;
    const suite = await captureOf(async () => {
      sent = (await sendRequest(`${origin}/v1`, KEY, request)).request;
    });
    const curl = await sentByCurl(sent!);
    // curl names itself; the suite sends no User-Agent.
    expect(wireOf(curl, { ignore: ['user-agent'] })).toEqual(wireOf(suite));
  });

  it('fetch (undici), as watch records what a client sent: U+00A0 and é go out as one byte each, and so does the curl', async () => {
    const suite = await captureOf(async () => {
      const response = await fetch(`${origin}/v1/categories`, {
        headers: { Authorization: `Bearer ${KEY}\u00a0`, 'X-Note': 'caf\u00e9' },
      });
      await response.arrayBuffer();
    });
    expect(suite.head.includes(Buffer.from(`Bearer ${KEY}\u00a0\r\n`, 'latin1'))).toBe(true);
    // As a proxy reads a request: the head as latin1 text, every field the client sent but Host (curl
    // writes its own, the same value, as \`Host\`), a value without its SP/HTAB padding only (RFC 9110 §5.5).
    const [requestLine = '', ...lines] = suite.head.toString('latin1').split('\r\n');
    const [method = '', target = ''] = requestLine.split(' ');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon);
      if (!/^(connection|host)$/i.test(name)) headers[name] = line.slice(colon + 1).replace(/^[ \t]+|[ \t]+$/g, '');
    }
    const curl = await sentByCurl({ method, url: `${origin}${target}`, headers });
    const host = { ignore: ['host'] };
    expect(wireOf(curl, host)).toEqual(wireOf(suite, host));
    expect(curl.head.toString('latin1')).toContain(`\r\nHost: ${origin.slice('http://'.length)}\r\n`);
  });
});

describe('the reported case, against a service that trims its token as JavaScript trims', () => {
  it('admits `Bearer <key>` + 0xA0 from the suite, and from the printed curl in bash alike', async () => {
    // String.prototype.trim removes U+00A0: the byte 0xA0 read as latin1 is trimmed away, UTF-8's C2 A0 is not.
    const service = await startFakeServer({
      port: 0,
      ...wrapping((request, next) => {
        const token = /^Bearer (.+)$/i.exec(request.header('authorization') ?? '')?.[1]?.trim();
        return next(token ? { headers: { Authorization: `Bearer ${token}` } } : undefined);
      }),
    });
    try {
      const key = 'free-test-key';
      const sent = await sendRequest(service.baseUrl, key, {
        method: 'GET',
        path: '/categories',
        auth: { spell: (each) => `Bearer ${each}\u00a0` },
      });
      expect(sent.status).toBe(200);
      const command = curlCommand(sent.request, key);
      expect(command).toContain(`"\${PETSTORE_API_KEY}"$'\\xa0'`);
      const child = spawn('bash', ['-c', `${command} -s -o /dev/null -w '%{http_code}'`], {
        env: { ...process.env, PETSTORE_API_KEY: key },
      });
      let status = '';
      child.stdout.on('data', (chunk: Buffer) => (status += chunk.toString()));
      await once(child, 'close');
      expect(status).toBe('200');
    } finally {
      await service.close();
    }
  });
});
