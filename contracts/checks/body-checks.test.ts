import { describe, expect, it } from '@jest/globals';
import { brokenVariant } from '../broken-variants/index.js';
import { runChecks } from '../runner/run-checks.js';
import { suiteSettings } from '../runner/suite-settings.js';
import { startFakeTarget, type FakeTargetOptions } from '../targets/fake-target.js';
import { invalidBodyRejected } from './body-checks.js';

/** Seeds other than the broken variants' own: which generated cases a run draws must not move the verdict. */
const SEEDS = [11, 22, 33, 44, 55];

/** The kinds and ids of what invalid_body_rejected finds on a fake, under a seed. */
async function findingsUnder(fake: FakeTargetOptions, seed: number): Promise<string[]> {
  const target = await startFakeTarget(fake);
  try {
    const settings = suiteSettings({ live: false, seed });
    const [result] = await runChecks([invalidBodyRejected], target.descriptor, { settings });
    return (result?.findings ?? []).map(({ kind, id }) => `${kind} ${id}`);
  } finally {
    await target.close();
  }
}

describe('invalid_body_rejected and member names in another letter case', () => {
  it('names the rule property_names_exact for {"Name": ...} admitted, under each of five seeds (beside the model’s own finding)', async () => {
    const { fake } = brokenVariant('property-names-case-folded');
    for (const seed of SEEDS)
      expect([seed, await findingsUnder(fake, seed)]).toEqual([
        seed,
        expect.arrayContaining(['rule property_names_exact']),
      ]);
  }, 120_000);

  it('finds nothing on the fake, which refuses them', async () => {
    expect(await findingsUnder({}, SEEDS[0]!)).toEqual([]);
  }, 60_000);
});
