// Clients that vanish mid-body: nothing is created for them, the log says "aborted" (not a failure of
// the fake, and no 500 is attempted), and the server keeps answering.
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import net from 'node:net';
import { conforming } from '../support/spec-conformance.js';
import { expectStillAnswering, startAttackedServer, type AttackedServer } from './fake-server-fixture.js';
import { UNLIMITED_KEY } from './in-process-fake.js';
import { requestHead } from './raw-http.js';
import { waitUntil } from './wait-until.js';

const authorization = `Bearer ${UNLIMITED_KEY.key}`;
let attacked: AttackedServer;

beforeAll(async () => {
  attacked = await startAttackedServer();
});
afterEach(() => expectStillAnswering(attacked.server));
afterAll(() => attacked.server.close());

/** Connects, writes a head and half a body, then resets the connection. */
function vanishMidBody(url: string): Promise<void> {
  const head = requestHead('POST', '/v1/categories', [
    `Authorization: ${authorization}`,
    'Content-Type: application/json',
    'Content-Length: 1000',
  ]);
  return new Promise((resolve) => {
    const socket = net.connect(Number(new URL(url).port), '127.0.0.1', () =>
      socket.write(`${head}{"name":"half`, () => socket.destroy()),
    );
    socket.on('error', () => undefined);
    socket.on('close', () => resolve());
  });
}

describe('clients that abort mid-body', () => {
  it('50 at once: each logged as aborted, none as a failure, and no category created', async () => {
    const before = attacked.logLines.length;
    await Promise.all(Array.from({ length: 50 }, () => vanishMidBody(attacked.server.url)));
    await waitUntil(
      () =>
        attacked.logLines.slice(before).filter((line) => line.startsWith('POST /v1/categories aborted: ')).length ===
        50,
    );
    expect(attacked.logLines.slice(before).filter((line) => line.includes(' failed: '))).toEqual([]);
    const list = await conforming(
      'listCategories',
      await fetch(`${attacked.server.baseUrl}/categories`, { headers: { authorization } }),
    );
    expect((list.json as Array<{ name: string }>).filter((category) => category.name.startsWith('half'))).toEqual([]);
  });
});
