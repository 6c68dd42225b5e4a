import { describe, expect, it } from '@jest/globals';
import { specDocument } from './spec-artifacts.js';
import { describeSchemaErrors } from './schema-errors.js';
import { SchemaRegistry } from './schema-registry.js';

const registry = new SchemaRegistry(specDocument());

describe('describeSchemaErrors', () => {
  it('names each broken rule with its field', () => {
    const validate = registry.validator('NewCategory');
    expect(validate({ name: ' ', extra: 1 })).toBe(false);
    expect(describeSchemaErrors(validate.errors, 'body')).toBe(
      'body: extra is not an allowed field; body: name must not be blank',
    );
  });

  it('names at most five problems, so a hostile body cannot inflate the message', () => {
    const validate = registry.validator('NewCategory');
    const body = Object.fromEntries(Array.from({ length: 2_000 }, (_, i) => [`k${i}`, i]));
    expect(validate({ name: 'a', ...body })).toBe(false);
    const message = describeSchemaErrors(validate.errors, 'body');
    expect(message).toMatch(/^body: k0 is not an allowed field; .*; and 1995 more$/);
    expect(message.length).toBeLessThan(300);
  });
});
