import { afterAll, afterEach, beforeAll, expect, expectTypeOf, test } from 'vitest';
import { setupFake } from 'petstore-harness/node';
import type { ApiError, Category, components } from 'petstore-harness/types';
import { petStoreClient } from './petstore-client.js';

const baseUrl = 'http://petstore.test/v1';
const { server, fake } = setupFake({ baseUrl });
const client = petStoreClient(baseUrl, 'free-test-key');

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(async () => {
  server.resetHandlers();
  await fake.reset();
});
afterAll(() => server.close());

test('lists the categories, typed as the spec says', async () => {
  const { data, error, response } = await client.GET('/categories');
  expectTypeOf(data).toEqualTypeOf<Category[] | undefined>();
  expect(error).toBeUndefined();
  expect(response.headers.get('X-RateLimit-Limit')).toBe('60');
  expect(data?.map(({ name }) => name)).toEqual(['dog', 'cat', 'rabbit']);
});

test('creates a category from a typed body', async () => {
  const { data, response } = await client.POST('/categories', { body: { name: 'ferret', description: 'Ferrets' } });
  expect(response.status).toBe(201);
  expect(data).toEqual({ id: 4, name: 'ferret', description: 'Ferrets' });
});

test("gets the fake's 400 as the spec's Error, typed", async () => {
  const { data, error } = await client.POST('/categories', { body: { name: '' } });
  expectTypeOf(error).toEqualTypeOf<ApiError | undefined>();
  expect(data).toBeUndefined();
  expect(error).toMatchObject({ status: 400, code: 'invalid_request' });
});

test('types the path parameters and the deprecated operation', async () => {
  const { data } = await client.GET('/pets/{petId}', { params: { path: { petId: 1 } } });
  expectTypeOf(data).toEqualTypeOf<components['schemas']['Pet'] | undefined>();
  expect(data).toMatchObject({ id: 1 });
});
