import { describe, expect, it } from '@jest/globals';
import { parseHeaderValue } from './header-value.js';

describe('parseHeaderValue', () => {
  it('turns plain digits into an integer when the schema wants an integer', () => {
    expect(parseHeaderValue('59', { type: 'integer' })).toEqual({ ok: true, value: 59 });
    expect(parseHeaderValue('0', { type: 'integer', minimum: 0 })).toEqual({ ok: true, value: 0 });
  });

  it.each(['60.0', ' 60', '1e3', '-1', '', '0x10', '60 '])('refuses %j as an integer header', (raw) => {
    expect(parseHeaderValue(raw, { type: 'integer' })).toEqual({
      ok: false,
      reason: expect.stringContaining('not an integer'),
    });
  });

  it('refuses integers too large to be exact', () => {
    expect(parseHeaderValue('90071992547409930', { type: 'integer' })).toEqual({
      ok: false,
      reason: expect.stringContaining('too large'),
    });
  });

  it('passes strings through for string schemas', () => {
    expect(parseHeaderValue('@1782864000', { type: 'string', pattern: '^@-?[0-9]+$' })).toEqual({
      ok: true,
      value: '@1782864000',
    });
  });
});
