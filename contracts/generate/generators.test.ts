import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { isUtf8 } from 'node:buffer';
import { specValidators } from '../conformance/spec-validators.js';
import { invalidObjectCases } from './invalid-values.js';
import { malformedBodies } from './malformed-bodies.js';
import { codePointLength } from './unicode.js';
import { boundaryObjects, validValues } from './valid-values.js';

const NEW_CATEGORY = { $ref: '#/components/schemas/NewCategory' };
const accepts = (value: unknown) => specValidators().component('NewCategory')(value) === true;

describe('generators read from the spec', () => {
  it('generate only values the spec accepts, with optional fields both present and absent', () => {
    const values = fc.sample(validValues(NEW_CATEGORY), { numRuns: 300, seed: 3 }) as Array<Record<string, unknown>>;
    expect(values.every(accepts)).toBe(true);
    expect(values.some((value) => 'description' in value)).toBe(true);
    expect(values.some((value) => !('description' in value))).toBe(true);
    expect(values.some((value) => /[\u{10000}-\u{10ffff}]/u.test(String(value.name)))).toBe(true);
  });

  it('put every length boundary in the boundary examples, counted in code points, in stressing Unicode', () => {
    const examples = boundaryObjects(NEW_CATEGORY);
    expect(examples.every(accepts)).toBe(true);
    const nameLengths = examples.map(({ name }) => codePointLength(String(name)));
    expect(nameLengths).toEqual(expect.arrayContaining([1, 100]));
    expect(examples.map(({ description }) => description)).toEqual(expect.arrayContaining(['', undefined]));
    expect(examples.some(({ name }) => name === '🐾'.repeat(100))).toBe(true);
    expect(
      examples.some(
        (example) => typeof example.description === 'string' && codePointLength(example.description) === 500,
      ),
    ).toBe(true);
  });

  it('break exactly the constraint they name, each case refused by the spec', () => {
    const cases = invalidObjectCases(NEW_CATEGORY);
    expect(cases.map(({ breaks }) => breaks)).toEqual(
      expect.arrayContaining([
        'required name',
        'additionalProperties false',
        'name: minLength 1',
        'name: maxLength 100',
        'name: pattern \\S',
        'description: maxLength 500',
        'type object, given array',
      ]),
    );
    for (const { breaks, values } of cases) {
      for (const value of fc.sample(values, { numRuns: 20, seed: 5 }))
        expect({ breaks, accepted: accepts(value) }).toEqual({ breaks, accepted: false });
    }
  });

  it('make malformed bodies that are never a UTF-8 JSON text', () => {
    for (const arbitrary of malformedBodies(validValues(NEW_CATEGORY))) {
      for (const { breaks, bytes } of fc.sample(arbitrary, { numRuns: 15, seed: 8 })) {
        const parses =
          isUtf8(bytes) &&
          (() => {
            try {
              JSON.parse(new TextDecoder().decode(bytes));
              return accepts(JSON.parse(new TextDecoder().decode(bytes)));
            } catch {
              return false;
            }
          })();
        expect({ breaks, valid: parses, underLimit: bytes.byteLength <= 16 * 1024 }).toEqual({
          breaks,
          valid: false,
          underLimit: true,
        });
      }
    }
  });
});
