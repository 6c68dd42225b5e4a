import { describe, expect, it } from '@jest/globals';
import { answerWith } from '../../test/support/answers.js';
import {
  DAY,
  MINUTE,
  endsWindowAround,
  serverEpochSeconds,
  targetNowReadings,
  windowEndsAround,
} from './quota-windows.js';

describe('serverEpochSeconds', () => {
  it("reads the target's now from its Date header", () => {
    expect(serverEpochSeconds(answerWith({ date: 'Thu, 01 Jan 2026 00:00:59 GMT' }))).toBe(1_767_225_659);
    expect(serverEpochSeconds(answerWith({ date: 'Thu, 01 Jan 2026 00:01:00 GMT' }))).toBe(1_767_225_660);
  });

  it("falls back to this machine's clock without a readable Date", () => {
    for (const headers of [{}, { date: 'yesterday' }] as Array<Record<string, string>>) {
      const before = Math.floor(Date.now() / 1000);
      const now = serverEpochSeconds(answerWith(headers));
      expect(now).toBeGreaterThanOrEqual(before);
      expect(now).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    }
  });
});

describe('endsWindowAround and windowEndsAround', () => {
  const minuteEnd = 1_767_225_660; // 2026-01-01T00:01:00Z

  it("allows only the end of the Date's minute in the middle of a minute", () => {
    expect(windowEndsAround(minuteEnd - 30, MINUTE)).toEqual([minuteEnd]);
    expect(endsWindowAround(minuteEnd, minuteEnd - 30, MINUTE)).toBe(true);
    expect(endsWindowAround(minuteEnd + MINUTE, minuteEnd - 30, MINUTE)).toBe(false);
    expect(endsWindowAround(minuteEnd - MINUTE, minuteEnd - 30, MINUTE)).toBe(false);
  });

  it('allows both minutes near a boundary, either side: the Date may lag the decision or follow it', () => {
    // A cached Date of the old minute's last seconds, for a 429 decided in the new minute.
    expect(windowEndsAround(minuteEnd - 1, MINUTE)).toEqual([minuteEnd, minuteEnd + MINUTE]);
    expect(windowEndsAround(minuteEnd - 2, MINUTE)).toEqual([minuteEnd, minuteEnd + MINUTE]);
    // A Date stamped after a decision of the old minute's last instant.
    expect(windowEndsAround(minuteEnd + 2, MINUTE)).toEqual([minuteEnd, minuteEnd + MINUTE]);
    expect(windowEndsAround(minuteEnd + 3, MINUTE)).toEqual([minuteEnd + MINUTE]);
    expect(windowEndsAround(minuteEnd - 3, MINUTE)).toEqual([minuteEnd]);
  });

  it('lists exactly what it allows, for minutes and days', () => {
    for (const [length, now] of [
      [MINUTE, minuteEnd - 61],
      [MINUTE, minuteEnd + 1],
      [DAY, 1_767_225_600 - 1],
      [DAY, 1_767_225_600 + 40_000],
    ] as const) {
      const candidates = Array.from({ length: 5 }, (_, index) => (Math.floor(now / length) - 2 + index) * length);
      expect(candidates.filter((reset) => endsWindowAround(reset, now, length))).toEqual(windowEndsAround(now, length));
      expect(endsWindowAround(now + 7, now, length)).toBe((now + 7) % length === 0);
    }
  });
});

describe('targetNowReadings', () => {
  const frozen = answerWith({ date: 'Thu, 01 Jan 2026 00:00:40 GMT' }); // 1767225640

  it("reads a live target's now from its Date and this machine's clock, each to the second", () => {
    expect(targetNowReadings(frozen, 1_767_225_661.9, false)).toEqual([
      ['its Date', 1_767_225_640],
      ["this machine's clock", 1_767_225_661],
    ]);
  });

  it("reads the fake's now from its own clock alone: its Date is this machine's", () => {
    expect(targetNowReadings(frozen, 1_767_225_900.2, true)).toEqual([["the fake's clock", 1_767_225_900]]);
  });
});
