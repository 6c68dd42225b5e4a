import { describe, expect, it } from '@jest/globals';
import { CHECKS } from '../checks/registry.js';
import { runChecks } from '../runner/run-checks.js';
import { suiteSettings } from '../runner/suite-settings.js';
import { startFakeTarget } from '../targets/fake-target.js';
import { ALLOWED_READINGS } from './allowed-readings.js';

/** Seeds each reading runs under: a reading the contract allows passes whichever cases a run draws. */
const SEEDS = [11, 22];

describe('the contract suite against fakes that read the spec another allowed way', () => {
  describe.each(ALLOWED_READINGS.map((reading) => [reading.name, reading] as const))('%s', (_name, reading) => {
    it.each(SEEDS)(
      `passes every check under seed %d (${reading.reads})`,
      async (seed) => {
        const target = await startFakeTarget(reading.fake);
        try {
          const results = await runChecks(CHECKS, target.descriptor, {
            settings: suiteSettings({ live: false, seed }),
          });
          const failed = results.filter((result) => result.outcome === 'failed');
          expect(failed.map(({ check, failure }) => ({ check, title: failure?.title, lines: failure?.lines }))).toEqual(
            [],
          );
        } finally {
          await target.close();
        }
      },
      180_000,
    );
  });
});
