import { CheckNotApplicable, type Check } from './check.js';
import { expectErrorBody, expectStatus, expectThat, integerHeader } from './expectations.js';
import { DAY, MINUTE } from '../core/quota-windows.js';
import { rateLimitHeadersOf } from './rate-limit-checks.js';
import { underRule } from './rule-reports.js';

/** What the day window is left with: fewer than the minute's limit, so the day is the lower window. */
const DAY_LEFT = 3;

/**
 * Both quota windows at once, on the fake (its clock and its scenario controls): with the day nearly
 * used up and the minute full, every answer describes the day; the day's 0 holds across the next
 * minute (a fresh minute must not admit what the day refuses); the day's end admits again, described
 * by the minute. The run's model judges the same answers against what each implied about both windows.
 */
export const bothQuotaWindowsHeld: Check = {
  name: 'both_quota_windows_held',
  verifies:
    'with the day window lower than the minute, answers describe the day (its limit and Reset), count it down to a 429 that lasts past the next minute until the day ends, and only then admit again',
  needs: ['quota', 'clock'],
  async run({ send, clock, scenario, plan, wait, now }) {
    if (!clock || !scenario) throw new CheckNotApplicable('needs the fake: its clock and its quota controls');
    const minuteStart = (Math.floor(Date.now() / 1000 / MINUTE) + 2) * MINUTE;
    await clock.setEpochSeconds(minuteStart + 5);
    await scenario.setDayRemaining(DAY_LEFT);
    const dayEnd = Math.ceil((minuteStart + 6) / DAY) * DAY;
    for (let left = DAY_LEFT - 1; left >= 0; left -= 1) {
      const what = `a request with ${left + 1} left in the day and a full minute`;
      const exchange = await send({ method: 'GET', path: '/categories' });
      expectStatus(exchange, [200], what);
      const headers = rateLimitHeadersOf(exchange, what);
      await underRule('lower_window_described', () =>
        expectThat(
          headers.reset === dayEnd && headers.remaining === left && (!plan || headers.limit === plan.perDay),
          `The headers do not describe the day window, which has fewer left (${what})`,
          [
            `Received: Limit ${headers.limit}, Remaining ${headers.remaining}, Reset ${headers.reset} / Expected: Limit ${plan?.perDay ?? "the day's"}, Remaining ${left}, Reset ${dayEnd} (the end of the UTC day)`,
          ],
          exchange,
        ),
      );
    }
    const refused = await send({ method: 'GET', path: '/categories', expectsRateLimit: true });
    expectStatus(refused, [429], 'the day window used up');
    expectErrorBody(refused, 'rate_limit_exceeded', 'the day window used up');
    const retryAfter = integerHeader(refused, 'Retry-After', 'the day window used up');
    // The fake's Date is this machine's clock; its own is the one its windows follow.
    const untilDayEnd = dayEnd - Math.floor(await now());
    expectThat(
      retryAfter > MINUTE && retryAfter <= untilDayEnd + 2,
      'Retry-After does not wait for the day window, the exhausted one',
      [`Received: Retry-After ${retryAfter} / Expected: ${untilDayEnd} (until the day ends), not the minute's end`],
      refused,
    );
    await wait(MINUTE, 'a fresh minute: the day window is still used up');
    const nextMinute = await send({ method: 'GET', path: '/categories', expectsRateLimit: true });
    expectStatus(nextMinute, [429], 'a fresh minute with the day used up');
    await wait(dayEnd - Math.floor(await now()), 'until the day window ends (Retry-After)');
    const nextDay = await send({ method: 'GET', path: '/categories' });
    expectStatus(nextDay, [200], 'the first request of a fresh day');
  },
};
