import { describe, expect, it } from '@jest/globals';
import { normalizedPath } from './path-normalization.js';

describe('normalizedPath', () => {
  it('decodes percent-encoded unreserved characters, in either hex case', () => {
    expect(normalizedPath('/p%65ts/%31')).toBe('/pets/1');
    expect(normalizedPath('/categori%65s')).toBe('/categories');
    expect(normalizedPath('/%7e%2D%5F%2e')).toBe('/~-_.');
  });

  it('keeps every other escape, the encoded slash included, and malformed ones as sent', () => {
    expect(normalizedPath('/pets%2F1')).toBe('/pets%2F1');
    expect(normalizedPath('/pets/%20')).toBe('/pets/%20');
    expect(normalizedPath('/pets/%ZZ%4')).toBe('/pets/%ZZ%4');
  });

  it('keeps the letter case of the path itself', () => {
    expect(normalizedPath('/Pets')).toBe('/Pets');
  });
});
