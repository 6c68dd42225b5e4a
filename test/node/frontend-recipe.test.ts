// A frontend team's test suite, through the node entry only (examples/ runs the same against the packed package).
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { http, HttpResponse } from 'msw';
import { setupFake } from '../../mocks/node/index.js';
import { conforming } from '../support/spec-conformance.js';

const baseUrl = 'http://petstore.test/v1';
// The clock stands still (tests move it): a window cannot roll over while a loaded machine sends 60 requests.
const { server, fake } = setupFake({ baseUrl, clock: { now: () => Date.UTC(2026, 10, 22, 10, 0, 0) } });
const key = { authorization: 'Bearer free-test-key' };

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(async () => {
  server.resetHandlers();
  await fake.reset();
});
afterAll(() => server.close());

function post(body: string, headers: Record<string, string> = {}) {
  return fetch(`${baseUrl}/categories`, {
    method: 'POST',
    headers: { ...key, 'content-type': 'application/json', ...headers },
    body,
  });
}

describe('the fake through msw setupServer', () => {
  it('lists the seeded categories', async () => {
    const { status, json, headers } = await conforming(
      'listCategories',
      await fetch(`${baseUrl}/categories`, { headers: key }),
    );
    expect(status).toBe(200);
    expect((json as Array<{ name: string }>).map((c) => c.name)).toEqual(['dog', 'cat', 'rabbit']);
    expect(headers['x-ratelimit-remaining']).toBe('59');
  });

  it('creates a category that then appears in the list, description omitted stays omitted', async () => {
    const created = await conforming('createCategory', await post('{"name":"hamster"}'));
    expect(created.status).toBe(201);
    expect(created.json).toEqual({ id: 4, name: 'hamster' });
    const list = await conforming('listCategories', await fetch(`${baseUrl}/categories`, { headers: key }));
    expect(list.json).toContainEqual({ id: 4, name: 'hamster' });
  });

  it.each([
    ['{}', 400, 'body: name is required'],
    ['{"name":"   "}', 400, 'body: name must not be blank'],
    [`{"name":"${'x'.repeat(101)}"}`, 400, 'body: name must NOT have more than 100 characters'],
    ['{"name":"a","description":7}', 400, 'body: description must be string'],
    ['{"name":"a","colour":"red"}', 400, 'body: colour is not an allowed field'],
    ['{"name":', 400, 'body: is not valid JSON'],
    [`{"name":"${'x'.repeat(17_000)}"}`, 413, 'over the limit of 16384 bytes'],
  ])('refuses %s with %i naming the problem, and stores nothing', async (body, status, message) => {
    const refused = await conforming('createCategory', await post(body));
    expect(refused.status).toBe(status);
    expect((refused.json as { message: string }).message).toContain(message);
    const list = await conforming('listCategories', await fetch(`${baseUrl}/categories`, { headers: key }));
    expect(list.json).toHaveLength(3);
  });

  it('refuses a body that is not application/json with 415', async () => {
    const refused = await conforming('createCategory', await post('name=a', { 'content-type': 'text/plain' }));
    expect(refused).toMatchObject({ status: 415, json: { code: 'unsupported_media_type' } });
  });

  it('answers 401 without or with a wrong key, on every operation', async () => {
    for (const [operationId, path] of [
      ['listCategories', '/categories'],
      ['getPetById', '/pets/1'],
      ['listOrders', '/store/orders'],
    ]) {
      const missing = await conforming(operationId!, await fetch(`${baseUrl}${path}`));
      expect(missing).toMatchObject({
        status: 401,
        json: { code: 'missing_api_key' },
        headers: { 'www-authenticate': 'Bearer realm="petstore"' },
      });
      const wrong = await conforming(
        operationId!,
        await fetch(`${baseUrl}${path}`, { headers: { authorization: 'Bearer nope' } }),
      );
      expect(wrong).toMatchObject({ status: 401, json: { code: 'invalid_api_key' } });
      expect(wrong.headers['www-authenticate']).toContain('error="invalid_token"');
    }
  });

  it('serves the deprecated pet lookup with its headers, 404 for unknown ids, 400 for bad ones, 410 after sunset', async () => {
    const rex = await conforming('getPetById', await fetch(`${baseUrl}/pets/1`, { headers: key }));
    expect(rex).toMatchObject({
      status: 200,
      json: { name: 'Rex' },
      headers: { deprecation: '@1782864000', sunset: 'Thu, 01 Jul 2027 00:00:00 GMT' },
    });
    expect(rex.headers.link).toContain('rel="deprecation"');
    expect((await conforming('getPetById', await fetch(`${baseUrl}/pets/99`, { headers: key }))).status).toBe(404);
    for (const bad of ['abc', '0', '-1', '1.5', '9223372036854775808', '..%2Fstore']) {
      expect((await conforming('getPetById', await fetch(`${baseUrl}/pets/${bad}`, { headers: key }))).status).toBe(
        400,
      );
    }
    fake.clock.setEpochSeconds(Date.UTC(2027, 6, 1) / 1000);
    const gone = await conforming('getPetById', await fetch(`${baseUrl}/pets/1`, { headers: key }));
    expect(gone).toMatchObject({ status: 410, json: { code: 'gone' }, headers: { deprecation: '@1782864000' } });
  });

  it('lists orders', async () => {
    const orders = await conforming('listOrders', await fetch(`${baseUrl}/store/orders`, { headers: key }));
    expect(orders.status).toBe(200);
    expect((orders.json as unknown[]).length).toBeGreaterThan(0);
  });

  it('answers unknown paths 404 and other methods 405 with Allow, after auth', async () => {
    const missing = await conforming('undocumented', await fetch(`${baseUrl}/dogs`, { headers: key }));
    expect(missing).toMatchObject({ status: 404, json: { code: 'not_found' } });
    const wrongMethod = await conforming(
      'undocumented',
      await fetch(`${baseUrl}/categories`, { method: 'DELETE', headers: key }),
    );
    expect(wrongMethod).toMatchObject({
      status: 405,
      json: { code: 'method_not_allowed' },
      headers: { allow: 'GET, POST' },
    });
    // A path is the spec's only as written: another letter case or a trailing slash is unknown, whatever the method.
    expect((await conforming('undocumented', await fetch(`${baseUrl}/CATEGORIES`, { headers: key }))).status).toBe(404);
    expect(
      (await conforming('undocumented', await fetch(`${baseUrl}/categories/`, { method: 'DELETE', headers: key })))
        .status,
    ).toBe(404);
    const unauthenticated = await conforming('undocumented', await fetch(`${baseUrl}/dogs`));
    expect(unauthenticated.status).toBe(401);
  });

  it('rate-limits a free key at 60 a minute with Retry-After, then recovers in the next window', async () => {
    fake.clock.setEpochSeconds(Date.UTC(2026, 10, 22, 10, 0, 30) / 1000);
    for (let i = 0; i < 60; i++)
      await conforming('listOrders', await fetch(`${baseUrl}/store/orders`, { headers: key }));
    const limited = await conforming('listOrders', await fetch(`${baseUrl}/store/orders`, { headers: key }));
    expect(limited).toMatchObject({
      status: 429,
      json: { code: 'rate_limit_exceeded' },
      headers: { 'retry-after': '30', 'x-ratelimit-remaining': '0' },
    });
    fake.clock.advance(30);
    expect((await conforming('listOrders', await fetch(`${baseUrl}/store/orders`, { headers: key }))).status).toBe(200);
  });

  it('puts the fake in a state with its own controls: a 503 once, a revoked key', async () => {
    await fake.faults.add({ match: { method: 'GET', path: '/categories' }, effect: { status: 503 }, times: 1 });
    // Not through `conforming`: the spec documents no 503 here; injecting one is the point.
    const down = await fetch(`${baseUrl}/categories`, { headers: key });
    expect([down.status, down.headers.get('retry-after'), down.headers.get('x-ratelimit-remaining')]).toEqual([
      503,
      '1',
      '59',
    ]);
    expect(await down.json()).toMatchObject({ code: 'service_unavailable', status: 503 });
    await fake.keys.revoke('free-test-key');
    const revoked = await conforming('listCategories', await fetch(`${baseUrl}/categories`, { headers: key }));
    expect(revoked).toMatchObject({
      status: 401,
      json: { code: 'invalid_api_key', message: 'The API key has been revoked.' },
    });
  });

  it('lets a test override one response with server.use, for a payload the fake would never hold', async () => {
    const many = Array.from({ length: 500 }, (_, i) => ({ id: i + 1, name: `category ${i + 1}` }));
    server.use(http.get(`${baseUrl}/categories`, () => HttpResponse.json(many)));
    const overridden = await fetch(`${baseUrl}/categories`, { headers: key });
    expect(await overridden.json()).toHaveLength(500); // and no rate-limit headers: an override is all yours
  });

  it('resets to the seed between tests (the previous test created nothing that survives)', async () => {
    const list = await conforming('listCategories', await fetch(`${baseUrl}/categories`, { headers: key }));
    expect(list.json).toHaveLength(3);
  });
});
