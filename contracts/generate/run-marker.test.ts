import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { specValidators } from '../conformance/spec-validators.js';
import { invalidObjectCases } from './invalid-values.js';
import { carriesMarker, markedBody, runMarker } from './run-marker.js';
import { codePointLength } from './unicode.js';
import { boundaryObjects, validValues } from './valid-values.js';

const NEW_CATEGORY = { $ref: '#/components/schemas/NewCategory' };
const MARK = runMarker(1234);
const errorsOf = (value: unknown) => {
  const validate = specValidators().component('NewCategory');
  validate(value);
  return [...new Set((validate.errors ?? []).map((error) => `${error.instancePath} ${error.keyword}`))].sort();
};

describe('the run marker', () => {
  it('names the seed', () => {
    expect(MARK).toBe('ct1234-');
  });

  it('marks every boundary body, each still valid, and the boundaries are still reached', () => {
    const marked = boundaryObjects(NEW_CATEGORY).map(
      (body) => markedBody(NEW_CATEGORY, body, MARK) as Record<string, unknown>,
    );
    for (const body of marked) {
      expect(errorsOf(body)).toEqual([]);
      expect(carriesMarker(body, MARK)).toBe(true);
    }
    const lengths = (field: string) =>
      new Set(
        marked.map((body) => (typeof body[field] === 'string' ? codePointLength(body[field] as string) : undefined)),
      );
    expect([...lengths('name')]).toEqual(expect.arrayContaining([1, 100]));
    expect([...lengths('description')]).toEqual(expect.arrayContaining([0, 500, undefined]));
  });

  it('puts the mark in an absent field when the name is too short to carry it', () => {
    expect(markedBody(NEW_CATEGORY, { name: 'x' }, MARK)).toEqual({ name: 'x', description: MARK });
    expect(markedBody(NEW_CATEGORY, { name: 'x', description: '' }, MARK)).toEqual({
      name: `${MARK}x`,
      description: '',
    });
  });

  it('marks generated valid bodies and leaves them valid', () => {
    fc.assert(
      fc.property(validValues(NEW_CATEGORY), (body) => {
        const marked = markedBody(NEW_CATEGORY, body, MARK);
        expect(errorsOf(marked)).toEqual([]);
        expect(carriesMarker(marked, MARK)).toBe(true);
      }),
      { seed: 7, numRuns: 200 },
    );
  });

  it('keeps an invalid body invalid for the same reasons, marked where a field can carry it', () => {
    let marked = 0;
    for (const { values } of invalidObjectCases(NEW_CATEGORY)) {
      for (const body of fc.sample(values, { seed: 3, numRuns: 10 })) {
        const after = markedBody(NEW_CATEGORY, body, MARK);
        expect(errorsOf(after)).toEqual(errorsOf(body));
        if (carriesMarker(after, MARK)) marked += 1;
      }
    }
    expect(marked).toBeGreaterThan(0);
    expect(markedBody(NEW_CATEGORY, { name: '   ' }, MARK)).toEqual({ name: '   ', description: MARK });
    expect(markedBody(NEW_CATEGORY, [1], MARK)).toEqual([1]);
  });

  it('leaves a body that already carries the mark as it is', () => {
    const body = { name: `${MARK}dog` };
    expect(markedBody(NEW_CATEGORY, body, MARK)).toBe(body);
  });
});
