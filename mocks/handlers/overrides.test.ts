import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { setupFake } from '../node/index.js';
import { override } from './typed-override.js';

const baseUrl = 'http://overrides.test/v1';
const { server, fake } = setupFake({
  baseUrl,
  overrides: [override.get('/store/orders', ({ response }) => response(200).json([]), { times: 1 })],
});
const free = { authorization: 'Bearer free-test-key' };
const json = { ...free, 'content-type': 'application/json' };

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => fake.reset());
afterAll(() => server.close());

const get = (path: string, headers: Record<string, string> = free) => fetch(`${baseUrl}${path}`, { headers });

describe('typed per-test overrides', () => {
  it('answer one operation as the test says, with the rate-limit headers the request earned', async () => {
    fake.overrides.use(
      override.get('/pets/{petId}', ({ params, response }) =>
        response(200).json({ id: Number(params.petId), name: 'Ghost', status: 'sold' }),
      ),
    );
    const response = await get('/pets/4242');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ id: 4242, name: 'Ghost', status: 'sold' });
    expect(response.headers.get('x-ratelimit-remaining')).toBe('59');
    // The operation's own headers come too: getPetById is deprecated.
    expect(response.headers.get('deprecation')).toMatch(/^@\d+$/);
    // Other operations are the fake's; the handle-less override lasts until reset.
    expect(((await (await get('/categories')).json()) as unknown[]).length).toBe(3);
    await fake.reset();
    expect((await get('/pets/4242')).status).toBe(404);
  });

  it('keep the fake auth and quota: no key is still 401, and an override after auth costs a request', async () => {
    fake.overrides.use(override.get('/categories', ({ response }) => response(200).json([])));
    const anonymous = await get('/categories', {});
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as { code: string }).code).toBe('missing_api_key');
    await fake.keys.setQuota('free-test-key', { minuteRemaining: 0 });
    expect((await get('/categories')).status).toBe(429);
  });

  it('can leave out the fake headers, or answer before auth (no key needed, nothing charged)', async () => {
    fake.overrides.use(
      override.get('/categories', ({ response }) => response(200).json([], { fakeHeaders: false })),
      override.post(
        '/categories',
        ({ response }) => response(400).json({ code: 'invalid_request', message: 'Not today.', status: 400 }),
        { beforeAuth: true },
      ),
    );
    const list = await get('/categories');
    expect(list.headers.get('x-ratelimit-remaining')).toBeNull();
    const create = await fetch(`${baseUrl}/categories`, { method: 'POST', body: '{}' });
    expect(create.status).toBe(400);
    expect(create.headers.get('x-ratelimit-remaining')).toBeNull();
    // Only the list was charged.
    expect((await fake.keys.state('free-test-key')).minute.remaining).toBe(59);
  });

  it('see the typed body, and can ask the fake for its own answer to a changed request', async () => {
    const seen: unknown[] = [];
    fake.overrides.use(
      override.post('/categories', async ({ body, next }) => {
        seen.push(body?.name);
        return next({ body: JSON.stringify({ name: `${body?.name ?? ''}!` }) });
      }),
    );
    const response = await fetch(`${baseUrl}/categories`, { method: 'POST', headers: json, body: '{"name":"ferret"}' });
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ name: 'ferret!' });
    expect(seen).toEqual(['ferret']);
  });

  it('expire after `times`, go with their handle, and reset brings back only the start-up ones', async () => {
    expect(await (await get('/store/orders')).json()).toEqual([]);
    expect(((await (await get('/store/orders')).json()) as unknown[]).length).toBeGreaterThan(0);
    const handle = fake.overrides.use(override.get('/categories', ({ response }) => response(200).json([])));
    expect(await (await get('/categories')).json()).toEqual([]);
    expect(handle.remove()).toBe(true);
    expect(((await (await get('/categories')).json()) as unknown[]).length).toBe(3);
    await fake.reset();
    expect(fake.overrides.size).toBe(1);
    expect(await (await get('/store/orders')).json()).toEqual([]);
  });

  it('refuse an operation the spec does not have', () => {
    expect(() =>
      fake.overrides.use({
        operation: { method: 'DELETE', path: '/pets/{petId}' },
        resolve: () => ({ status: 204, headers: {}, body: undefined }),
      }),
    ).toThrow('the spec has no operation DELETE /pets/{petId}');
  });

  it('are typed by the spec: paths, bodies and statuses it does not document do not compile', () => {
    const typed = [
      // @ts-expect-error -- no GET operation at /nowhere
      override.get('/nowhere', ({ response }) => response(200).json([])),
      // @ts-expect-error -- a Pet needs a name and a status
      override.get('/pets/{petId}', ({ response }) => response(200).json({ id: 1 })),
      // @ts-expect-error -- listCategories documents no 404
      override.get('/categories', ({ response }) => response(404).json({ code: 'x', message: 'y', status: 404 })),
      override.get('/categories', ({ response }) =>
        response(429).json({ code: 'rate_limit_exceeded', message: 'Slow down.', status: 429 }),
      ),
    ];
    expect(typed).toHaveLength(4);
  });
});
