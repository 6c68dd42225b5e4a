import { describe, expect, it } from '@jest/globals';
import { specValidators } from './spec-validators.js';

describe('specValidators', () => {
  it('compiles each operation + status + media type once and serves it from the cache', () => {
    const first = specValidators().body('listCategories', 200, 'application/json');
    expect(first).toBeDefined();
    expect(specValidators().body('listCategories', 200, 'application/json')).toBe(first);
    expect(specValidators()).toBe(specValidators());
  });

  it('has no body validator for an undocumented status or media type', () => {
    expect(specValidators().body('listCategories', 503, 'application/json')).toBeUndefined();
    expect(specValidators().body('listCategories', 200, 'text/plain')).toBeUndefined();
  });

  it('checks int64 ids: integers up to 2^63, not fractions or strings', () => {
    const category = specValidators().component('Category');
    // eslint-disable-next-line no-loss-of-precision -- the point: an id past 2^53 that JSON still carries
    expect(category({ id: 9_007_199_254_740_993, name: 'big' })).toBe(true);
    expect(category({ id: 2 ** 64, name: 'too big' })).toBe(false);
    expect(category({ id: 1.5, name: 'fraction' })).toBe(false);
    expect(category({ id: '1', name: 'string' })).toBe(false);
    expect(category({ id: 0, name: 'zero' })).toBe(false);
  });

  it('checks formats from ajv-formats (date-time) and int32', () => {
    const order = specValidators().component('Order');
    const valid = { id: 1, petId: 1, quantity: 1, shipDate: '2026-11-20T10:00:00Z', status: 'placed', complete: false };
    expect(order(valid)).toBe(true);
    expect(order({ ...valid, shipDate: 'next tuesday' })).toBe(false);
    expect(order({ ...valid, quantity: 2 ** 31 })).toBe(false);
  });
});
