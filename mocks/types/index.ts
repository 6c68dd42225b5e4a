/**
 * The interface's types, for an app's own client: `paths`, `components` and `operations` as
 * openapi-typescript generates them from `spec/openapi.yaml` (what openapi-fetch and openapi-msw take),
 * and the domain types by name. Types only: importing this entry loads no code.
 * @example
 * import createClient from 'openapi-fetch';
 * import type { paths } from 'petstore-harness/types';
 * const client = createClient<paths>({ baseUrl: 'http://petstore.test/v1' });
 */
export type { paths, components, operations } from '../../spec/openapi.js';
export type { Category, NewCategory, Pet, Order } from '../domain/seed.js';
export type { ApiError, ErrorCode } from '../domain/errors.js';
