import { describe, expect, it } from '@jest/globals';
import { evidenceFacets } from './evidence.js';

describe('evidenceFacets', () => {
  it('is what a case breaks, when it names it', () => {
    expect(evidenceFacets({ breaks: 'name: maxLength', body: { name: 'x' } })).toEqual(['breaks name: maxLength']);
  });

  it('is each member, class of character and length boundary a value holds', () => {
    const facets = evidenceFacets({ name: 'é\u202e𝒜', description: '' });
    expect(facets).toEqual(
      expect.arrayContaining([
        '$: {description, name}',
        '$.name: latin-1',
        '$.name: bidi-control',
        '$.name: astral',
        '$.name: length short',
        '$.description: length 0',
        '$.description: blank',
      ]),
    );
    expect(evidenceFacets({ name: 'x'.repeat(100) })).toContain('$.name: length 100');
  });

  it('gives two values of one shape and class the same facets, so the second is no new evidence', () => {
    expect(evidenceFacets({ name: 'dog' })).toEqual(evidenceFacets({ name: 'cat' }));
    expect(evidenceFacets(2 ** 60)).toContain('$: past 2^53');
  });
});
