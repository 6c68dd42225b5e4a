import { describe, expect, it } from '@jest/globals';
import { answerWith } from '../../test/support/answers.js';
import { serverEpochSeconds } from './quota-windows.js';

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
