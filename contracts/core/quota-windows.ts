import { headerOf, type Exchange } from './exchange.js';

/** The per-minute quota window, in seconds: fixed UTC minutes (docs/explanation/design.md section 3). */
export const MINUTE = 60;

/** The per-day quota window, in seconds: fixed UTC days. */
export const DAY = 86_400;

/**
 * How far a target's announced times may be off and still be right: its now is known to a second at best
 * (the `Date` header), its Reset is rounded up, and clocks drift a little. A `Date` is also not the
 * moment the service decided: servers stamp a copy of their clock cached up to a second or so earlier
 * (uvicorn refreshes its `Date` once every ten 0.1 s ticks of its main loop, later when the loop is busy;
 * Node's lasts until a timer fires), or stamp it as the answer goes out, after the handler ran.
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

/**
 * Whether `reset` can be the end of the fixed window of `length` seconds (a UTC minute or day) that a
 * target was in when it answered with a `Date` of `now`: a multiple of `length`, no more than
 * {@link SLACK_SECONDS} before `now` and no more than a window and that slack after it. Near a window's
 * end both that window's end and the next one's can be right: which the target was in is its own clock's
 * to say, and its `Date` shows that clock only to within the slack.
 * @example endsWindowAround(1767225660, 1767225659, MINUTE) // true; and 1767225720 too (the Date may lag)
 */
export function endsWindowAround(reset: number, now: number, length: number): boolean {
  return reset % length === 0 && reset >= now - SLACK_SECONDS && reset <= now + length + SLACK_SECONDS;
}

/**
 * Every Reset {@link endsWindowAround} allows for an answer with a `Date` of `now`, earliest first (one
 * or two): what a report says it expected.
 * @example windowEndsAround(1767225659, MINUTE) // [1767225660, 1767225720]
 */
export function windowEndsAround(now: number, length: number): number[] {
  const ends: number[] = [];
  for (let end = Math.ceil((now - SLACK_SECONDS) / length) * length; end <= now + length + SLACK_SECONDS; end += length)
    ends.push(end);
  return ends;
}

/** One reading of a target's now: which clock gave it, and its epoch second. */
export type NowReading = readonly [clock: string, epochSeconds: number];

/**
 * The target's now when an answer came, by each clock the suite has: where `here` is the target's own
 * clock (the fake's, moved by the suite), that clock alone, as the fake's Date is this machine's; else
 * the answer's `Date` and this machine's clock (`here`). Neither alone is the service's clock: a `Date`
 * may lag the moment the service decided (a cached copy: uvicorn refreshes its Date once every ten 0.1 s
 * ticks, and before 0.19 kept the one of the moment a keep-alive connection opened) or name a later
 * second (stamped as the answer went out), and this machine's clock may be off the service's. A time
 * that either explains, to within {@link SLACK_SECONDS}, is the service's.
 * @example targetNowReadings(exchange, 1767225600.4, false) // [['its Date', 1767225580], ["this machine's clock", 1767225600]]
 */
export function targetNowReadings(answer: Exchange, here: number, hereIsTargetClock: boolean): NowReading[] {
  const hereSecond = Math.floor(here);
  return hereIsTargetClock
    ? [["the fake's clock", hereSecond]]
    : [
        ['its Date', serverEpochSeconds(answer)],
        ["this machine's clock", hereSecond],
      ];
}
