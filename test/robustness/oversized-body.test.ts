// The 16 KiB body limit is enforced while the body streams in: the server answers 413 and closes
// the connection without waiting for (or buffering) the rest.
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { conforming } from '../support/spec-conformance.js';
import { expectStillAnswering, startAttackedServer, type AttackedServer } from './fake-server-fixture.js';
import { UNLIMITED_KEY } from './in-process-fake.js';
import { asResponse, rawExchange, requestHead } from './raw-http.js';
import { streamUpload } from './streaming-upload.js';

const MiB = 1024 * 1024;
const headers = [`Authorization: Bearer ${UNLIMITED_KEY.key}`, 'Content-Type: application/json'];
let attacked: AttackedServer;

beforeAll(async () => {
  attacked = await startAttackedServer();
});
afterEach(() => expectStillAnswering(attacked.server));
afterAll(() => attacked.server.close());

describe('bodies over the 16 KiB limit', () => {
  it('answers 413 while the body is still arriving: 1 MiB of a declared 50 MiB, then silence', async () => {
    // Were the whole body awaited, this connection would hang until the request timeout (408).
    const head = requestHead('POST', '/v1/categories', [...headers, `Content-Length: ${50 * MiB}`]);
    const { responses, closedByServer } = await rawExchange(attacked.server.url, [head, Buffer.alloc(MiB, 0x20)]);
    const { status, json } = await conforming('createCategory', asResponse(responses[0]!));
    expect(status).toBe(413);
    expect(json).toMatchObject({ code: 'payload_too_large' });
    expect(closedByServer).toBe(true);
  });

  it.each([
    ['a declared Content-Length', false],
    ['chunked encoding (no length known in advance)', true],
  ])('streams 64 MiB with %s: 413, and the connection closes long before the end', async (_name, chunked) => {
    const framing = chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${64 * MiB}`;
    const upload = await streamUpload(
      attacked.server.url,
      requestHead('POST', '/v1/categories', [...headers, framing]),
      { totalBytes: 64 * MiB, chunked },
    );
    expect(upload.responses[0]).toMatchObject({ status: 413, json: { code: 'payload_too_large', status: 413 } });
    expect(upload.responses[0]!.headers.connection).toBe('close');
    expect(upload.closedByServer).toBe(true);
    // What was written but not read sits in kernel buffers (a few MiB on loopback), never 64 MiB.
    expect(upload.bodyBytesWritten).toBeLessThan(64 * MiB);
    expect(attacked.logLines.some((line) => line.startsWith('POST /v1/categories 413 '))).toBe(true);
  });

  it('answers a body of exactly 16 KiB like any other (the limit is inclusive)', async () => {
    const body = JSON.stringify({ name: 'x', description: 'd' }).padEnd(16 * 1024, ' ');
    const response = await fetch(`${attacked.server.baseUrl}/categories`, {
      method: 'POST',
      headers: Object.fromEntries(headers.map((h) => h.split(': ') as [string, string])),
      body,
    });
    expect((await conforming('createCategory', response)).status).toBe(201);
  });

  it('answers a body of 16 KiB + 1 byte with 413', async () => {
    const body = JSON.stringify({ name: 'x' }).padEnd(16 * 1024 + 1, ' ');
    const response = await fetch(`${attacked.server.baseUrl}/categories`, {
      method: 'POST',
      headers: Object.fromEntries(headers.map((h) => h.split(': ') as [string, string])),
      body,
    });
    expect((await conforming('createCategory', response)).status).toBe(413);
  });

  it('answers 413 on the admin API too, and closes', async () => {
    const head = requestHead('POST', '/__admin/clock', ['Content-Type: application/json', `Content-Length: ${MiB}`]);
    const { responses, closedByServer } = await rawExchange(attacked.server.url, [head, Buffer.alloc(MiB, 0x20)]);
    expect(responses[0]).toMatchObject({ status: 413, json: { code: 'payload_too_large' } });
    expect(closedByServer).toBe(true);
  });
});
