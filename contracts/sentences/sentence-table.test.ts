import { describe, expect, it } from '@jest/globals';
import { CHECKS } from '../checks/registry.js';
import { PROMISE_NAMES } from '../model/promise-rules.js';
import { SENTENCE_TABLE } from './sentence-table.js';
import { specSentences } from './spec-sentences.js';

const rowOf = (sentence: string) => SENTENCE_TABLE.find((row) => row.sentence === sentence);

describe("the table of the spec's sentences", () => {
  it('has a row for every sentence of spec/openapi.yaml (a new sentence needs its check, or a reason)', () => {
    const missing = specSentences()
      .filter(({ sentence }) => !rowOf(sentence))
      .map(({ where, sentence }) => `${where}: ${sentence}`);
    expect(missing).toEqual([]);
  });

  it('has no row for a sentence the spec no longer has', () => {
    const sentences = new Set(specSentences().map(({ sentence }) => sentence));
    expect(SENTENCE_TABLE.map(({ sentence }) => sentence).filter((sentence) => !sentences.has(sentence))).toEqual([]);
  });

  it('names only checks of the registry and promises of the model, and gives each row a check or a reason', () => {
    const known = new Set<string>([...CHECKS.map(({ name }) => name), ...PROMISE_NAMES]);
    expect(SENTENCE_TABLE.flatMap(({ verifiedBy = [] }) => verifiedBy).filter((name) => !known.has(name))).toEqual([]);
    expect(
      SENTENCE_TABLE.filter(({ verifiedBy, notCheckable }) => (verifiedBy ?? []).length === 0 && !notCheckable),
    ).toEqual([]);
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
