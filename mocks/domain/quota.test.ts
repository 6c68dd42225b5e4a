import { describe, expect, it } from '@jest/globals';
import { PLAN_LIMITS } from './plans.js';
import { QuotaCounters } from './quota.js';

// 2026-11-22T10:00:00Z: a minute and (not) a day boundary.
const T0 = Date.UTC(2026, 10, 22, 10, 0, 0);
const small = { perMinute: 3, perDay: 5 };

describe('QuotaCounters', () => {
  it('counts down Remaining by one per request in the current minute, with Reset at the window end', () => {
    const ledger = new QuotaCounters();
    const first = ledger.consume('k', PLAN_LIMITS.free, T0 + 12_345);
    const second = ledger.consume('k', PLAN_LIMITS.free, T0 + 13_000);
    expect(first).toMatchObject({
      admitted: true,
      described: { name: 'minute', limit: 60, remaining: 59, resetEpochSeconds: T0 / 1000 + 60 },
    });
    expect(second.described.remaining).toBe(58);
  });

  it('starts a new minute window at second :00 exactly', () => {
    const ledger = new QuotaCounters();
    for (let i = 0; i < 3; i++) ledger.consume('k', { perMinute: 3, perDay: 100 }, T0 + 59_999);
    expect(ledger.consume('k', { perMinute: 3, perDay: 100 }, T0 + 59_999).admitted).toBe(false);
    const next = ledger.consume('k', { perMinute: 3, perDay: 100 }, T0 + 60_000);
    expect(next).toMatchObject({
      admitted: true,
      described: { name: 'minute', remaining: 2, resetEpochSeconds: T0 / 1000 + 120 },
    });
  });

  it('describes the window with the lower remaining count, the longer one on a tie', () => {
    const ledger = new QuotaCounters();
    // After 1 request: minute 2 left, day 4 left -> minute.
    expect(ledger.consume('k', small, T0).described.name).toBe('minute');
    // New minute, 2nd request of the day: minute 2 left, day 3 left -> minute.
    expect(ledger.consume('k', small, T0 + 60_000).described).toMatchObject({ name: 'minute', remaining: 2 });
    // 3rd of the day: minute 1 left, day 2 left -> minute.
    expect(ledger.consume('k', small, T0 + 60_000).described).toMatchObject({ name: 'minute', remaining: 1 });
    // New minute, 4th of the day: minute 2, day 1 -> day.
    expect(ledger.consume('k', small, T0 + 120_000).described).toMatchObject({ name: 'day', remaining: 1 });
    const tie = new QuotaCounters().consume('k', { perMinute: 5, perDay: 5 }, T0);
    expect(tie.described).toMatchObject({
      name: 'day',
      remaining: 4,
      resetEpochSeconds: Date.UTC(2026, 10, 23) / 1000,
    });
  });

  it('refuses without consuming when the minute is used up, with Retry-After rounded up to the minute end', () => {
    const ledger = new QuotaCounters();
    for (let i = 0; i < 3; i++) ledger.consume('k', small, T0 + 1_000);
    const refused = ledger.consume('k', small, T0 + 18_500);
    expect(refused).toMatchObject({
      admitted: false,
      retryAfterSeconds: 42,
      described: { name: 'minute', remaining: 0, limit: 3, resetEpochSeconds: T0 / 1000 + 60 },
    });
    // A refusal consumes nothing: the next minute still has the whole day budget left minus 3.
    expect(ledger.consume('k', small, T0 + 60_000).windows.find((w) => w.name === 'day')?.remaining).toBe(1);
  });

  it('gives Retry-After of at least 1 second even in the last millisecond of a window', () => {
    const ledger = new QuotaCounters();
    for (let i = 0; i < 3; i++) ledger.consume('k', small, T0);
    expect(ledger.consume('k', small, T0 + 59_999).retryAfterSeconds).toBe(1);
  });

  it('when both windows are exhausted, describes the later one and waits for it', () => {
    const ledger = new QuotaCounters();
    const limits = { perMinute: 2, perDay: 2 };
    ledger.consume('k', limits, T0);
    ledger.consume('k', limits, T0);
    const refused = ledger.consume('k', limits, T0 + 30_000);
    const midnight = Date.UTC(2026, 10, 23) / 1000;
    expect(refused).toMatchObject({
      admitted: false,
      described: { name: 'day', remaining: 0, limit: 2, resetEpochSeconds: midnight },
    });
    expect(refused.retryAfterSeconds).toBe(midnight - (T0 + 30_000) / 1000);
  });

  it('rolls the day over at 00:00 UTC', () => {
    const ledger = new QuotaCounters();
    const limits = { perMinute: 10, perDay: 2 };
    const lastMinute = Date.UTC(2026, 10, 22, 23, 59, 30);
    ledger.consume('k', limits, lastMinute);
    ledger.consume('k', limits, lastMinute);
    expect(ledger.consume('k', limits, Date.UTC(2026, 10, 22, 23, 59, 59, 999)).admitted).toBe(false);
    const nextDay = ledger.consume('k', limits, Date.UTC(2026, 10, 23, 0, 0, 0));
    expect(nextDay).toMatchObject({
      admitted: true,
      described: { name: 'day', remaining: 1, resetEpochSeconds: Date.UTC(2026, 10, 24) / 1000 },
    });
  });

  it('keeps subjects apart', () => {
    const ledger = new QuotaCounters();
    for (let i = 0; i < 3; i++) ledger.consume('a', small, T0);
    expect(ledger.consume('a', small, T0).admitted).toBe(false);
    expect(ledger.consume('b', small, T0).admitted).toBe(true);
  });

  it('evicts the idlest subject past its capacity and every subject whose day has ended', () => {
    const ledger = new QuotaCounters(2);
    ledger.consume('a', small, T0);
    ledger.consume('b', small, T0 + 1);
    ledger.consume('a', small, T0 + 2);
    ledger.consume('c', small, T0 + 3);
    expect(ledger.size).toBe(2);
    // 'b' was the idlest; evicted, it starts afresh.
    expect(ledger.consume('b', small, T0 + 4).windows[1]?.remaining).toBe(4);
    ledger.consume('d', small, Date.UTC(2026, 10, 23, 0, 0, 1));
    expect(ledger.size).toBe(1);
  });
});
