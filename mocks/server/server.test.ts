import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { conforming } from '../../test/support/spec-conformance.js';
import { override } from '../handlers/typed-override.js';
import { startFakeServer, type RunningFakeServer } from './index.js';

const key = { authorization: 'Bearer free-test-key' };
let server: RunningFakeServer;
const logLines: string[] = [];

beforeAll(async () => {
  server = await startFakeServer({ port: 0, ban: { threshold: 2, seconds: 300 }, log: (line) => logLines.push(line) });
});
afterAll(() => server.close());
beforeEach(async () => {
  await fetch(`${server.url}/__admin/reset`, { method: 'POST' });
  logLines.length = 0;
});

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${server.baseUrl}${path}`, { ...init, headers: { ...key, ...init.headers } });
const clock = (body: object) =>
  fetch(`${server.url}/__admin/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('the standalone fake', () => {
  it('listens on the random port it was given and serves the API under /v1', async () => {
    expect(server.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const list = await conforming('listCategories', await api('/categories'));
    expect(list.status).toBe(200);
  });

  it('answers paths outside /v1 with a 404 Error', async () => {
    const response = await fetch(`${server.url}/categories`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ code: 'not_found', status: 404 });
  });

  it('exposes the rate-limit and deprecation headers to browsers, and answers preflights without a key or quota', async () => {
    // A browser's cross-origin request carries Origin; CORS answers it, and only it.
    expect((await api('/pets/1')).headers.get('access-control-allow-origin')).toBeNull();
    const pet = await api('/pets/1', { headers: { origin: 'http://localhost:5173' } });
    expect(pet.headers.get('access-control-allow-origin')).toBe('*');
    const exposed = pet.headers.get('access-control-expose-headers')!.split(', ');
    expect(exposed).toEqual(
      expect.arrayContaining([
        'X-RateLimit-Limit',
        'X-RateLimit-Remaining',
        'X-RateLimit-Reset',
        'Retry-After',
        'Deprecation',
        'Sunset',
        'Link',
      ]),
    );
    const preflight = await fetch(`${server.baseUrl}/categories`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toContain('Authorization');
    const after = await api('/categories');
    // Two reads of /pets/1 and this one: the preflight took nothing.
    expect(after.headers.get('x-ratelimit-remaining')).toBe('57');
  });

  it('answers the category list as it is now, never as it was when last written', async () => {
    const names = async () => ((await (await api('/categories')).json()) as { name: string }[]).map(({ name }) => name);
    expect(await names()).toEqual(['dog', 'cat', 'rabbit']);
    await api('/categories', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name":"ferret"}',
    });
    expect(await names()).toEqual(['dog', 'cat', 'rabbit', 'ferret']);
    await fetch(`${server.url}/__admin/reset`, { method: 'POST' });
    expect(await names()).toEqual(['dog', 'cat', 'rabbit']);
  });

  it('resets records, counters and clock through /__admin/reset', async () => {
    await api('/categories', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name":"ferret"}',
    });
    await clock({ advanceSeconds: 3600 });
    expect((await fetch(`${server.url}/__admin/reset`, { method: 'POST' })).status).toBe(204);
    const list = await conforming('listCategories', await api('/categories'));
    expect(list.json).toHaveLength(3);
    expect(list.headers['x-ratelimit-remaining']).toBe('59');
    expect(Number(list.headers['x-ratelimit-reset']) - Date.now() / 1000).toBeLessThanOrEqual(60);
  });

  it('moves the clock: a rate-limited key recovers when its minute window rolls over', async () => {
    const { epochSeconds } = (await (
      await clock({ epochSeconds: Date.UTC(2026, 10, 22, 10, 0, 15) / 1000 })
    ).json()) as { epochSeconds: number };
    expect(epochSeconds).toBe(Date.UTC(2026, 10, 22, 10, 0, 15) / 1000);
    for (let i = 0; i < 60; i++) await api('/store/orders');
    const limited = await conforming('listOrders', await api('/store/orders'));
    expect(limited).toMatchObject({
      status: 429,
      headers: { 'retry-after': '45', 'x-ratelimit-reset': String(epochSeconds + 45) },
    });
    await clock({ advanceSeconds: 45 });
    expect((await conforming('listOrders', await api('/store/orders'))).headers['x-ratelimit-remaining']).toBe('59');
  });

  it('bans a key that keeps calling after 429 and lifts the ban when it ends', async () => {
    await clock({ epochSeconds: Date.UTC(2026, 10, 22, 10, 0, 0) / 1000 });
    for (let i = 0; i < 60; i++) await api('/store/orders');
    for (let i = 0; i < 2; i++) expect((await api('/store/orders')).status).toBe(429);
    const banned = await conforming('listOrders', await api('/store/orders'));
    expect(banned).toMatchObject({
      status: 429,
      json: { code: 'temporarily_banned' },
      headers: { 'retry-after': '300', 'x-ratelimit-remaining': '0' },
    });
    await clock({ advanceSeconds: 299 });
    expect((await conforming('listOrders', await api('/store/orders'))).json).toMatchObject({
      code: 'temporarily_banned',
    });
    await clock({ advanceSeconds: 1 });
    expect((await conforming('listOrders', await api('/store/orders'))).status).toBe(200);
  });

  it('refuses a clock body that is not one number', async () => {
    for (const body of [{}, { advanceSeconds: 'x' }, { advanceSeconds: 1, epochSeconds: 2 }]) {
      const response = await clock(body);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ code: 'invalid_request', status: 400 });
    }
  });

  it('logs one line per request with method, path, status, plan and remaining, never the key', async () => {
    await api('/categories?secret=1');
    await fetch(`${server.baseUrl}/categories`, { headers: { authorization: 'Bearer wrong-key-123' } });
    expect(logLines).toHaveLength(2);
    expect(logLines[0]).toMatch(/^GET \/v1\/categories 200 plan=free remaining=59 \d+ms$/);
    expect(logLines[1]).toMatch(/^GET \/v1\/categories 401 plan=anonymous remaining=59 /);
    expect(logLines.join('\n')).not.toMatch(/free-test-key|wrong-key-123|secret/);
  });
});

describe('the admin API of faults and key scenarios', () => {
  const admin = (method: string, path: string, body?: string) =>
    fetch(`${server.url}/__admin${path}`, {
      method,
      ...(body !== undefined && { headers: { 'content-type': 'application/json' }, body }),
    });

  it('adds a rule (201, Location, the rule with fired 0), shows it, deletes it; DELETE /faults removes all', async () => {
    const created = await admin(
      'POST',
      '/faults',
      '{"id":"slow-list","match":{"path":"/categories"},"effect":{"delayMs":[10,20]}}',
    );
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe('/__admin/faults/slow-list');
    expect(await created.json()).toEqual({
      id: 'slow-list',
      match: { path: '/categories' },
      effect: { delayMs: [10, 20] },
      fired: 0,
    });
    await api('/categories');
    expect(await (await admin('GET', '/faults/slow-list')).json()).toMatchObject({ id: 'slow-list', fired: 1 });
    expect((await admin('DELETE', '/faults/slow-list')).status).toBe(204);
    expect((await admin('GET', '/faults/slow-list')).status).toBe(404);
    expect((await admin('DELETE', '/faults/slow-list')).status).toBe(404);
    await admin('POST', '/faults', '[{"effect":{"status":503}},{"effect":{"status":502}}]');
    expect((await admin('DELETE', '/faults')).status).toBe(204);
    expect(await (await admin('GET', '/faults')).json()).toEqual([]);
  });

  it('adds an array of rules all or none: one bad rule adds nothing and is named', async () => {
    const refused = await admin(
      'POST',
      '/faults',
      '[{"id":"fine","effect":{"status":503}},{"id":"broken","effect":{"status":200}}]',
    );
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      code: 'invalid_request',
      message: expect.stringContaining('[1] (rule "broken").effect.status: must be an HTTP error status'),
      status: 400,
    });
    expect(await (await admin('GET', '/faults')).json()).toEqual([]);
    const added = await admin(
      'POST',
      '/faults',
      '[{"id":"a","effect":{"status":503}},{"id":"b","effect":{"network":"error"}}]',
    );
    expect(((await added.json()) as Array<{ id: string }>).map((rule) => rule.id)).toEqual(['a', 'b']);
    expect((await admin('POST', '/faults', '{"id":"a","effect":{"status":500}}')).status).toBe(400);
  });

  it('refuses a body that is not JSON, an empty one, and a method a route does not have', async () => {
    const notJson = await admin('POST', '/faults', '{"effect":');
    expect([notJson.status, ((await notJson.json()) as { message: string }).message]).toEqual([
      400,
      expect.stringContaining('body: is not valid JSON'),
    ]);
    const empty = await fetch(`${server.url}/__admin/faults`, { method: 'POST' });
    expect([empty.status, ((await empty.json()) as { message: string }).message]).toEqual([
      400,
      expect.stringContaining('send a fault rule'),
    ]);
    const wrongMethod = await admin('PUT', '/faults');
    expect([wrongMethod.status, wrongMethod.headers.get('allow')]).toEqual([405, 'GET, POST, DELETE']);
    const noQuota = await fetch(`${server.url}/__admin/keys/free-test-key/quota`, { method: 'PUT' });
    expect(noQuota.status).toBe(400);
    expect((await admin('GET', '/keys/nobody')).status).toBe(404);
    expect((await admin('GET', '/keys/free-test-key')).status).toBe(200);
  });

  it('lets a browser page send Prefer and read Preference-Applied, and logs a dropped connection', async () => {
    const preflight = await fetch(`${server.baseUrl}/categories`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization, prefer',
      },
    });
    expect(preflight.headers.get('access-control-allow-headers')).toContain('Prefer');
    const preferred = await api('/categories', { headers: { prefer: 'code=503', origin: 'http://localhost:5173' } });
    expect(preferred.headers.get('access-control-expose-headers')).toContain('Preference-Applied');
    await expect(api('/categories', { headers: { prefer: 'network=error' } })).rejects.toThrow('fetch failed');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(logLines.at(-1)).toMatch(/^GET \/v1\/categories dropped plan=free /);
  });
});

describe('the admin API behind a token', () => {
  it('needs Authorization: Bearer <token> when --admin-token is given', async () => {
    const guarded = await startFakeServer({ port: 0, adminToken: 's3cret' });
    try {
      const refused = await fetch(`${guarded.url}/__admin/reset`, { method: 'POST' });
      expect(refused.status).toBe(401);
      const wrong = await fetch(`${guarded.url}/__admin/reset`, {
        method: 'POST',
        headers: { authorization: 'Bearer nope' },
      });
      expect(wrong.status).toBe(401);
      const allowed = await fetch(`${guarded.url}/__admin/reset`, {
        method: 'POST',
        headers: { authorization: 'Bearer s3cret' },
      });
      expect(allowed.status).toBe(204);
    } finally {
      await guarded.close();
    }
  });
});

describe('overrides on the standalone server (the same pipeline as in code)', () => {
  it('wrap every /v1 request given at start, and a fault still drops the connection', async () => {
    const broken = await startFakeServer({
      port: 0,
      overrides: [
        override.all(
          async ({ next }) => {
            const answer = await next();
            const { 'X-RateLimit-Remaining': _dropped, ...headers } = answer.headers;
            return { ...answer, headers };
          },
          { beforeAuth: true },
        ),
      ],
    });
    try {
      const response = await fetch(`${broken.baseUrl}/categories`, { headers: key });
      expect(response.status).toBe(200);
      expect(response.headers.get('x-ratelimit-remaining')).toBeNull();
      await expect(conforming('listCategories', response)).rejects.toThrow('Missing header X-RateLimit-Remaining');
      // A fault rule fires inside the override's `next`: its network error drops the connection.
      await broken.fake.faults.add({ effect: { network: 'error' }, times: 1 });
      await expect(fetch(`${broken.baseUrl}/categories`, { headers: key })).rejects.toThrow('fetch failed');
    } finally {
      await broken.close();
    }
  });
});
