import { describe, expect, it } from '@jest/globals';
import { CHECKS } from '../checks/registry.js';
import { PROMISE_NAMES } from '../model/promise-rules.js';
import { SENTENCE_KEYS, SENTENCE_TABLE, withSentences } from './sentence-table.js';
import { SpecPhraseError, specSentence, specSentences, theSpecSays } from './spec-sentences.js';

describe("the table of the spec's sentences", () => {
  it('finds, for each row, exactly one sentence of spec/openapi.yaml', () => {
    expect(() => withSentences(SENTENCE_KEYS)).not.toThrow();
    expect(SENTENCE_TABLE.map(({ sentence }) => sentence)).not.toContain('');
  });

  it('has a row for every sentence of spec/openapi.yaml (a new sentence needs its check, or a reason)', () => {
    const rowsOf = (sentence: string) => SENTENCE_TABLE.filter((row) => row.sentence === sentence).length;
    const uncovered = specSentences()
      .filter(({ sentence }) => rowsOf(sentence) !== 1)
      .map(({ where, sentence }) => `${where}: ${sentence} (${rowsOf(sentence)} rows)`);
    expect(uncovered).toEqual([]);
  });

  it('names only checks of the registry and promises of the model, and gives each row a check or a reason', () => {
    const known = new Set<string>([...CHECKS.map(({ name }) => name), ...PROMISE_NAMES]);
    expect(SENTENCE_KEYS.flatMap(({ verifiedBy = [] }) => verifiedBy).filter((name) => !known.has(name))).toEqual([]);
    expect(
      SENTENCE_KEYS.filter(({ verifiedBy, notCheckable }) => (verifiedBy ?? []).length === 0 && !notCheckable),
    ).toEqual([]);
  });

  it('reads each sentence from the spec: a reworded spec fails loudly, naming the key', () => {
    const reworded = specSentences({ info: { description: 'Every list is sorted. Every map is sorted.' } });
    expect(specSentence('Every list', reworded)).toBe('Every list is sorted.');
    expect(() => specSentence('Not paginated', reworded)).toThrow(
      /no sentence of spec\/openapi.yaml holds "Not paginated"/,
    );
    expect(() => specSentence('is sorted', reworded)).toThrow(/"is sorted" is in 2 sentences/);
    expect(() => withSentences([{ phrase: 'Not paginated', verifiedBy: ['stored_as_sent'] }], reworded)).toThrow(
      SpecPhraseError,
    );
  });

  it("quotes the spec's own words for a requirement, joined where they stand apart", () => {
    expect(theSpecSays(['Missing or invalid keys', 'Not paginated'])).toEqual({
      quote: 'Missing or invalid keys give 401. … Not paginated.',
      where: 'spec/openapi.yaml',
      binds: 'server',
    });
  });

  it('finds a sentence wherever the spec writes one, list items included', () => {
    const document = {
      info: { description: 'Rules:\n\n- Every list is sorted.\n- Nothing is paginated, e.g. `x`. Ever.' },
      paths: {},
    };
    expect(specSentences(document).map(({ sentence }) => sentence)).toEqual([
      'Rules:',
      'Every list is sorted.',
      'Nothing is paginated, e.g. `x`.',
      'Ever.',
    ]);
  });
});
