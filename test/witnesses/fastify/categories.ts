import type { FastifyInstance } from 'fastify';
import type { NewCategory, PetStore } from './data.js';
import { refuseOtherMethods } from './method-not-allowed.js';

/** `components.schemas.NewCategory` of the spec, with its `$ref`s written out. */
export const NEW_CATEGORY_SCHEMA = {
  description: 'The request body that creates a category.',
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 100, pattern: '\\S' },
    description: { type: 'string', maxLength: 500 },
  },
  additionalProperties: false,
} as const;

/** `x-max-body-bytes` of createCategory: "Bodies over 16 KiB are refused with 413." */
export const MAX_CATEGORY_BODY_BYTES = 16_384;

export function categoryRoutes(api: FastifyInstance, store: PetStore): void {
  api.get('/categories', async () => store.listCategories());

  api.post<{ Body: NewCategory }>(
    '/categories',
    { bodyLimit: MAX_CATEGORY_BODY_BYTES, schema: { body: NEW_CATEGORY_SCHEMA } },
    async (request, reply) => reply.code(201).send(store.createCategory(request.body)),
  );

  refuseOtherMethods(api, '/categories', ['GET', 'HEAD', 'POST']);
}
