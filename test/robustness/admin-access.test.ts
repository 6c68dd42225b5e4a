// Who can reach /__admin. The non-loopback policy is tested at the function level (these tests never
// bind or send beyond 127.0.0.1); the server is tested bound to 127.0.0.1, with and without a token.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { answerAdmin, isLoopbackHost, isLoopbackOrigin, type AdminAccess } from '../../mocks/server/admin.js';
import { conforming } from '../support/spec-conformance.js';
import { startAttackedServer, type AttackedServer } from './fake-server-fixture.js';
import { inProcessFake, send } from './in-process-fake.js';
import { rawExchange, requestHead } from './raw-http.js';

const TOKEN = 'admin-token-5f1c9e';

/** Calls the admin API as the server would, and reports whether the fake's state changed. */
async function tryAdmin(
  access: AdminAccess,
  request: { method?: string; path?: string; authorization?: string; origin?: string; body?: unknown },
) {
  const fake = inProcessFake();
  await send(fake, '/categories', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"name":"survivor"}',
  });
  const clockBefore = fake.clock.now();
  const { body, ...fields } = request;
  const answer = await answerAdmin(fake, access, {
    method: 'POST',
    path: '/__admin/reset',
    ...fields,
    body: () => body,
  });
  const categories = (await conforming('listCategories', await send(fake, '/categories'))).json as unknown[];
  return { answer, reset: categories.length === 3, clockMoved: Math.abs(fake.clock.now() - clockBefore) > 60_000 };
}

describe('which hosts count as loopback', () => {
  it.each(['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost'])('%s is loopback', (host) => {
    expect(isLoopbackHost(host)).toBe(true);
  });
  it.each([
    '0.0.0.0',
    '::',
    '10.0.0.1',
    '192.168.1.10',
    '::ffff:127.0.0.1',
    '127.0.0.1.nip.io',
    'localhost.example.com',
    'LOCALHOST.',
    '',
  ])('%j is not (fails closed)', (host) => {
    expect(isLoopbackHost(host)).toBe(false);
  });
});

describe('the admin policy, bound beyond loopback', () => {
  it('without --admin-token: every admin path is a 404, and nothing changes', async () => {
    for (const request of [
      { path: '/__admin/reset' },
      { path: '/__admin/clock', body: { advanceSeconds: 3600 } },
      { path: '/__admin/reset', authorization: `Bearer ${TOKEN}` },
    ]) {
      const { answer, reset, clockMoved } = await tryAdmin({ loopback: false }, request);
      expect(answer).toMatchObject({ status: 404, body: { code: 'not_found', status: 404 } });
      expect({ reset, clockMoved }).toEqual({ reset: false, clockMoved: false });
    }
  });

  it.each([
    ['no Authorization', undefined],
    ['a wrong token of the same length', `Bearer ${TOKEN.replace(/.$/, 'x')}`],
    ['the token as a prefix', `Bearer ${TOKEN}0`],
    ['the token without the scheme', TOKEN],
    ['another scheme', `Basic ${TOKEN}`],
  ])('with --admin-token: %s is a 401 with a challenge, and nothing changes', async (_name, authorization) => {
    const { answer, reset } = await tryAdmin(
      { loopback: false, token: TOKEN },
      { ...(authorization && { authorization }) },
    );
    expect(answer).toMatchObject({
      status: 401,
      body: { code: 'invalid_api_key' },
      headers: { 'WWW-Authenticate': 'Bearer realm="petstore-admin"' },
    });
    expect(reset).toBe(false);
  });

  it('with --admin-token: the token opens it, from any origin', async () => {
    const { answer, reset } = await tryAdmin(
      { loopback: false, token: TOKEN },
      { authorization: `Bearer ${TOKEN}`, origin: 'https://qa.example.com' },
    );
    expect(answer.status).toBe(204);
    expect(reset).toBe(true);
  });
});

describe('the admin policy on loopback', () => {
  it('without a token: open to local callers, and to pages served from this machine', async () => {
    for (const origin of [undefined, 'http://localhost:5173', 'http://127.0.0.1:8080', 'http://[::1]:3000']) {
      const { answer, reset } = await tryAdmin({ loopback: true }, { ...(origin && { origin }) });
      expect(answer.status).toBe(204);
      expect(reset).toBe(true);
    }
  });

  it.each(['https://evil.example.com', 'http://127.0.0.1.nip.io:4010', 'null', 'not a url'])(
    'without a token: closed to a browser page of origin %s (cross-site request or DNS rebinding)',
    async (origin) => {
      const { answer, reset } = await tryAdmin({ loopback: true }, { origin });
      expect(answer).toMatchObject({ status: 404, body: { code: 'not_found' } });
      expect(reset).toBe(false);
    },
  );

  it('with a token: the token is required there too', async () => {
    expect((await tryAdmin({ loopback: true, token: TOKEN }, {})).answer.status).toBe(401);
    expect((await tryAdmin({ loopback: true, token: TOKEN }, { authorization: `Bearer ${TOKEN}` })).answer.status).toBe(
      204,
    );
  });

  it('classifies origins by host name', () => {
    expect(isLoopbackOrigin('http://localhost:5173')).toBe(true);
    expect(isLoopbackOrigin('https://localhost.evil.com')).toBe(false);
  });
});

describe('the server bound to 127.0.0.1 with --admin-token', () => {
  let attacked: AttackedServer;
  beforeAll(async () => {
    attacked = await startAttackedServer({ adminToken: TOKEN });
  });
  afterAll(() => attacked.server.close());

  const clock = (authorization?: string) =>
    fetch(`${attacked.server.url}/__admin/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(authorization && { authorization }) },
      body: '{"advanceSeconds":60}',
    });

  it('needs the token', async () => {
    expect((await clock()).status).toBe(401);
    expect((await clock('Bearer wrong')).status).toBe(401);
    expect((await clock(`Bearer ${TOKEN}`)).status).toBe(200);
  });

  it('is not reachable around its path: dot segments and encodings under /v1 stay under /v1', async () => {
    for (const target of [
      '/v1/../__admin/reset',
      '/v1/%2e%2e/__admin/reset',
      '/__admin/reset/',
      '/__ADMIN/reset',
      '/%5F%5Fadmin/reset',
    ]) {
      const { responses } = await rawExchange(
        attacked.server.url,
        requestHead('POST', target, [`Authorization: Bearer ${TOKEN}`, 'Content-Length: 0']),
        { responses: 1 },
      );
      expect(responses[0]).toMatchObject({ status: 404, json: { code: 'not_found' } });
    }
  });

  it('does not accept the admin token as an API key', async () => {
    const response = await fetch(`${attacked.server.baseUrl}/categories`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect((await conforming('listCategories', response)).status).toBe(401);
  });
});
