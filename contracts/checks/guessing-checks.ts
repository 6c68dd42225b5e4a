import { serverEpochSeconds } from '../core/quota-windows.js';
import { CheckFailure, CheckNotApplicable, type Check } from './check.js';
import { expectErrorBody, expectStatus } from './expectations.js';
import { rateLimitHeadersOf } from './rate-limit-checks.js';

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
    'unknown keys sent one after another get 401 with their own X-RateLimit-* window, and once it is used up 429 rate_limit_exceeded, never another 401: guessing keys is throttled (OWASP API2, API4)',
  needs: ['quota', 'realAuth'],
  async run({ send, seed }) {
    const guess = (n: number) => ({
      method: 'GET',
      path: '/categories',
      auth: { bearer: `guess-${seed}-${n}` },
      expectsRateLimit: true,
    });
    const first = await send(guess(0));
    if (first.status === 429) return;
    expectStatus(first, [401], 'an unknown key');
    const { remaining, reset } = rateLimitHeadersOf(first, 'the 401 to an unknown key');
    if (reset - serverEpochSeconds(first) > LONGEST_WINDOW_TO_EXHAUST_SECONDS)
      throw new CheckNotApplicable(
        `the window of unauthenticated requests ends in ${reset - serverEpochSeconds(first)} s; exhausting it would refuse this address for that long`,
      );
    let last = first;
    for (let n = 1; n <= remaining + 3; n += 1) {
      last = await send(guess(n));
      if (last.status === 429) {
        expectErrorBody(last, 'rate_limit_exceeded', `guess ${n + 1}, past the window`);
        return;
      }
      expectStatus(last, [401], `guess ${n + 1}`);
    }
    throw new CheckFailure(
      'Key guessing is never throttled',
      [
        `Received: 401 to ${remaining + 4} unknown keys in a row, the first announcing ${remaining} left / Expected: 429 once the window announced 0`,
      ],
      last,
    );
  },
};
