/** @startsFirst the suite from a grown copy of the spec, against the fake over HTTP: mostly waits for quota windows (test/waiting-first-sequencer.js). */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { CheckResult } from '../runner/check-result.js';
import { failuresOf, findingsOf, grownSuite } from '../../test/support/grown-spec.js';

// A copy of the spec grown by a read and a delete of one category (`GET` and `DELETE /categories/{categoryId}`):
// the generated reads cover the new read, and a read after a delete is held to the deletion.
const grown = await grownSuite(['read', 'delete']);

describe('the suite run from a copy of the spec grown by GET and DELETE /categories/{categoryId}', () => {
  afterAll(() => grown.remove());

  it('reads the new operations as a read and a delete of the categories listCategories lists', () => {
    const models = grown.operationModels().filter(({ operation }) => operation.path === '/categories/{categoryId}');
    expect(models.map(({ kind, listedBy }) => [kind, listedBy?.operationId])).toEqual([
      ['read', 'listCategories'],
      ['delete', 'listCategories'],
    ]);
  });

  describe('against a service that implements them', () => {
    let results: CheckResult[] = [];
    beforeAll(async () => {
      results = await grown.runAgainst('correct');
    }, 300_000);

    it('passes every check (exit 0)', () => {
      expect(failuresOf(results)).toEqual([]);
    });
  });

  it('catches a service whose deleted category is still read (a read of it answers 200, not 404)', async () => {
    const found = findingsOf(await grown.runAgainst('deleted-still-read'));
    expect(found).toContainEqual(
      expect.objectContaining({
        id: 'stored_as_sent',
        operation: 'getCategory',
        title: expect.stringContaining('A deleted record is still read'),
      }),
    );
  }, 300_000);
});
