import { headerOf, type ContractRequest, type Exchange } from './exchange.js';

/** How a live target is spared: the most retries after an unexpected 429, the longest wait honoured. */
const MAX_RETRIES = 5;
const LONGEST_WAIT_SECONDS = 300;
const LONGEST_PROACTIVE_WAIT_SECONDS = 120;

type Send = (request: ContractRequest) => Promise<Exchange>;

/** Injected so tests of the policy need not wait. */
export type Sleep = (milliseconds: number) => Promise<void>;
const realSleep: Sleep = (milliseconds) => new Promise((resolve) => setTimeout(resolve, milliseconds));

function wholeNumber(value: string | undefined): number | undefined {
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined;
}

/**
 * Wraps a sender for a live target. Before a request it waits out a window that the last answer said was
 * used up (`Remaining: 0`); after an unexpected 429 it waits `Retry-After` (at least 1, 2, 4, 8, 16 s:
 * exponential backoff) and retries, at most five times. It never retries a ban, and requests marked
 * `expectsRateLimit` pass straight through, so the suite causes at most a handful of 429s per window:
 * far below the ban threshold.
 * @example const send = pacedSender(plainSend, console.log);
 */
export function pacedSender(send: Send, note: (message: string) => void, sleep: Sleep = realSleep): Send {
  let exhaustedUntil = 0;
  return async (request) => {
    const what = `${request.method} ${request.path}`;
    if (!request.expectsRateLimit) {
      const wait = Math.ceil(exhaustedUntil - Date.now() / 1000);
      if (wait > 0 && wait <= LONGEST_PROACTIVE_WAIT_SECONDS) {
        note(`waiting ${wait} s before ${what}: the key's window is used up (X-RateLimit-Remaining: 0)`);
        await sleep(wait * 1000);
      }
    }
    for (let attempt = 0; ; attempt += 1) {
      const exchange = await send(request);
      const remaining = wholeNumber(headerOf(exchange, 'x-ratelimit-remaining'));
      const reset = wholeNumber(headerOf(exchange, 'x-ratelimit-reset'));
      exhaustedUntil = remaining === 0 && reset !== undefined ? reset + 1 : 0;
      const banned = (exchange.json as { code?: unknown } | undefined)?.code === 'temporarily_banned';
      if (exchange.status !== 429 || request.expectsRateLimit || banned || attempt >= MAX_RETRIES) return exchange;
      const retryAfter = wholeNumber(headerOf(exchange, 'retry-after'));
      const wait = Math.min(Math.max(retryAfter ?? 1, 2 ** attempt), LONGEST_WAIT_SECONDS);
      note(`429 on ${what}: waiting ${wait} s (Retry-After: ${retryAfter ?? 'none'}), retry ${attempt + 1} of ${MAX_RETRIES}`);
      await sleep(wait * 1000);
    }
  };
}
