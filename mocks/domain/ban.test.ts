import { describe, expect, it } from '@jest/globals';
import { BanList } from './ban.js';

const T0 = Date.UTC(2026, 10, 22, 10, 0, 0);

describe('BanList', () => {
  it('bans on the rejection that makes more than `threshold` in one minute window, for `seconds` from it', () => {
    const bans = new BanList({ threshold: 3, seconds: 300 });
    for (let i = 0; i < 3; i++) expect(bans.recordRejection('k', T0 + i * 1000)).toBeUndefined();
    expect(bans.bannedUntil('k', T0 + 3_000)).toBeUndefined();
    expect(bans.recordRejection('k', T0 + 4_000)).toBe(T0 + 4_000 + 300_000);
    expect(bans.bannedUntil('k', T0 + 5_000)).toBe(T0 + 304_000);
  });

  it('lets the ban expire exactly at its end', () => {
    const bans = new BanList({ threshold: 0, seconds: 10 });
    bans.recordRejection('k', T0);
    expect(bans.bannedUntil('k', T0 + 9_999)).toBe(T0 + 10_000);
    expect(bans.bannedUntil('k', T0 + 10_000)).toBeUndefined();
  });

  it('counts rejections per minute window, not in a sliding minute', () => {
    const bans = new BanList({ threshold: 2, seconds: 300 });
    bans.recordRejection('k', T0 + 58_000);
    bans.recordRejection('k', T0 + 59_000);
    // A new window: the count starts again, so a third rejection does not ban.
    expect(bans.recordRejection('k', T0 + 60_000)).toBeUndefined();
    expect(bans.bannedUntil('k', T0 + 60_001)).toBeUndefined();
  });

  it('keeps keys apart and clears everything', () => {
    const bans = new BanList({ threshold: 0, seconds: 60 });
    bans.recordRejection('a', T0);
    expect(bans.bannedUntil('b', T0)).toBeUndefined();
    bans.clear();
    expect(bans.bannedUntil('a', T0)).toBeUndefined();
  });
});
