import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { setupFake } from 'petstore-harness/node';

const baseUrl = 'http://petstore.test/v1';
const { server, fake } = setupFake({ baseUrl });
const headers = { Authorization: 'Bearer free-test-key', 'Content-Type': 'application/json' };

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(async () => {
  server.resetHandlers();
  await fake.reset();
});
afterAll(() => server.close());

test('lists the seeded categories', async () => {
  const response = await fetch(`${baseUrl}/categories`, { headers });
  expect(response.status).toBe(200);
  expect(response.headers.get('X-RateLimit-Limit')).toBe('60');
  expect(((await response.json()) as Array<{ name: string }>).map(({ name }) => name)).toEqual([
    'dog',
    'cat',
    'rabbit',
  ]);
});

test('creates a category and lists it', async () => {
  const created = await fetch(`${baseUrl}/categories`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ name: 'ferret' }),
  });
  expect(created.status).toBe(201);
  const category = (await created.json()) as { id: number; name: string };
  const listed = (await (await fetch(`${baseUrl}/categories`, { headers })).json()) as unknown[];
  expect(listed).toContainEqual(category);
});

test('refuses an invalid body with the Error the spec documents', async () => {
  const response = await fetch(`${baseUrl}/categories`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ name: '' }),
  });
  expect(response.status).toBe(400);
  expect(await response.json()).toMatchObject({ status: 400, code: 'invalid_request' });
});

test('answers 429 with Retry-After after 60 requests in a minute, and admits again once the clock moves', async () => {
  for (let i = 0; i < 60; i += 1) await (await fetch(`${baseUrl}/categories`, { headers })).arrayBuffer();
  const refused = await fetch(`${baseUrl}/categories`, { headers });
  expect(refused.status).toBe(429);
  const wait = Number(refused.headers.get('Retry-After'));
  expect(wait).toBeGreaterThan(0);
  fake.clock.advance(wait);
  expect((await fetch(`${baseUrl}/categories`, { headers })).status).toBe(200);
});
