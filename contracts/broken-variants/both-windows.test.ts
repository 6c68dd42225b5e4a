import { describe, expect, it } from '@jest/globals';
import { checkNamed } from '../checks/registry.js';
import type { CheckResult } from '../runner/check-result.js';
import { runChecks } from '../runner/run-checks.js';
import { suiteSettings } from '../runner/suite-settings.js';
import { startFakeTarget } from '../targets/fake-target.js';
import { brokenVariant } from './index.js';

/** Seeds of issue 53's evidence: the verdict must not depend on the one a run drew. */
const SEEDS = [11, 22, 33, 44, 55];

/** The checks whose answers cross both windows: a minute driven to its 429 and past it, and a day driven below the minute. */
const WINDOW_CHECKS = ['rate_limit_remaining_decreases', 'quota_window_rolls_over', 'both_quota_windows_held'];

/**
 * The suite against a fake, with the key's plan given (the fake's target) or not (what a URL target
 * knows: the plan only from the answers): each check's outcome, and the broken promises it reports.
 */
async function windowsRun(fake: Parameters<typeof startFakeTarget>[0], seed: number, planKnown: boolean) {
  const target = await startFakeTarget(fake);
  try {
    const { plan: _plan, ...withoutPlan } = target.descriptor;
    const descriptor = planKnown ? target.descriptor : withoutPlan;
    const results = await runChecks(WINDOW_CHECKS.map(checkNamed), descriptor, {
      settings: suiteSettings({ live: false, seed }),
    });
    return results;
  } finally {
    await target.close();
  }
}

/** The checks that failed with the promise among their findings. */
const failedWith = (results: CheckResult[], promise: string) =>
  results
    .filter(({ outcome, findings }) => outcome === 'failed' && findings?.some(({ id }) => id === promise))
    .map(({ check }) => check);

describe('both quota windows, on every answer (issue 53 item 4)', () => {
  for (const planKnown of [true, false]) {
    const given = planKnown ? 'the plan given' : 'the plan read from the answers (a URL target)';

    it(`passes the correct fake with ${given}, under seeds ${SEEDS.join(', ')}`, async () => {
      for (const seed of SEEDS) {
        const results = await windowsRun({}, seed, planKnown);
        expect([seed, results.filter(({ outcome }) => outcome !== 'passed')]).toEqual([seed, []]);
      }
    }, 120_000);

    for (const name of ['day-window-always-described', 'limit-of-the-other-window'])
      it(`catches ${name} with ${given} under seeds ${SEEDS.join(', ')}`, async () => {
        for (const seed of SEEDS) {
          const results = await windowsRun(brokenVariant(name).fake, seed, planKnown);
          const promise =
            planKnown && name === 'limit-of-the-other-window' ? 'fixed_utc_windows' : 'lower_window_described';
          expect([seed, failedWith(results, promise)]).toEqual([seed, expect.arrayContaining([expect.any(String)])]);
        }
      }, 120_000);
  }
});
