import type { Exchange } from '../core/exchange.js';
import { DAY, MINUTE, SLACK_SECONDS, targetNowReadings, type NowReading } from '../core/quota-windows.js';
import { rateLimitVerdict, type RateLimitHeaders } from '../core/rate-limit-headers.js';
import { CheckFailure, type Check, type CheckContext } from './check.js';
import { expectStatus, expectThat } from './expectations.js';

/** Reads the triple and fails unless each header is present and plain digits. */
export function rateLimitHeadersOf(exchange: Exchange, context?: string): RateLimitHeaders {
  const verdict = rateLimitVerdict(exchange, context);
  if (!verdict.ok) throw new CheckFailure(verdict.problem.title, verdict.problem.lines, exchange);
  return verdict.headers;
}

/** Three requests in a row: Remaining goes down by exactly one each time, Limit stays and matches the plan. */
export const rateLimitRemainingDecreases: Check = {
  name: 'rate_limit_remaining_decreases',
  countsEveryRequestOfTheKey: true,
  verifies: "X-RateLimit-Remaining decreases by one per request and X-RateLimit-Limit is constant and the plan's limit",
  needs: ['stateful'],
  async run({ send, plan }) {
    // A window may end between two requests; then the sequence is taken again in the new window.
    let answers: Array<{ exchange: Exchange; headers: RateLimitHeaders }> = [];
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      answers = [];
      for (let index = 0; index < 3; index += 1) {
        const exchange = await send({ method: 'GET', path: '/categories' });
        expectStatus(exchange, [200], `request ${index + 1} of 3`);
        answers.push({ exchange, headers: rateLimitHeadersOf(exchange, `request ${index + 1} of 3`) });
      }
      if (new Set(answers.map(({ headers }) => headers.reset)).size > 1) continue;
      for (let index = 1; index < answers.length; index += 1) {
        const previous = answers[index - 1]!.headers;
        const { exchange, headers } = answers[index]!;
        expectThat(
          headers.limit === previous.limit,
          'X-RateLimit-Limit changed within one window',
          [`Received: ${headers.limit} / Expected: ${previous.limit}`],
          exchange,
        );
        expectThat(
          headers.remaining === previous.remaining - 1,
          'X-RateLimit-Remaining did not decrease by one',
          [`Received: ${headers.remaining} after ${previous.remaining} / Expected: ${previous.remaining - 1}`],
          exchange,
        );
      }
      if (plan) {
        const { exchange, headers } = answers[0]!;
        expectThat(
          [plan.perMinute, plan.perDay].includes(headers.limit),
          "X-RateLimit-Limit is not the plan's limit",
          [`Received: ${headers.limit} / Expected: ${plan.perMinute} (per minute) or ${plan.perDay} (per day)`],
          exchange,
        );
      }
      return;
    }
    const resets = answers.map(({ headers }) => headers.reset).join(', ');
    expectThat(
      false,
      'X-RateLimit-Reset changed within every sequence of three requests',
      [`Received: Reset ${resets} / Expected: one Reset within a window`],
      answers[answers.length - 1]!.exchange,
    );
  },
};

/** Reset is an epoch second in the future, no further than the end of the window it describes. */
export const rateLimitResetInWindow: Check = {
  name: 'rate_limit_reset_in_window',
  verifies: 'X-RateLimit-Reset is a future Unix epoch second, within a minute (per-minute limit) or a day from now',
  needs: ['stateful'],
  async run({ send, plan, now: clockNow, clock }) {
    const exchange = await send({ method: 'GET', path: '/categories' });
    expectStatus(exchange, [200]);
    const { limit, reset } = rateLimitHeadersOf(exchange);
    const window = plan && limit === plan.perMinute ? MINUTE : DAY;
    // The service's now is its Date or this machine's clock, whichever explains the answer: a Date can be
    // a copy seconds old (uvicorn's), and this machine's clock can be off the service's.
    const readings = targetNowReadings(exchange, await clockNow(), clock !== undefined);
    const within = ([, now]: NowReading) => reset >= now - SLACK_SECONDS && reset <= now + window + SLACK_SECONDS;
    expectThat(
      readings.some(within),
      'X-RateLimit-Reset is not within the window',
      [
        `Received: ${reset} / Expected: an epoch second within ${window} s after now (${readings.map(([what, now]) => `${now} by ${what}`).join(', ')})`,
      ],
      exchange,
    );
  },
};

/** Sends until the first 429 (never a second one); fails when no 429 comes well past the limit. */
export async function driveToFirstRejection(
  send: CheckContext['send'],
  context: string,
): Promise<{ rejection: Exchange; last: Exchange }> {
  let last = await send({ method: 'GET', path: '/categories', expectsRateLimit: true });
  if (last.status === 429) return { rejection: last, last };
  let { remaining, reset } = rateLimitHeadersOf(last, context);
  let budget = remaining + 3;
  let windowEnded = false;
  for (let sent = 1; sent <= budget; sent += 1) {
    const exchange = await send({ method: 'GET', path: '/categories', expectsRateLimit: true });
    if (exchange.status === 429) return { rejection: exchange, last };
    expectStatus(exchange, [200], `${context}, request ${sent + 1}`);
    const headers = rateLimitHeadersOf(exchange, context);
    if (headers.reset !== reset && !windowEnded) {
      // A new window began while we counted: the remaining count starts over, once.
      windowEnded = true;
      budget = sent + headers.remaining + 3;
    }
    ({ remaining, reset } = headers);
    last = exchange;
  }
  throw new CheckFailure(
    `No 429 past the limit (${context})`,
    [
      `Received: 200 for ${budget + 1} requests, the last with X-RateLimit-Remaining ${remaining} / Expected: 429 once Remaining reached 0`,
    ],
    last,
  );
}
