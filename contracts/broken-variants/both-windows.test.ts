import { describe, expect, it } from '@jest/globals';
import type { Check } from '../checks/check.js';
import { checkNamed } from '../checks/registry.js';
import { DAY } from '../core/quota-windows.js';
import { rateLimitVerdict } from '../core/rate-limit-headers.js';
import type { CheckResult } from '../runner/check-result.js';
import { runChecks } from '../runner/run-checks.js';
import { suiteSettings } from '../runner/suite-settings.js';
import { startFakeTarget } from '../targets/fake-target.js';
import { brokenVariant } from './index.js';

/** Seeds of issue 53's evidence: the verdict must not depend on the one a run drew. */
const SEEDS = [11, 22, 33, 44, 55];

/** The checks whose answers cross both windows: a minute driven to its 429 and past it, and a day driven below the minute. */
const WINDOW_CHECKS = ['rate_limit_remaining_decreases', 'quota_window_rolls_over', 'both_quota_windows_held'];

/** Which window each answer of {@link lateInADay} described, in order: `minute` or `day`. */
let described: string[] = [];

/**
 * A free key late in a UTC day (the fake's clock moved to 23:58:05, its day set to 62 left): the minute
 * is the lower window while the day has more than the minute's 60, then, in the day's last minute, the
 * day; the next day the minute again. The check only sends: the run's model judges every answer.
 */
const lateInADay: Check = {
  name: 'late_in_a_day' as Check['name'], // a check of this test only, in no registry
  verifies: "a free key's answers across the end of a UTC day whose window falls below the minute's",
  needs: ['quota', 'clock'],
  async run({ send, clock, scenario }) {
    const dayEnd = (Math.floor(Date.now() / 1000 / DAY) + 2) * DAY;
    const read = async () => {
      const { headers } = rateLimitVerdict(await send({ method: 'GET', path: '/categories' })) as {
        headers: { reset: number };
      };
      described.push(headers.reset % DAY === 0 ? 'day' : 'minute');
    };
    await clock!.setEpochSeconds(dayEnd - 115);
    await scenario!.setDayRemaining(62);
    for (let sent = 0; sent < 4; sent += 1) await read();
    await clock!.setEpochSeconds(dayEnd - 55);
    for (let sent = 0; sent < 4; sent += 1) await read();
    await clock!.setEpochSeconds(dayEnd + 5);
    await read();
  },
};

/**
 * The suite against a fake, with the key's plan given (the fake's target) or not (what a URL target
 * knows: the plan only from the answers): each check's outcome, and the broken promises it reports.
 */
async function windowsRun(
  fake: Parameters<typeof startFakeTarget>[0],
  seed: number,
  planKnown: boolean,
  checks: Check[] = WINDOW_CHECKS.map(checkNamed),
) {
  const target = await startFakeTarget(fake);
  try {
    const { plan: _plan, ...withoutPlan } = target.descriptor;
    const descriptor = planKnown ? target.descriptor : withoutPlan;
    const results = await runChecks(checks, descriptor, {
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

  it('holds a free key late in a UTC day to the lower window: the minute, the day in its last minute, the minute the next day', async () => {
    described = [];
    const correct = await windowsRun({}, 11, true, [lateInADay]);
    expect([correct.map(({ outcome }) => outcome), described]).toEqual([
      ['passed'],
      ['minute', 'minute', 'minute', 'minute', 'day', 'day', 'day', 'day', 'minute'],
    ]);
    for (const name of ['day-window-always-described', 'minute-window-always-described']) {
      const broken = await windowsRun(brokenVariant(name).fake, 11, true, [lateInADay]);
      expect([name, failedWith(broken, 'lower_window_described')]).toEqual([name, ['late_in_a_day']]);
    }
  }, 60_000);
});
