import { describe, expect, it } from '@jest/globals';
import { specDocument } from '../../spec/spec-artifacts.js';
import { readSpecDocument } from '../core/spec-document.js';
import { exampleRequest, operationModels, pathOf } from './operation-model.js';

describe('operationModels', () => {
  it('reads every operation of the spec: reads, the write, its body schema and the list that shows what it stores', () => {
    const models = Object.fromEntries(operationModels().map((model) => [model.operation.operationId, model]));
    expect(Object.keys(models).sort()).toEqual(['createCategory', 'getPetById', 'listCategories', 'listOrders']);
    expect(models.createCategory).toMatchObject({
      safe: false,
      successStatus: 201,
      bodySchema: { $ref: '#/components/schemas/NewCategory' },
    });
    expect(models.createCategory!.listedBy?.operationId).toBe('listCategories');
    expect(models.getPetById!.pathParameters.map(({ name }) => name)).toEqual(['petId']);
    expect(pathOf(models.getPetById!)).toBe('/pets/1');
    expect(exampleRequest(models.createCategory!)).toEqual({
      method: 'POST',
      path: '/categories',
      json: { name: 'hamster', description: 'Small rodents kept as pets' },
    });
  });

  it('covers an operation added to the spec without new code (a POST /pets with a list beside it)', () => {
    const document = structuredClone(specDocument()) as { paths: Record<string, unknown> };
    document.paths['/pets'] = {
      get: {
        operationId: 'listPets',
        responses: {
          '200': {
            description: 'pets',
            content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Pet' } } } },
          },
        },
      },
      post: {
        operationId: 'createPet',
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } },
        },
        responses: {
          '201': {
            description: 'created',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } },
          },
        },
      },
    };
    const created = operationModels(readSpecDocument(document)).find(
      (model) => model.operation.operationId === 'createPet',
    );
    expect(created).toMatchObject({
      safe: false,
      successStatus: 201,
      bodySchema: { $ref: '#/components/schemas/Pet' },
    });
    expect(created?.listedBy?.operationId).toBe('listPets');
  });
});
