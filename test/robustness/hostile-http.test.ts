// HTTP-level attacks over raw sockets: framing, header blocks, methods fetch cannot send. Each gets a
// clear 4xx `Error`, and the server answers the next request.
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { conforming } from '../support/spec-conformance.js';
import {
  expectErrorResponse,
  expectStillAnswering,
  startAttackedServer,
  type AttackedServer,
} from './fake-server-fixture.js';
import { UNLIMITED_KEY } from './in-process-fake.js';
import { asResponse, rawExchange, requestHead } from './raw-http.js';

const auth = `Authorization: Bearer ${UNLIMITED_KEY.key}`;
const json = 'Content-Type: application/json';
let attacked: AttackedServer;

beforeAll(async () => {
  attacked = await startAttackedServer();
});
afterEach(() => expectStillAnswering(attacked.server));
afterAll(() => attacked.server.close());

describe('request framing', () => {
  it('refuses Content-Length together with Transfer-Encoding (request smuggling) with 400 and closes', async () => {
    const head = requestHead('POST', '/v1/categories', [
      auth,
      json,
      'Content-Length: 16',
      'Transfer-Encoding: chunked',
    ]);
    const { responses, closedByServer } = await rawExchange(
      attacked.server.url,
      `${head}0\r\n\r\nGET /v1/x HTTP/1.1\r\n\r\n`,
    );
    expect(responses).toHaveLength(1);
    expectErrorResponse(responses[0], 400, 'invalid_request');
    expect(closedByServer).toBe(true);
  });

  it.each([
    ['two different Content-Length values', ['Content-Length: 5', 'Content-Length: 6']],
    ['a negative Content-Length', ['Content-Length: -1']],
    ['a non-numeric Content-Length', ['Content-Length: 12abc']],
    ['an unknown Transfer-Encoding', ['Transfer-Encoding: gzip, chunked, identity']],
  ])('refuses %s with 400', async (_name, framing) => {
    const { responses, closedByServer } = await rawExchange(
      attacked.server.url,
      `${requestHead('POST', '/v1/categories', [auth, json, ...framing])}{"name":"x"}`,
    );
    expectErrorResponse(responses[0], 400, 'invalid_request');
    expect(closedByServer).toBe(true);
  });

  it('refuses a malformed chunk size with 400', async () => {
    const head = requestHead('POST', '/v1/categories', [auth, json, 'Transfer-Encoding: chunked']);
    const { responses } = await rawExchange(attacked.server.url, `${head}zz\r\n{"name":"x"}\r\n0\r\n\r\n`);
    expectErrorResponse(responses[0], 400, 'invalid_request');
  });

  it('answers a request followed by garbage, then refuses the garbage: the first answer is never lost', async () => {
    const body = '{"name":"pipelined"}';
    const head = requestHead('POST', '/v1/categories', [auth, json, `Content-Length: ${body.length}`]);
    const { responses, closedByServer } = await rawExchange(attacked.server.url, `${head}${body}GARBAGE \x00\r\n\r\n`);
    expect(responses).toHaveLength(2);
    const created = await conforming('createCategory', asResponse(responses[0]!));
    expect(created).toMatchObject({ status: 201, json: { name: 'pipelined' } });
    expectErrorResponse(responses[1], 400, 'invalid_request');
    expect(closedByServer).toBe(true);
  });

  it('joins repeated Authorization headers as fetch does, so two keys are refused here as in an msw host', async () => {
    // Node's parser keeps only the first Authorization; the operations read all of them, like fetch's Headers.
    const head = requestHead('GET', '/v1/categories', [auth, 'Authorization: Bearer free-test-key']);
    const { responses } = await rawExchange(attacked.server.url, head, { responses: 1 });
    expectErrorResponse(responses[0], 401, 'invalid_api_key');
  });

  it('refuses bytes that are not HTTP at all', async () => {
    const { responses } = await rawExchange(
      attacked.server.url,
      Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03, 0x0d, 0x0a, 0x0d, 0x0a]),
    );
    expectErrorResponse(responses[0], 400, 'invalid_request');
  });

  it.each([
    ['a control character', 'GET /v1/\x1b[31mcategories'],
    ['a raw non-ASCII byte', 'GET /v1/\xff\xfe'],
  ])('refuses a request target with %s', async (_name, requestLine) => {
    const { responses } = await rawExchange(
      attacked.server.url,
      Buffer.from(`${requestLine} HTTP/1.1\r\nHost: x\r\n${auth}\r\n\r\n`, 'latin1'),
    );
    expectErrorResponse(responses[0], 400, 'invalid_request');
  });
});

describe('header blocks', () => {
  it('refuses a header block over 16 KiB with 431 and an Error body', async () => {
    const { responses, closedByServer } = await rawExchange(
      attacked.server.url,
      requestHead('GET', '/v1/categories', [auth, `X-Padding: ${'a'.repeat(20_000)}`]),
    );
    expectErrorResponse(responses[0], 431, 'request_header_fields_too_large');
    expect(closedByServer).toBe(true);
  });

  it('refuses an endless header block without buffering it: 431 after 16 KiB, not at the end', async () => {
    const lines = Array.from({ length: 4_000 }, (_, i) => `X-Header-${i}: ${'v'.repeat(40)}\r\n`).join('');
    const { responses } = await rawExchange(attacked.server.url, `GET /v1/categories HTTP/1.1\r\nHost: x\r\n${lines}`);
    expectErrorResponse(responses[0], 431, 'request_header_fields_too_large');
  });

  // Past `maxHeadersCount` (100), Node 20 drops the extra fields and Node 22 and later refuse the
  // request (llhttp's header overflow): either way nothing beyond the limit is kept, and no 5xx.
  const NODE_MAJOR = Number(process.versions.node.split('.')[0]);
  it(`${NODE_MAJOR >= 22 ? 'refuses with 431' : 'answers, reading the first 100 fields,'} a request with 500 small header fields (Node ${NODE_MAJOR})`, async () => {
    const padding = Array.from({ length: 500 }, (_, i) => `X-${i}: v`);
    const { responses } = await rawExchange(
      attacked.server.url,
      requestHead('GET', '/v1/categories', [auth, ...padding]),
      { responses: 1 },
    );
    if (NODE_MAJOR >= 22) expectErrorResponse(responses[0], 431, 'request_header_fields_too_large');
    else expect((await conforming('listCategories', asResponse(responses[0]!))).status).toBe(200);
  });

  it('refuses a control character in the Authorization header with 400', async () => {
    const { responses } = await rawExchange(
      attacked.server.url,
      requestHead('GET', '/v1/categories', ['Authorization: Bearer \x01free-test-key']),
    );
    expectErrorResponse(responses[0], 400, 'invalid_request');
  });

  it('answers a 15 KiB Authorization header with 401 invalid_api_key', async () => {
    const { responses } = await rawExchange(
      attacked.server.url,
      requestHead('GET', '/v1/categories', [`Authorization: Bearer ${'k'.repeat(15_000)}`]),
      { responses: 1 },
    );
    const { status, json: body, headers } = await conforming('listCategories', asResponse(responses[0]!));
    expect(status).toBe(401);
    expect(body).toMatchObject({ code: 'invalid_api_key' });
    expect(headers['www-authenticate']).toContain('error="invalid_token"');
  });
});

describe('methods', () => {
  it('answers TRACE on a known path with 405 and Allow, and on an unknown one with 404', async () => {
    const known = await rawExchange(attacked.server.url, requestHead('TRACE', '/v1/categories', [auth]), {
      responses: 1,
    });
    expectErrorResponse(known.responses[0], 405, 'method_not_allowed');
    expect(known.responses[0]!.headers.allow).toBe('GET, POST');
    const unknown = await rawExchange(attacked.server.url, requestHead('TRACE', '/v1/nowhere', [auth]), {
      responses: 1,
    });
    expectErrorResponse(unknown.responses[0], 404, 'not_found');
  });

  it('refuses CONNECT: the fake is not a proxy', async () => {
    const { responses, closedByServer } = await rawExchange(
      attacked.server.url,
      'CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\n',
    );
    expectErrorResponse(responses[0], 400, 'invalid_request');
    expect(closedByServer).toBe(true);
  });

  it('answers an unknown method token with 400', async () => {
    const { responses } = await rawExchange(attacked.server.url, requestHead('BREW', '/v1/categories', [auth]));
    expectErrorResponse(responses[0], 400, 'invalid_request');
  });
});
