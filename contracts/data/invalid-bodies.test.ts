import { describe, expect, it } from '@jest/globals';
import { invalidNewCategoryBodies } from '../checks/body-checks.js';
import { specValidators } from '../spec/spec-validators.js';
import { invalidBodiesFor } from './invalid-bodies.js';

describe('invalidBodiesFor', () => {
  const newCategory = specValidators().component('NewCategory');

  it('generates only bodies the schema refuses', () => {
    const accepted = invalidNewCategoryBodies().filter(({ body }) => newCategory(body));
    expect(accepted).toEqual([]);
  });

  it('probes every constraint of NewCategory: type, required, additionalProperties, and each property\'s', () => {
    const breaks = invalidBodiesFor('NewCategory').map((invalid) => invalid.breaks);
    expect(breaks).toEqual(expect.arrayContaining([
      'type object, given array',
      'required name',
      'additionalProperties false, given "unexpected"',
      'name: type string, given integer',
      'name: minLength 1',
      'name: maxLength 100',
      'name: pattern \\S, given " "',
      'description: type string, given null',
      'description: maxLength 500',
    ]));
  });

  it('keeps the properties not under test valid, with the values given', () => {
    const tooLong = invalidBodiesFor('NewCategory', { name: 'contract-invalid-body' }).find((invalid) => invalid.breaks === 'description: maxLength 500');
    expect(tooLong?.body).toEqual({ name: 'contract-invalid-body', description: 'x'.repeat(501) });
    expect(newCategory({ name: 'contract-invalid-body' })).toBe(true);
  });

  it('follows the schema: a Tag gets its own constraints, e.g. id minimum 1', () => {
    expect(invalidBodiesFor('Tag').map((invalid) => invalid.breaks)).toEqual(expect.arrayContaining(['id: minimum 1', 'id: type integer, given a fraction', 'name: minLength 1']));
  });
});
