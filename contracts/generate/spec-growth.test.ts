/** @startsFirst the suite from a grown copy of the spec, against the fake over HTTP: mostly waits for quota windows (test/waiting-first-sequencer.js). */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { CheckResult } from '../runner/check-result.js';
import { failuresOf, findingsOf, grownSuite } from '../../test/support/grown-spec.js';

// A copy of the spec grown by `DELETE /categories/{categoryId}` (204, 400, 401, 404): the suite runs from it
// with no new code, passes a service that implements it (in-process with every capability of the fake,
// and through the command line as against a live service), and catches two that break it.
const grown = await grownSuite(['delete']);

describe('the suite run from a copy of the spec grown by DELETE /categories/{categoryId}', () => {
  afterAll(() => grown.remove());

  it('reads the new operation as a delete of the categories listCategories lists', () => {
    const deletion = grown.operationModels().find(({ operation }) => operation.operationId === 'deleteCategory');
    expect(deletion).toMatchObject({ kind: 'delete', successStatus: 204 });
    expect(deletion?.listedBy?.operationId).toBe('listCategories');
  });

  describe('against a service that implements it', () => {
    let results: CheckResult[] = [];
    beforeAll(async () => {
      results = await grown.runAgainst('correct');
    }, 300_000);

    it('passes every check', () => {
      expect(failuresOf(results)).toEqual([]);
      expect(results.filter(({ outcome }) => outcome === 'passed').length).toBeGreaterThan(grown.checks.length / 2);
    });

    it('exits 0 from `npm run contract` against it as a URL, as a user runs it (PETSTORE_SPEC=copy)', async () => {
      const { code, printed, deleted } = await grown.contractCli('correct', [
        '--api-key',
        'enterprise-test-key',
        '--allow',
        'writes',
        '--seed',
        '1',
      ]);
      expect({ code, summary: /\d+ passed, \d+ failed/.exec(printed)?.[0] }).toEqual({
        code: 0,
        summary: expect.stringMatching(/ 0 failed$/),
      });
      // It deletes only categories it created: never one of the three seeded (someone's data on a live service).
      expect(deleted.length).toBeGreaterThan(0);
      expect(deleted.filter((id) => id <= 3)).toEqual([]);
    }, 300_000);
  });

  it.each([
    [
      'keyless-delete',
      'a delete without a key is admitted',
      {
        id: 'refused_never_admitted',
        operation: 'deleteCategory',
        title: 'A request the spec refuses was answered 204',
      },
    ],
    [
      'deleted-still-listed',
      'a delete answers 204 and leaves the category listed',
      { id: 'stored_as_sent', operation: 'listCategories', title: 'A deleted record is still listed' },
    ],
  ] as const)(
    'catches a service whose %s (%s)',
    async (behaviour, _breaks, { title, ...finding }) => {
      const found = findingsOf(await grown.runAgainst(behaviour));
      expect(found).toContainEqual(expect.objectContaining({ ...finding, title: expect.stringContaining(title) }));
    },
    300_000,
  );
});
