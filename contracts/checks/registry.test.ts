import { describe, expect, it } from '@jest/globals';
import { CHECK_NAMES } from '../core/contract-ids.js';
import { CHECKS, checkNamed } from './registry.js';

describe('the registry of checks', () => {
  it('holds one check for every name of CHECK_NAMES, in its order, and no other', () => {
    expect(CHECKS.map(({ name }) => name)).toEqual([...CHECK_NAMES]);
  });

  it('finds a check by its name, and names the known ones for a misspelt name', () => {
    expect(checkNamed('method_not_allowed').name).toBe('method_not_allowed');
    expect(() => checkNamed('method_not_alowed')).toThrow(/known: list_categories_conforms, /);
  });
});
