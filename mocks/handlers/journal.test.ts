import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { createFake } from '../fake.js';
import { setupFake } from '../node/index.js';
import { startFakeServer } from '../server/index.js';
import type { ApiCall } from './api-call.js';

const baseUrl = 'http://journal.test/v1';
const { server, fake } = setupFake({ baseUrl });
const pro = { authorization: 'Bearer pro-test-key', 'content-type': 'application/json' };

// The standalone fake below is reached over loopback, past msw; anything else unhandled is an error.
beforeAll(() =>
  server.listen({
    onUnhandledRequest: (request, print) => {
      if (new URL(request.url).hostname !== '127.0.0.1') print.error();
    },
  }),
);
afterEach(() => fake.reset());
afterAll(() => server.close());

const create = (body: string, headers: Record<string, string> = pro) =>
  fetch(`${baseUrl}/categories?source=test&tag=a&tag=b`, { method: 'POST', headers, body });

describe('fake.requests: what the UI sent', () => {
  it('records the last call to an operation: method, path, query, JSON body, plan (never the key), status', async () => {
    await create('{"name":"hamster"}');
    await fetch(`${baseUrl}/categories`, { headers: pro });
    expect(fake.requests.last('createCategory')).toEqual({
      operationId: 'createCategory',
      method: 'POST',
      path: '/categories',
      query: { source: 'test', tag: ['a', 'b'] },
      body: { name: 'hamster' },
      plan: 'pro',
      status: 201,
      at: expect.any(Number),
    });
    expect(JSON.stringify(fake.requests.all())).not.toContain('pro-test-key');
    expect(fake.requests.last()?.operationId).toBe('listCategories');
  });

  it('never shows a key sent in the query: under a credential name, or any value holding a known key', async () => {
    await fetch(`${baseUrl}/categories?access_token=free-test-key&api_key=typo-key&q=x-pro-test-key-y&page=2`);
    expect(fake.requests.last()?.query).toEqual({
      access_token: '[redacted]',
      api_key: '[redacted]',
      q: '[redacted]',
      page: '2',
    });
    expect(JSON.stringify(fake.requests.all())).not.toMatch(/free-test-key|typo-key|pro-test-key/);
  });

  it('counts calls per operation, and keeps refusals, unknown paths and bodies that are not JSON', async () => {
    await create('{"name":"a"}');
    await create('{"name":', pro);
    await create('{"name":"b"}', { 'content-type': 'application/json' });
    await fetch(`${baseUrl}/nowhere`, { headers: pro });
    expect(fake.requests.count('createCategory')).toBe(3);
    expect(fake.requests.of('createCategory').map(({ status, plan }) => [status, plan])).toEqual([
      [201, 'pro'],
      [400, 'pro'],
      [401, undefined],
    ]);
    expect(fake.requests.of('createCategory')[1]?.body).toBe('{"name":');
    expect(fake.requests.last()).toMatchObject({ path: '/nowhere', status: 404 });
    expect(fake.requests.last()?.operationId).toBeUndefined();
    expect(fake.requests.count()).toBe(4);
  });

  it('names the fault that fired, and a dropped connection has no status', async () => {
    await fake.faults.add({ id: 'down', match: { path: '/categories' }, effect: { status: 503 }, times: 1 });
    await fake.faults.add({ id: 'cut', match: { path: '/store/orders' }, effect: { network: 'error' }, times: 1 });
    await fetch(`${baseUrl}/categories`, { headers: pro });
    await expect(fetch(`${baseUrl}/store/orders`, { headers: pro })).rejects.toThrow();
    await fetch(`${baseUrl}/pets/1`, { headers: { ...pro, prefer: 'code=500' } });
    expect(fake.requests.all().map(({ status, fault }) => [status, fault])).toEqual([
      [503, 'down'],
      [null, 'cut'],
      [500, 'Prefer'],
    ]);
  });

  it('is cleared by reset', async () => {
    await create('{"name":"a"}');
    await fake.reset();
    expect(fake.requests.count()).toBe(0);
    expect(fake.requests.last('createCategory')).toBeUndefined();
  });
});

describe('the journal is bounded', () => {
  it('keeps the newest `journalSize` entries, the oldest dropped', async () => {
    const small = createFake({ baseUrl: 'http://small.test/v1', journalSize: 3 });
    const call = (path: string): ApiCall => ({
      method: 'GET',
      path,
      query: '',
      header: (name) => (name === 'authorization' ? 'Bearer free-test-key' : null),
      body: async () => new Uint8Array(),
      clientAddress: 'local',
    });
    for (const path of ['/pets/1', '/pets/2', '/pets/3', '/pets/4', '/pets/5']) await small.answer(call(path));
    expect(small.requests.all().map(({ path }) => path)).toEqual(['/pets/3', '/pets/4', '/pets/5']);
    expect(small.requests.count('getPetById')).toBe(3);
    expect(small.requests.last()?.path).toBe('/pets/5');
    expect(() => createFake({ journalSize: -1 })).toThrow('journalSize must be a whole number >= 0');
  });
});

describe('GET /__admin/requests on the standalone fake', () => {
  it('shows the journal, and DELETE or reset clears it', async () => {
    const standalone = await startFakeServer({ port: 0 });
    try {
      await fetch(`${standalone.baseUrl}/categories`, { method: 'POST', headers: pro, body: '{"name":"x"}' });
      const listed = (await (await fetch(`${standalone.url}/__admin/requests`)).json()) as unknown[];
      expect(listed).toEqual([
        expect.objectContaining({ operationId: 'createCategory', body: { name: 'x' }, plan: 'pro' }),
      ]);
      expect((await fetch(`${standalone.url}/__admin/requests`, { method: 'DELETE' })).status).toBe(204);
      expect(await (await fetch(`${standalone.url}/__admin/requests`)).json()).toEqual([]);
      await fetch(`${standalone.baseUrl}/categories`, { headers: pro });
      await fetch(`${standalone.url}/__admin/reset`, { method: 'POST' });
      expect(await (await fetch(`${standalone.url}/__admin/requests`)).json()).toEqual([]);
    } finally {
      await standalone.close();
    }
  });
});
