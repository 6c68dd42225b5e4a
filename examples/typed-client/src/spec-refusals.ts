// What the spec refuses does not compile: `tsc --noEmit` (the test script) fails when one of these lines
// compiles, as it would if the client's types were `any` instead of the spec's.
import { petStoreClient } from './petstore-client.js';

const client = petStoreClient('http://petstore.test/v1', 'free-test-key');

export const refused = [
  // @ts-expect-error: the spec has no /category path
  () => client.GET('/category'),
  // @ts-expect-error: a category's name is a string
  () => client.POST('/categories', { body: { name: 42 } }),
  // @ts-expect-error: petId is a path parameter that must be given
  () => client.GET('/pets/{petId}', {}),
];
