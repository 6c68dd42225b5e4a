import { describe, expect, it } from '@jest/globals';
import { specDocument } from '../../spec/spec-artifacts.js';
import { documentedOperation, readSpecDocument } from '../core/spec-document.js';
import { requestEvidence, schemaEvidence } from './schema-evidence.js';
import { boundaryObjects } from './valid-values.js';
import { invalidObjectCases } from './invalid-values.js';
import fc from 'fast-check';

const ids = (spec = undefined as Parameters<typeof schemaEvidence>[0]) => schemaEvidence(spec).map(({ id }) => id);

describe('the schema part of the evidence catalogue, derived from the spec', () => {
  it('has each keyword of each schema a request carries, null, and each class of valid value', () => {
    expect(ids()).toEqual(
      expect.arrayContaining([
        'createCategory body: type',
        'createCategory body: required name',
        'createCategory body: additionalProperties',
        'createCategory body.name: minLength',
        'createCategory body.name: maxLength',
        'createCategory body.name: pattern',
        'createCategory body.description: null',
        'createCategory body.name: length 100',
        'createCategory body.description: length 0',
        'createCategory body.name: cjk',
        'createCategory body.name: space',
        'createCategory body: without description',
        'getPetById path petId: minimum',
        'getPetById path petId: the maximum',
      ]),
    );
    // Entries that need writes say so: a URL without --allow writes cannot take them.
    expect(schemaEvidence().find(({ id }) => id === 'createCategory body: type')?.needs).toEqual(['writes']);
  });

  it('gives a property and an operation added to a copy of the spec their entries with no new code', () => {
    const document = structuredClone(specDocument()) as { paths: Record<string, Record<string, unknown>> };
    document.paths['/pets/{petId}']!.put = {
      operationId: 'renamePet',
      parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'integer', minimum: 1, maximum: 99 } }],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['name'],
              properties: { name: { type: 'string', maxLength: 5 }, colour: { type: 'string', enum: ['red', 'blue'] } },
            },
          },
        },
      },
      responses: { '200': { description: 'renamed' } },
    };
    const spec = readSpecDocument(document);
    expect(ids(spec)).toEqual(
      expect.arrayContaining([
        'renamePet body.colour: enum',
        'renamePet body: without colour',
        'renamePet path petId: maximum',
        'renamePet body: required name',
        'renamePet body.name: maxLength',
        'renamePet body.name: digit',
      ]),
    );
    expect(ids().some((id) => id.startsWith('renamePet'))).toBe(false);
  });

  it('reads what a request tries from the request itself: broken keywords, or classes of valid value', () => {
    const create = documentedOperation('createCategory');
    const tries = (json: unknown) => requestEvidence({ method: 'POST', path: '/categories', json }, create);
    expect(tries({ name: '' })).toEqual(['createCategory body.name: minLength', 'createCategory body.name: pattern']);
    expect(tries({ name: 'x', description: null })).toEqual(
      expect.arrayContaining(['createCategory body.description: type', 'createCategory body.description: null']),
    );
    expect(tries({ name: 'x\u732bx' })).toEqual(
      expect.arrayContaining(['createCategory body.name: cjk', 'createCategory body: without description']),
    );
    // A body not sent as JSON tries none of them.
    expect(
      requestEvidence({ method: 'POST', path: '/categories', json: { name: '' }, contentType: 'text/plain' }, create),
    ).toEqual([]);
    const pet = documentedOperation('getPetById');
    const path = (id: string) => requestEvidence({ method: 'GET', path: `/pets/${id}` }, pet);
    expect([path('0'), path('1'), path('9223372036854775808'), path('1e3')]).toEqual([
      ['getPetById path petId: minimum'],
      ['getPetById path petId: the minimum'],
      ['getPetById path petId: maximum'],
      ['getPetById path petId: type'],
    ]);
  });

  it('is tried whole by the fixed cases the generators make, whatever the seed', () => {
    const create = documentedOperation('createCategory');
    const schema = create.requestBody!.content['application/json']!;
    const sent = [
      ...boundaryObjects(schema),
      ...invalidObjectCases(schema).map(({ values }) => fc.sample(values, { numRuns: 1, seed: 0 })[0]),
    ];
    const tried = new Set(
      sent.flatMap((json) => requestEvidence({ method: 'POST', path: '/categories', json }, create)),
    );
    const body = ids().filter((id) => id.startsWith('createCategory body'));
    expect(body.filter((id) => !tried.has(id))).toEqual([]);
  });
});
