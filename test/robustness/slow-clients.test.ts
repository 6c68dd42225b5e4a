// Clients that open a connection and never send, or drip bytes and stop. The server runs with
// shortened timeouts here (the defaults are seconds long); nothing asserts how fast it answers.
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import {
  expectErrorResponse,
  expectStillAnswering,
  startAttackedServer,
  type AttackedServer,
} from './fake-server-fixture.js';
import { UNLIMITED_KEY } from './in-process-fake.js';
import { rawExchange, requestHead } from './raw-http.js';
import { waitUntil } from './wait-until.js';

const headers = [`Authorization: Bearer ${UNLIMITED_KEY.key}`, 'Content-Type: application/json'];
let attacked: AttackedServer;

beforeAll(async () => {
  attacked = await startAttackedServer({
    limits: {
      headersTimeoutMs: 1_000,
      requestTimeoutMs: 2_000,
      keepAliveTimeoutMs: 1_000,
      timeoutCheckIntervalMs: 100,
    },
  });
});
afterEach(() => expectStillAnswering(attacked.server));
afterAll(() => attacked.server.close());

describe('clients that hold a connection', () => {
  it('closes a connection that never sends a byte, with 408, while serving others', async () => {
    const silent = rawExchange(attacked.server.url, []);
    await expectStillAnswering(attacked.server);
    const { responses, closedByServer } = await silent;
    expect(closedByServer).toBe(true);
    expectErrorResponse(responses[0], 408, 'request_timeout');
  });

  it('closes a connection whose header block never ends', async () => {
    const { responses, closedByServer } = await rawExchange(
      attacked.server.url,
      'GET /v1/categories HTTP/1.1\r\nHost: x\r\nX-Slow: ',
    );
    expect(closedByServer).toBe(true);
    expectErrorResponse(responses[0], 408, 'request_timeout');
  });

  it('closes a connection whose body stops half-way, and logs it as aborted, not as a failure', async () => {
    const head = requestHead('POST', '/v1/categories', [...headers, 'Content-Length: 100']);
    const { responses, closedByServer } = await rawExchange(attacked.server.url, `${head}{"name":`);
    expect(closedByServer).toBe(true);
    expectErrorResponse(responses[0], 408, 'request_timeout');
    await waitUntil(() => attacked.logLines.some((line) => line.startsWith('POST /v1/categories aborted')));
    expect(attacked.logLines.join('\n')).not.toMatch(/failed/);
  });

  it('closes an idle keep-alive connection after its answer', async () => {
    const { responses, closedByServer } = await rawExchange(
      attacked.server.url,
      requestHead('GET', '/v1/categories', headers),
    );
    expect(responses.map((response) => response.status)).toEqual([200]);
    expect(closedByServer).toBe(true);
  });
});
