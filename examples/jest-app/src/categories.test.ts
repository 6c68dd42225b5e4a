import { afterAll, afterEach, beforeAll, expect, test } from '@jest/globals';
import { setupFake } from 'petstore-harness/node';
import { PetStoreClient } from './categories.js';

const baseUrl = 'http://petstore.test/v1';
const { server, fake } = setupFake({ baseUrl });
const client = new PetStoreClient(baseUrl, 'free-test-key');

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(async () => {
  server.resetHandlers();
  await fake.reset();
});
afterAll(() => server.close());

test('lists the seeded categories', async () => {
  expect((await client.listCategories()).map(({ name }) => name)).toEqual(['dog', 'cat', 'rabbit']);
});

test('creates a category and lists it', async () => {
  const created = await client.createCategory('ferret');
  expect(created).toEqual({ id: expect.any(Number), name: 'ferret' });
  expect(await client.listCategories()).toContainEqual(created);
});

test('sees a 429 with Retry-After once the free plan has used its 60 requests of the minute', async () => {
  for (let i = 0; i < 60; i += 1) await client.listCategories();
  await expect(client.listCategories()).rejects.toMatchObject({
    status: 429,
    retryAfter: expect.stringMatching(/^\d+$/),
  });
});

test("renders every state through the fake's controls: a 503 once, 2 requests left, a revoked key", async () => {
  await fake.faults.add({ match: { method: 'GET', path: '/categories' }, effect: { status: 503 }, times: 1 });
  await expect(client.listCategories()).rejects.toMatchObject({ status: 503, retryAfter: '1' });
  expect(await client.listCategories()).toHaveLength(3);
  await fake.keys.setQuota('free-test-key', { minuteRemaining: 1 });
  await client.listCategories();
  await expect(client.listCategories()).rejects.toMatchObject({ status: 429 });
  await fake.keys.revoke('free-test-key');
  await expect(client.listCategories()).rejects.toMatchObject({ status: 401 });
});
