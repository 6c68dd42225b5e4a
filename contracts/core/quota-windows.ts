import { headerOf, type Exchange } from './exchange.js';

/** The per-minute quota window, in seconds: fixed UTC minutes (docs/explanation/design.md section 3). */
export const MINUTE = 60;

/** The per-day quota window, in seconds: fixed UTC days. */
export const DAY = 86_400;

/**
 * How far a target's announced times may be off and still be right: its now is known to a second at best
 * (the `Date` header), its Reset is rounded up, and clocks drift a little.
 */
export const SLACK_SECONDS = 2;

// Answers in the same second share their Date: under a proxy's load one parse serves thousands of them.
let lastDate = { header: '', millis: Number.NaN };

/**
 * The target's idea of now, in epoch seconds: its `Date` header, else this machine's clock.
 * @example serverEpochSeconds(exchange) // 1767225600 for `Date: Thu, 01 Jan 2026 00:00:00 GMT`
 */
export function serverEpochSeconds(exchange: Exchange): number {
  const header = headerOf(exchange, 'date') ?? '';
  if (header !== lastDate.header) lastDate = { header, millis: Date.parse(header) };
  return Math.floor((Number.isNaN(lastDate.millis) ? Date.now() : lastDate.millis) / 1000);
}
