import { describe, expect, it } from '@jest/globals';
import { override } from '../../mocks/handlers/typed-override.js';
import { CheckFailure, type Check } from '../checks/check.js';
import { startFakeTarget } from '../targets/fake-target.js';
import { runCheck } from './run-check.js';
import { suiteSettings } from './suite-settings.js';

/**
 * A check that meets two defects: an answer the model finds broken (the orders' list without `Date`, a
 * MUST of RFC 9110 §6.6.1), then one of its own judgement on another answer.
 */
const twoDefects: Check = {
  name: 'two_defects' as Check['name'], // a check of this test only, in no registry
  verifies: 'a test check',
  needs: [],
  async run({ send }) {
    await send({ method: 'GET', path: '/store/orders' });
    const other = await send({ method: 'GET', path: '/categories' });
    throw new CheckFailure('The list is not what the check wanted', ['Received: 200 / Expected: 418'], other);
  },
};

describe('a check the model failed', () => {
  it("keeps the check's own failure as a finding beside the model's, each with its own reproduction", async () => {
    const target = await startFakeTarget({
      overrides: [
        override.get('/store/orders', async ({ next }) => {
          const answer = await next();
          return { ...answer, headers: { ...answer.headers, Date: '' } };
        }),
      ],
    });
    try {
      const result = await runCheck(twoDefects, target.descriptor, {
        settings: suiteSettings({ live: false, seed: 1 }),
      });
      expect(result.outcome).toBe('failed');
      const found = (result.findings ?? []).map(({ id, curl }) => [id, /\/v1\/(\S+)'/.exec(curl ?? '')?.[1]]);
      expect(found).toEqual(expect.arrayContaining([['two_defects', 'categories']]));
      expect(found.filter(([id]) => id !== 'two_defects').map(([, path]) => path)).toContain('store/orders');
      expect(result.failure?.lines.join('\n')).toContain('The list is not what the check wanted');
    } finally {
      await target.close();
    }
  }, 60_000);
});
