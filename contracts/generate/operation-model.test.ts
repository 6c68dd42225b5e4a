import { describe, expect, it } from '@jest/globals';
import { specDocument } from '../../spec/spec-artifacts.js';
import { readSpecDocument } from '../core/spec-document.js';
import { exampleRequest, kindOf, operationModels, pathOf } from './operation-model.js';

describe('operationModels', () => {
  it('reads every operation of the spec: reads, the write, its body schema and the list that shows what it stores', () => {
    const models = Object.fromEntries(operationModels().map((model) => [model.operation.operationId, model]));
    expect(Object.keys(models).sort()).toEqual(['createCategory', 'getPetById', 'listCategories', 'listOrders']);
    expect(Object.values(models).map(({ operation, kind }) => `${operation.operationId} ${kind}`)).toEqual([
      'listCategories read',
      'createCategory create',
      'getPetById read',
      'listOrders read',
    ]);
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

  it('reads what an operation does from its method, or from x-operation-kind where the method cannot say', () => {
    const operation = (method: string, declaredKind?: string) => ({
      operationId: 'anOperation',
      method,
      path: '/things',
      deprecated: false,
      parameters: [],
      responses: {},
      ...(declaredKind && { declaredKind }),
    });
    expect(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'].map((method) => kindOf(operation(method)))).toEqual([
      'read',
      'read',
      'create',
      'replace',
      'replace',
      'delete',
    ]);
    // A search sent as POST changes nothing: the spec says so with the extension.
    expect(kindOf(operation('POST', 'read'))).toBe('read');
    expect(() => kindOf(operation('POST', 'search'))).toThrow(
      'x-operation-kind "search"; it must be one of read, create, replace, delete',
    );
    expect(() => kindOf(operation('PROPFIND'))).toThrow('add x-operation-kind');
  });

  it('reads x-operation-kind from the document, and finds the list of the collection an operation on one record acts on', () => {
    const document = structuredClone(specDocument()) as { paths: Record<string, Record<string, unknown>> };
    document.paths['/categories']!.post = {
      ...(document.paths['/categories']!.post as object),
      'x-operation-kind': 'read',
    };
    document.paths['/categories/{categoryId}'] = {
      put: {
        operationId: 'replaceCategory',
        parameters: [{ name: 'categoryId', in: 'path', required: true, schema: { $ref: '#/components/schemas/Id' } }],
        requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/NewCategory' } } } },
        responses: {
          '200': {
            description: 'replaced',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Category' } } },
          },
        },
      },
    };
    const models = operationModels(readSpecDocument(document));
    expect(models.find(({ operation }) => operation.operationId === 'createCategory')?.kind).toBe('read');
    const replace = models.find(({ operation }) => operation.operationId === 'replaceCategory');
    expect(replace).toMatchObject({ kind: 'replace', successStatus: 200 });
    expect(replace?.listedBy?.operationId).toBe('listCategories');
  });
});
