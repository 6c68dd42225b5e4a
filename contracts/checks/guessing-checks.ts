import { serverEpochSeconds } from '../core/quota-windows.js';
import { carriesNoRateLimitFields } from '../core/rate-limit-headers.js';
import { CheckNotApplicable, type Check } from './check.js';
import { expectErrorBody, expectStatus } from './expectations.js';
import { rateLimitHeadersOf } from './rate-limit-checks.js';
import { reportRule } from './rule-reports.js';

// Driving a window that ends later than this to a 429 would keep this address's unauthenticated
// requests refused for hours.
const LONGEST_WINDOW_TO_EXHAUST_SECONDS = 65;

/**
 * Unknown keys, one after another, as a key-guessing client sends them: their answers count in a window
 * of their own (the 401s' X-RateLimit-*), and past it the guesses are refused with 429 (OWASP API2:2023
 * brute force, API4:2023), so no client can try keys without limit.
 */
export const keyGuessingThrottled: Check = {
  name: 'key_guessing_throttled',
  verifies:
    'unknown keys sent one after another get 401 with X-RateLimit-* of the limit on requests without a valid key, and once it is used up 429 rate_limit_exceeded (the spec: a service "may"; OWASP API2, API4): a service that never throttles guesses is a warning',
  needs: ['quota', 'realAuth'],
  async run(context) {
    const { send, seed } = context;
    const guess = (n: number) => ({
      method: 'GET',
      path: '/categories',
      auth: { bearer: `guess-${seed}-${n}` },
      expectsRateLimit: true,
    });
    const first = await send(guess(0));
    if (first.status === 429) return;
    expectStatus(first, [401], 'an unknown key');
    // The spec: "A service that keeps no such limit may leave them out of a `401`": none announced, none kept.
    if (carriesNoRateLimitFields(first))
      return reportRule(
        context,
        'guessing_throttled',
        'Key guessing is never throttled',
        ['Received: a 401 to an unknown key with no X-RateLimit-* (no limit kept) / Expected: a limit, then 429'],
        first,
      );
    const { remaining, reset } = rateLimitHeadersOf(first, 'the 401 to an unknown key');
    if (reset - serverEpochSeconds(first) > LONGEST_WINDOW_TO_EXHAUST_SECONDS)
      throw new CheckNotApplicable(
        `the window of unauthenticated requests ends in ${reset - serverEpochSeconds(first)} s; exhausting it would refuse this address for that long`,
      );
    let last = first;
    let sent = 1;
    let windowEnd = reset;
    // Until the window is used up, and three more. A window that rolls over meanwhile announces a fresh
    // count, which the guesses then follow (bounded: about two windows' worth in all).
    for (let left = remaining + 3; left > 0 && sent <= 2 * remaining + 70; left -= 1, sent += 1) {
      last = await send(guess(sent));
      if (last.status === 429) {
        expectErrorBody(last, 'rate_limit_exceeded', `guess ${sent + 1}, past the window`);
        return;
      }
      expectStatus(last, [401], `guess ${sent + 1}`);
      const now = rateLimitHeadersOf(last, `the 401 to guess ${sent + 1}`);
      if (now.reset !== windowEnd) {
        windowEnd = now.reset;
        left = now.remaining + 4;
      }
    }
    // The spec lets a service throttle guesses ("may"), so this is the rule's strength: a warning unless --strict.
    reportRule(
      context,
      'guessing_throttled',
      'Key guessing is never throttled',
      [
        `Received: 401 to ${sent} unknown keys in a row, the first announcing ${remaining} left / Expected: 429 once the window announced 0`,
      ],
      last,
    );
  },
};
