import { exampleRequest, operationModels } from '../generate/operation-model.js';
import { errorCodeOf, type Exchange } from '../core/exchange.js';
import {
  DAY,
  MINUTE,
  SLACK_SECONDS,
  endsWindowAround,
  serverEpochSeconds,
  targetNowReadings,
  windowEndsAround,
  type NowReading,
} from '../core/quota-windows.js';
import type { TargetClock } from '../core/target-clock.js';
import { CheckNotApplicable, type Check, type CheckContext } from './check.js';
import { expectConforms, expectErrorBody, expectStatus, expectThat, integerHeader } from './expectations.js';
import { driveToFirstRejection, rateLimitHeadersOf } from './rate-limit-checks.js';

// Driving a window that ends later than this to a 429 would lock the key out for hours.
const LONGEST_WINDOW_TO_EXHAUST_SECONDS = 65;

/** Fails unless the 429 is a documented rejection with the given code, Remaining 0 and a sane Retry-After. */
function expectRejection(
  rejection: Exchange,
  code: 'rate_limit_exceeded' | 'temporarily_banned',
  context: string,
  operationId = 'listCategories',
): number {
  expectStatus(rejection, [429], context);
  expectErrorBody(rejection, code, context);
  expectConforms(operationId, rejection, context);
  const { remaining } = rateLimitHeadersOf(rejection, context);
  expectThat(
    remaining === 0,
    `X-RateLimit-Remaining is not 0 on a 429 (${context})`,
    [`Received: ${remaining} / Expected: 0`],
    rejection,
  );
  const retryAfter = integerHeader(rejection, 'Retry-After', context);
  expectThat(
    retryAfter >= 1,
    `Retry-After below one second (${context})`,
    [`Received: ${retryAfter} / Expected: at least 1`],
    rejection,
  );
  return retryAfter;
}

/** Starts the fake's clock a set number of seconds into a fresh minute, so windows end where the check expects. */
async function startOfMinutePlus(clock: TargetClock, seconds: number): Promise<number> {
  const minuteStart = (Math.floor(Date.now() / 1000 / MINUTE) + 2) * MINUTE;
  await clock.setEpochSeconds(minuteStart + seconds);
  return minuteStart;
}

/** The target's now when an answer came ({@link targetNowReadings}), the check's `now()` read just after it. */
async function nowsAtAnswer(answer: Exchange, { clock, now }: CheckContext): Promise<NowReading[]> {
  return targetNowReadings(answer, await now(), clock !== undefined);
}

/**
 * A read first: when the key's tightest window ends later than a minute (the day's quota is nearly
 * used), driving it to a 429 would lock the key out for hours, so the check is not applicable. Later by
 * every clock: a stale Date alone does not spare a window this machine's clock sees ending.
 */
async function spareALongWindow(context: CheckContext): Promise<void> {
  const probe = await context.send({ method: 'GET', path: '/categories' });
  const nows = await nowsAtAnswer(probe, context);
  expectStatus(probe, [200], 'the first request');
  const { reset } = rateLimitHeadersOf(probe, 'the first request');
  const windowLeft = reset - Math.max(...nows.map(([, now]) => now));
  if (windowLeft > LONGEST_WINDOW_TO_EXHAUST_SECONDS)
    throw new CheckNotApplicable(
      `the key's tightest window ends in ${windowLeft} s (the daily quota is nearly used); exhausting it would lock the key out`,
    );
}

/** One 429: `Retry-After` integer seconds, `Remaining: 0`, the `Error` body; never a second rejection. */
export const rateLimitExceededAnswer: Check = {
  name: 'rate_limit_exceeded_answer',
  drivesWindow: true,
  verifies:
    'past the limit the answer is 429 rate_limit_exceeded with Retry-After (integer seconds), Remaining 0 and an Error',
  needs: ['quota'],
  async run(context) {
    const { send } = context;
    await spareALongWindow(context);
    const { rejection } = await driveToFirstRejection(send, 'driving the key to its limit');
    const retryAfter = expectRejection(rejection, 'rate_limit_exceeded', 'the first 429');
    const untilReset = integerHeader(rejection, 'X-RateLimit-Reset') - serverEpochSeconds(rejection);
    expectThat(
      retryAfter <= untilReset + 2,
      'Retry-After is later than the end of the window',
      [`Received: Retry-After ${retryAfter} / Expected: at most ${untilReset} (X-RateLimit-Reset minus Date)`],
      rejection,
    );
  },
};

/**
 * Fails unless the 429 names the end of the minute its own requests used up, whatever the timing. The
 * window is read first from the answers themselves, which no clock can make disagree: the last admitted
 * request counted in the window that then refused (one begun since would have admitted it). Then the
 * target's now ({@link nowsAtAnswer}): the Reset ends the minute it falls in, and now + Retry-After is
 * that Reset. A 429 of the first instant of a new minute may carry the old minute's Date: both minutes'
 * ends are allowed near a boundary ({@link windowEndsAround}).
 */
function expectUsedUpMinute(
  { rejection, last }: { rejection: Exchange; last: Exchange },
  retryAfter: number,
  nows: readonly NowReading[],
  minuteStart: number | undefined,
): number {
  const rejectedReset = integerHeader(rejection, 'X-RateLimit-Reset');
  const latest = Math.max(...nows.map(([, now]) => now));
  if (last !== rejection) {
    const lastReset = integerHeader(last, 'X-RateLimit-Reset');
    if (lastReset - latest > LONGEST_WINDOW_TO_EXHAUST_SECONDS && endsWindowAround(lastReset, latest, DAY))
      throw new CheckNotApplicable(
        `the minute window began anew during the burst and the day window, with fewer left, was the one used up (X-RateLimit-Reset ${lastReset})`,
      );
    expectThat(
      rejectedReset === lastReset,
      'X-RateLimit-Reset of the 429 is not the end of the window the admitted requests used up',
      [
        `Received: ${rejectedReset} / Expected: ${lastReset}, the X-RateLimit-Reset of the admitted answer just before it (a window begun since would have admitted the request)`,
      ],
      rejection,
    );
  }
  const said = nows.map(([clock, now]) => `${now} by ${clock}`).join(', ');
  const minuteEnds =
    minuteStart !== undefined
      ? [minuteStart + MINUTE]
      : [...new Set(nows.flatMap(([, now]) => windowEndsAround(now, MINUTE)))].sort((a, b) => a - b);
  expectThat(
    minuteEnds.includes(rejectedReset),
    'X-RateLimit-Reset of the 429 is not the end of the minute',
    [
      `Received: ${rejectedReset} / Expected: ${minuteEnds.join(' or ')}, the end of the UTC minute of the target's now (${said}; give or take ${SLACK_SECONDS} s)`,
    ],
    rejection,
  );
  expectThat(
    nows.some(([, now]) => Math.abs(rejectedReset - retryAfter - now) <= SLACK_SECONDS),
    'Retry-After and X-RateLimit-Reset of the 429 name different ends of the window',
    [
      `Received: Retry-After ${retryAfter}, X-RateLimit-Reset ${rejectedReset} / Expected: now + Retry-After = X-RateLimit-Reset, give or take ${SLACK_SECONDS} s (now: ${said})`,
    ],
    rejection,
  );
  return rejectedReset;
}

/**
 * After Retry-After the key is admitted again with a full new window. On the fake the clock is moved;
 * on a live target the run waits the real time (a minute at most), within `--max-minutes`.
 */
export const quotaWindowRollsOver: Check = {
  name: 'quota_window_rolls_over',
  drivesWindow: true,
  verifies:
    'the 429 names the end of the minute used up (Reset, and Retry-After to it); after Retry-After (a moved clock on the fake, a real wait on a URL) the key is admitted again: Remaining starts over, Reset moves a minute on',
  needs: ['quota'],
  async run(context) {
    const { send, clock, wait } = context;
    const minuteStart = clock ? await startOfMinutePlus(clock, 30) : undefined;
    if (!clock) await spareALongWindow(context);
    const burst = await driveToFirstRejection(send, 'exhausting the minute window');
    const nows = await nowsAtAnswer(burst.rejection, context);
    const retryAfter = expectRejection(burst.rejection, 'rate_limit_exceeded', 'the first 429');
    const rejectedReset = expectUsedUpMinute(burst, retryAfter, nows, minuteStart);
    // The fake's clock runs on while the check reads it: moved to its whole second at the 429 plus
    // Retry-After, the earliest a client may retry, a Retry-After a second short meets the used-up window.
    if (clock) await clock.setEpochSeconds(nows[0]![1] + retryAfter);
    else await wait(retryAfter, 'Retry-After of the 429: the minute window ends');
    const admitted = await send({ method: 'GET', path: '/categories', expectsRateLimit: true });
    expectStatus(admitted, [200], `${retryAfter} s (Retry-After) after the 429`);
    const { limit, remaining, reset } = rateLimitHeadersOf(admitted, 'the first request of the new window');
    expectThat(
      remaining === limit - 1,
      'X-RateLimit-Remaining did not start over in the new window',
      [`Received: ${remaining} / Expected: ${limit - 1}`],
      admitted,
    );
    expectThat(
      reset === rejectedReset + MINUTE,
      'X-RateLimit-Reset did not move to the end of the new window',
      [`Received: ${reset} / Expected: ${rejectedReset + MINUTE}`],
      admitted,
    );
  },
};

const BAN_THRESHOLD = 10;

/** More than ten rejections in a window ban the key; the ban outlives the window and then ends. */
export const banAfterRepeatedRejections: Check = {
  name: 'ban_after_repeated_rejections',
  verifies:
    'more than 10 rejections in one window (every operation in turn) give 429 temporarily_banned; the ban outlasts the window, then ends',
  needs: ['quota', 'clock'],
  async run({ send, clock }) {
    await startOfMinutePlus(clock!, 5);
    const models = operationModels();
    let { rejection } = await driveToFirstRejection(send, 'exhausting the minute window');
    let rejections = 1;
    while (errorCodeOf(rejection) !== 'temporarily_banned') {
      const code = errorCodeOf(rejection);
      expectStatus(rejection, [429], `rejection ${rejections}`);
      expectThat(
        code === 'rate_limit_exceeded',
        `Unexpected code for rejection ${rejections}`,
        [`Received: ${String(code)} / Expected: rate_limit_exceeded`],
        rejection,
      );
      expectThat(
        rejections <= BAN_THRESHOLD + 1,
        'No ban after repeated rejections',
        [
          `Received: rate_limit_exceeded for rejection ${rejections} / Expected: temporarily_banned once more than ${BAN_THRESHOLD} were rejected`,
        ],
        rejection,
      );
      // Every operation of the spec in turn: each must refuse a key past its limit the same way.
      const model = models[rejections % models.length]!;
      rejection = await send(exampleRequest(model, { expectsRateLimit: true }));
      expectRejection(
        rejection,
        errorCodeOf(rejection) === 'temporarily_banned' ? 'temporarily_banned' : 'rate_limit_exceeded',
        `rejection ${rejections + 1} (${model.operation.operationId})`,
        model.operation.operationId,
      );
      rejections += 1;
    }
    expectThat(
      rejections > BAN_THRESHOLD,
      'Banned too early',
      [`Received: temporarily_banned at rejection ${rejections} / Expected: not before rejection ${BAN_THRESHOLD + 1}`],
      rejection,
    );
    const banLeft = expectRejection(rejection, 'temporarily_banned', 'the ban');
    await clock!.advanceSeconds(MINUTE + 1);
    const stillBanned = await send({ method: 'GET', path: '/categories', expectsRateLimit: true });
    const banLeftLater = expectRejection(stillBanned, 'temporarily_banned', 'a minute into the ban, in a new window');
    expectThat(
      banLeftLater <= banLeft - MINUTE,
      'The ban was extended or restarted by a request made during it',
      [`Received: Retry-After ${banLeftLater} / Expected: at most ${banLeft - MINUTE}`],
      stillBanned,
    );
    await clock!.advanceSeconds(banLeftLater);
    const afterBan = await send({ method: 'GET', path: '/categories', expectsRateLimit: true });
    expectStatus(afterBan, [200], `${banLeftLater} s (Retry-After) later, when the ban is over`);
  },
};
