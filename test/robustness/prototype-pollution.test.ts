// `__proto__`, `constructor` and `prototype` wherever a client can put a name: JSON keys (top level and
// nested), the admin API's body, header names, query parameters and path segments. Afterwards no
// built-in prototype has gained or changed a property, in the realm the fake's code runs in.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { answerAdmin } from '../../mocks/server/admin.js';
import { expectStillAnswering, startAttackedServer, type AttackedServer } from './fake-server-fixture.js';
import { inProcessFake, send, UNLIMITED_KEY } from './in-process-fake.js';
import { rawExchange, requestHead } from './raw-http.js';

const PROTOTYPES = {
  Object: Object.prototype,
  Array: Array.prototype,
  Function: Function.prototype,
  String: String.prototype,
};
const snapshot = () =>
  Object.fromEntries(
    Object.entries(PROTOTYPES).map(([name, proto]) => [
      name,
      Object.getOwnPropertyNames(proto)
        .sort()
        .map((key) => `${key}:${typeof Object.getOwnPropertyDescriptor(proto, key)?.value}`),
    ]),
  );

const POISONED_BODIES = [
  '{"__proto__":{"polluted":"yes"}}',
  '{"name":"x","__proto__":{"polluted":"yes"}}',
  '{"constructor":{"prototype":{"polluted":"yes"}}}',
  '{"name":{"__proto__":{"polluted":"yes"}},"description":{"constructor":{"prototype":{"polluted":"yes"}}}}',
  '[{"__proto__":{"polluted":"yes"}}]',
  '{"advanceSeconds":1,"__proto__":{"polluted":"yes"}}',
  '{"__proto__":{"advanceSeconds":5}}',
  '{"prototype":{"polluted":"yes"},"toString":"x","hasOwnProperty":"x"}',
];

let attacked: AttackedServer;
const before = snapshot();

beforeAll(async () => {
  attacked = await startAttackedServer();
});
afterAll(() => attacked.server.close());

describe('prototype pollution', () => {
  it('through the handlers in-process', async () => {
    const fake = inProcessFake();
    for (const body of POISONED_BODIES) {
      const response = await send(fake, '/categories', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      expect(response.status).toBe(400);
    }
  });

  it('through the admin clock, which reads only its own fields', async () => {
    const fake = inProcessFake();
    const start = fake.clock.now();
    for (const body of POISONED_BODIES) {
      const answer = await answerAdmin(
        fake,
        { loopback: true },
        { method: 'POST', path: '/__admin/clock', body: () => JSON.parse(body) },
      );
      expect(answer.status).toBe(400);
    }
    expect(fake.clock.now() - start).toBeLessThan(60_000);
  });

  it('through the standalone server: bodies, header names, query strings and paths', async () => {
    const auth = `Authorization: Bearer ${UNLIMITED_KEY.key}`;
    for (const body of POISONED_BODIES) {
      for (const target of [
        '/v1/categories?__proto__[polluted]=yes&constructor[prototype][polluted]=yes',
        '/__admin/clock',
      ]) {
        const head = requestHead('POST', target, [
          auth,
          'Content-Type: application/json',
          `Content-Length: ${Buffer.byteLength(body)}`,
        ]);
        const { responses } = await rawExchange(attacked.server.url, head + body, { responses: 1 });
        expect(responses[0]).toMatchObject({ status: 400, json: { code: 'invalid_request' } });
      }
    }
    const headerNames = ['__proto__: {"polluted":"yes"}', 'constructor: x', 'prototype: x', 'hasOwnProperty: x'];
    const { responses } = await rawExchange(
      attacked.server.url,
      requestHead('GET', '/v1/categories', [auth, ...headerNames]),
      { responses: 1 },
    );
    expect(responses[0]).toMatchObject({ status: 200 });
    for (const path of [
      '/v1/pets/__proto__',
      '/v1/pets/constructor',
      '/v1/__proto__',
      '/__admin/__proto__',
      '/__proto__',
    ]) {
      const answer = await rawExchange(attacked.server.url, requestHead('GET', path, [auth]), { responses: 1 });
      expect([400, 404]).toContain(answer.responses[0]!.status);
    }
    await expectStillAnswering(attacked.server);
  });

  it('left every built-in prototype as it was', () => {
    expect(snapshot()).toEqual(before);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
  });
});
