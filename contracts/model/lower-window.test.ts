import { describe, expect, it } from '@jest/globals';
import type { Exchange } from '../core/exchange.js';
import { PromiseModel } from './promise-model.js';
import { PROMISES } from './promise-rules.js';
import { describesTheLower, otherWindowBound, windowStartsOf } from './window-counts.js';

const BASE = 'http://service.test/v1';
const NOW = 1_800_000_005; // 5 s into a UTC minute, mid-day
const MINUTE_RESET = 1_800_000_060;
const DAY_RESET = Math.ceil(NOW / 86_400) * 86_400;
const FREE = { perMinute: 60, perDay: 1000 };

/** A keyed read answered with the given triple (a 429 with Retry-After to the Reset). */
function answer(status: number, limit: number, remaining: number, reset: number): Exchange {
  return {
    request: { method: 'GET', url: `${BASE}/categories`, headers: { Authorization: 'Bearer k' } },
    status,
    headers: {
      'x-ratelimit-limit': String(limit),
      'x-ratelimit-remaining': String(remaining),
      'x-ratelimit-reset': String(reset),
      ...(status === 429 && { 'retry-after': String(reset - NOW) }),
    },
    text: '',
    json: status === 429 ? { code: 'rate_limit_exceeded', message: 'm', status } : [],
  };
}

const model = (options: { plan?: typeof FREE; sharedKey?: boolean } = {}) =>
  new PromiseModel({ baseUrl: BASE, capabilities: ['stateful'], ...options });

/** Feeds answers one at a time, at `now`; the promises broken. */
function judged(promises: PromiseModel, answers: Exchange[], now = NOW): string[] {
  return answers
    .flatMap((one) => promises.answered(promises.sending(), one, now))
    .map(({ promise }) => promise)
    .filter((name) => name in PROMISES);
}

describe('the window an answer does not describe: its limit less the requests seen in it', () => {
  it('fails headers describing the day while the minute has fewer left, from the first answer (the plan given)', () => {
    expect(judged(model({ plan: FREE }), [answer(200, 1000, 999, DAY_RESET)])).toEqual(['lower_window_described']);
  });

  it('passes the day described at 59 (the minute has at most 59 after one request: a tie is the day’s) and fails it at 60', () => {
    expect(judged(model({ plan: FREE }), [answer(200, 1000, 59, DAY_RESET)])).toEqual([]);
    expect(judged(model({ plan: FREE }), [answer(200, 1000, 60, DAY_RESET)])).toEqual(['lower_window_described']);
  });

  it('fails the minute described while the requests seen today leave the day fewer, counting the day through minute Resets', () => {
    const promises = model({ plan: { perMinute: 60, perDay: 62 } });
    // Two requests of this minute counted in the day too: the day has at most 62 - 3 = 59 left after the third.
    expect(judged(promises, [answer(200, 60, 59, MINUTE_RESET), answer(200, 60, 58, MINUTE_RESET)])).toEqual([]);
    expect(judged(promises, [answer(200, 60, 59, MINUTE_RESET + 60)], NOW + 60)).toEqual(['lower_window_described']);
  });

  it('holds a shared key to the same bound (others only spend more), and notes what it cannot know', () => {
    const shared = model({ plan: FREE, sharedKey: true });
    expect(judged(shared, [answer(200, 1000, 999, DAY_RESET)])).toEqual(['lower_window_described']);
    const quiet = model({ plan: FREE, sharedKey: true });
    expect(judged(quiet, [answer(200, 60, 59, MINUTE_RESET)])).toEqual([]);
    expect(quiet.takeNotes()).toEqual([
      expect.stringMatching(/day window's count is not all seen \(others use the key\)/),
    ]);
    // Said once a run.
    expect(judged(quiet, [answer(200, 60, 58, MINUTE_RESET)])).toEqual([]);
    expect(quiet.takeNotes()).toEqual([]);
  });
});

describe('limits read from the answers (a URL target: no plan given)', () => {
  it('notes, never fails, the day described while the minute’s limit is unknown; fails once a 429 shows that limit', () => {
    const live = model();
    expect(judged(live, [answer(200, 1000, 999, DAY_RESET), answer(200, 1000, 998, DAY_RESET)])).toEqual([]);
    expect(live.takeNotes()).toEqual([expect.stringMatching(/minute window's limit is unknown/)]);
    expect(judged(live, [answer(429, 60, 0, MINUTE_RESET)])).toEqual(['lower_window_described']);
  });

  it("fails the other window's Limit beside the described window's Remaining once both windows have been described", () => {
    const live = model();
    // Late in a day: the day described, with the minute's limit (60).
    expect(judged(live, [answer(200, 60, 2, DAY_RESET)])).toEqual([]);
    // The next day, the minute described with the day's limit: the day, by its own answers, has at most 59 left.
    const nextDay = DAY_RESET + 5;
    expect(judged(live, [answer(200, 1000, 59, DAY_RESET + 60)], nextDay)).toEqual(['lower_window_described']);
  });
});

describe("the described window's own count", () => {
  it('fails an admitted answer that leaves its own request uncounted (Remaining equal to Limit), plan or none', () => {
    for (const options of [{ plan: FREE }, {}])
      expect(judged(model(options), [answer(200, 60, 60, MINUTE_RESET)])).toEqual([
        'charged_once_per_admitted_request',
      ]);
    expect(judged(model(), [answer(200, 60, 59, MINUTE_RESET)])).toEqual([]);
  });
});

describe('what the suite set on the fake (its scenario controls)', () => {
  it('holds the first answers after it to both windows: the day set to 5, a minute described at 59 fails', () => {
    const promises = model({ plan: FREE });
    promises.windowsSet('k', { dayRemaining: 5 }, NOW);
    expect(judged(promises, [answer(200, 1000, 4, DAY_RESET)])).toEqual([]);
    promises.windowsSet('k', { dayRemaining: 5 }, NOW);
    expect(judged(promises, [answer(200, 60, 59, MINUTE_RESET)])).toEqual(['lower_window_described']);
  });
});

describe('window counts', () => {
  it('names the day a minute lies in, and no minute for a day', () => {
    expect(windowStartsOf('minute', MINUTE_RESET)).toEqual({ minute: NOW - 5, day: DAY_RESET - 86_400 });
    expect(windowStartsOf('day', DAY_RESET)).toEqual({ day: DAY_RESET - 86_400 });
  });

  it('takes the tighter of what earlier answers imply and the limit less the requests seen; a tie is the day’s', () => {
    const known = { limit: 60, source: "the plan's" };
    expect(otherWindowBound({ earlier: { atMost: 10 }, known, seen: 3, admitted: true })?.atMost).toBe(9);
    expect(otherWindowBound({ known, seen: 3, admitted: false })?.atMost).toBe(57);
    expect(otherWindowBound({ seen: 3, admitted: true })).toBeUndefined();
    expect([describesTheLower('minute', 59, 59), describesTheLower('day', 59, 59)]).toEqual([false, true]);
  });
});
