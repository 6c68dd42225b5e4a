import { bucketDescribed, bucketOfRequest } from '../core/described-bucket.js';
import { errorCodeOf, type ContractRequest, type Exchange } from '../core/exchange.js';
import { integerHeaderOf } from '../core/header-value.js';
import { MINUTE } from '../core/quota-windows.js';

/** How a live target is spared: the most retries after an unexpected 429, the longest wait honoured. */
const MAX_RETRIES = 5;
/** The longest Retry-After a run waits out; past it (a used-up day: `Retry-After: 54450`) no retry within a run can succeed. */
export const LONGEST_WAIT_SECONDS = 300;

type Send = (request: ContractRequest) => Promise<Exchange>;

/**
 * A paced sender, and its pacing alone for requests written some other way (a raw connection's):
 * `turn` waits out a used-up window before a request, `observe` learns from its answer.
 */
export type PacedSend = Send & {
  turn(request: ContractRequest): Promise<void>;
  observe(request: ContractRequest, exchange: Exchange): void;
};

/**
 * How a target's time passes for the suite: real sleeps on a live target; on the fake, its clock is
 * moved instead, so waiting out a window costs nothing.
 */
export interface Waiter {
  /** The target's now, in epoch seconds. */
  now(): Promise<number>;
  wait(seconds: number): Promise<void>;
  /** The longest wait before a request that the pacer takes on its own initiative. */
  longestProactiveWaitSeconds: number;
  /** How a wait is said in notes: `waiting 41 s`, `moving the fake's clock 41 s`. */
  say(seconds: number): string;
}

/** Real time: `setTimeout` and this machine's clock. */
export const realTimeWaiter: Waiter = {
  now: async () => Date.now() / 1000,
  wait: (seconds) => new Promise((resolve) => setTimeout(resolve, seconds * 1000)),
  longestProactiveWaitSeconds: 120,
  say: (seconds) => `waiting ${seconds} s`,
};

/**
 * Wraps a sender. Before a request it waits out the window (the key's, or a limit the target showed it keeps on requests
 * without a valid key) that the last answer said was used up (`Remaining: 0`); after an unexpected 429
 * it waits `Retry-After` (at least 1, 2, 4, 8, 16 s: exponential backoff) and retries, at most five times. It never retries a ban, and requests marked
 * `expectsRateLimit` pass straight through, so the suite causes at most a handful of 429s per window:
 * far below the ban threshold.
 * @example const send = pacedSender(plainSend, console.log, realTimeWaiter);
 */
export function pacedSender(
  send: Send,
  note: (message: string) => void,
  waiter: Waiter = realTimeWaiter,
  /** Why a 429's Retry-After is not to be trusted (it broke a promise of the windows), if so: the pacer waits for the minute's end instead. */
  needlessWait: (exchange: Exchange) => string | undefined = () => undefined,
  /**
   * Told of a 429 to a keyed request whose Retry-After is past {@link LONGEST_WAIT_SECONDS} (it throws,
   * ending what needs the key); without it such a 429 is retried after the longest wait, as a clock that
   * moves for free (the fake's) can afford.
   */
  pastAnyWait?: (exchange: Exchange, seconds: number, what: string) => never,
): PacedSend {
  const exhaustedUntil = { key: 0, unauthenticated: 0 };
  // The spec promises no limit on requests without a valid key: a 401's headers say what they say, and
  // only a 429 to such a request shows the target keeps one worth waiting for.
  let unauthenticatedLimited = false;
  const turn = async (request: ContractRequest) => {
    const what = `${request.method} ${request.path.split('?')[0]}`;
    const bucket = bucketOfRequest(request);
    if (request.expectsRateLimit || exhaustedUntil[bucket] <= 0) return;
    const wait = Math.ceil(exhaustedUntil[bucket] - (await waiter.now()));
    if (wait > 0 && wait <= waiter.longestProactiveWaitSeconds) {
      const whose = bucket === 'key' ? "the key's window" : "the target's limit on requests without a valid key";
      note(`${waiter.say(wait)} before ${what}: ${whose} is used up (X-RateLimit-Remaining: 0)`);
      await waiter.wait(wait);
    }
  };
  const observe = (request: ContractRequest, exchange: Exchange) => {
    const remaining = integerHeaderOf(exchange, 'X-RateLimit-Remaining');
    const reset = integerHeaderOf(exchange, 'X-RateLimit-Reset');
    const bucket = bucketOfRequest(request);
    const described = bucketDescribed(exchange, () => bucket === 'key').kind;
    if (described === 'unauthenticated' && exchange.status === 429) unauthenticatedLimited = true;
    if (described === 'key' || (described === 'unauthenticated' && unauthenticatedLimited))
      exhaustedUntil[described] = remaining === 0 && reset !== undefined ? reset + 1 : 0;
    return described;
  };
  const paced = async (request: ContractRequest) => {
    const what = `${request.method} ${request.path.split('?')[0]}`;
    await turn(request);
    for (let attempt = 0; ; attempt += 1) {
      const exchange = await send(request);
      const described = observe(request, exchange);
      const banned = errorCodeOf(exchange) === 'temporarily_banned';
      if (exchange.status !== 429 || request.expectsRateLimit || banned || attempt >= MAX_RETRIES) return exchange;
      const retryAfter = integerHeaderOf(exchange, 'Retry-After');
      // No wait of a run gets past it, and every retry would meet the same 429: said once, not waited.
      if (pastAnyWait && described === 'key' && retryAfter !== undefined && retryAfter > LONGEST_WAIT_SECONDS)
        pastAnyWait(exchange, retryAfter, what);
      const needless = needlessWait(exchange);
      if (needless !== undefined) {
        // Retry-After names no window's end: wait for the minute's, which frees whatever the windows
        // allow (a check after this one must not meet the same 429), and report it rather than trust it.
        const toMinuteEnd = MINUTE - (Math.floor(await waiter.now()) % MINUTE) + 1;
        note(
          `429 on ${what}: Retry-After ${retryAfter ?? 'none'} not waited (${needless}); ${waiter.say(toMinuteEnd)} to the minute's end, retry ${attempt + 1} of ${MAX_RETRIES}`,
        );
        await waiter.wait(toMinuteEnd);
        continue;
      }
      const wait = Math.min(Math.max(retryAfter ?? 1, 2 ** attempt), LONGEST_WAIT_SECONDS);
      note(
        `429 on ${what}: ${waiter.say(wait)} (Retry-After: ${retryAfter ?? 'none'}), retry ${attempt + 1} of ${MAX_RETRIES}`,
      );
      await waiter.wait(wait);
    }
  };
  return Object.assign(paced, { turn, observe });
}
