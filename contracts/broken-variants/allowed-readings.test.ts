import { describe, expect, it } from '@jest/globals';
import { CHECKS } from '../checks/registry.js';
import { runChecks } from '../runner/run-checks.js';
import { suiteSettings } from '../runner/suite-settings.js';
import { startFakeTarget } from '../targets/fake-target.js';
import { ALLOWED_READINGS } from './allowed-readings.js';

/**
 * A seed per reading, each another: the whole suite runs once per reading (what CI's time affords), and
 * a reading the contract allows passes whichever cases a run draws. `PETSTORE_CONTRACT_SEED` replays one.
 */
const seedOf = (index: number) => Number(process.env.PETSTORE_CONTRACT_SEED ?? 11 * (index + 1));

describe('the contract suite against fakes that read the spec another allowed way', () => {
  it.each(ALLOWED_READINGS.map((reading, index) => [reading.name, seedOf(index), reading] as const))(
    '%s passes every check under seed %d',
    async (_name, seed, reading) => {
      const target = await startFakeTarget(reading.fake);
      try {
        const results = await runChecks(CHECKS, target.descriptor, { settings: suiteSettings({ live: false, seed }) });
        const failed = results.filter((result) => result.outcome === 'failed');
        // What the reading is and the sentence that lets it, beside any check that failed it.
        expect({ reads: reading.reads, failed: failed.map(({ check, failure }) => ({ check, failure })) }).toEqual({
          reads: reading.reads,
          failed: [],
        });
      } finally {
        await target.close();
      }
    },
    180_000,
  );
});
