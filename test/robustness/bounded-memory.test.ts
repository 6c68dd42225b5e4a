// The quota store stays bounded whatever the number of clients: anonymous buckets by the capacity
// (the idlest evicted first) and by the day window (idle buckets swept when their day ends); key
// buckets by the key table. Driven through the domain with an injected clock: 100,000 clients in
// well under a second, no network.
import { describe, expect, it } from '@jest/globals';
import { AccessControl } from '../../mocks/domain/access.js';
import { DEFAULT_BAN_POLICY } from '../../mocks/domain/ban.js';
import { DEFAULT_KEYS, PLAN_LIMITS, type ApiKey } from '../../mocks/domain/plans.js';

const DAY_MS = 86_400_000;
const T0 = Date.UTC(2026, 10, 22);

function controlWith(keys: readonly ApiKey[], anonymousCapacity: number) {
  const clock = {
    nowMs: T0,
    now() {
      return this.nowMs;
    },
  };
  return { clock, control: new AccessControl({ keys, clock, ban: DEFAULT_BAN_POLICY, anonymousCapacity }) };
}

/** An IPv6 address of full length, distinct for every n: the longest subject a real client has. */
function address(n: number): string {
  return `2001:0db8:${(n >>> 16).toString(16).padStart(4, '0')}:${(n & 0xffff).toString(16).padStart(4, '0')}:0000:0000:0000:0001`;
}

describe('bounded memory of the quota store', () => {
  it('100,000 distinct anonymous addresses in one day: never more than the 10,000 capacity', () => {
    const { clock, control } = controlWith(DEFAULT_KEYS, 10_000);
    let largest = 0;
    const codes = new Set<string>();
    for (let n = 0; n < 100_000; n++) {
      clock.nowMs = T0 + n * 800; // 100,000 requests over 22 hours
      const access = control.check(null, address(n));
      if (!access.granted) codes.add(access.error.code);
      largest = Math.max(largest, control.trackedSubjects.anonymous);
    }
    expect(largest).toBe(10_000);
    // Each address was new: it started afresh with a 401, never a 429 inherited from another.
    expect([...codes]).toEqual(['missing_api_key']);
    // The day ends: the first request of the next one sweeps every bucket of the last.
    clock.nowMs = T0 + DAY_MS;
    control.check(null, address(0));
    expect(control.trackedSubjects.anonymous).toBe(1);
  });

  it('below the capacity, buckets go when their day ends: 20 days of 5,000 new addresses keep at most 5,000', () => {
    const { clock, control } = controlWith(DEFAULT_KEYS, 10_000);
    let largest = 0;
    for (let n = 0; n < 100_000; n++) {
      const day = Math.floor(n / 5_000);
      clock.nowMs = T0 + day * DAY_MS + (n % 5_000) * 10_000;
      control.check('Bearer wrong-key', address(n));
      largest = Math.max(largest, control.trackedSubjects.anonymous);
    }
    expect(largest).toBe(5_000);
  });

  it('an address stays one bucket however many keys it guesses: 100,000 unknown keys from 10 addresses', () => {
    const { clock, control } = controlWith(DEFAULT_KEYS, 10_000);
    for (let n = 0; n < 100_000; n++) {
      clock.nowMs = T0 + n * 100;
      control.check(`Bearer guessed-key-${n}`, address(n % 10));
    }
    expect(control.trackedSubjects).toEqual({ keys: 0, anonymous: 10 });
  });

  it('key buckets are bounded by the key table: 1,000 keys over 3 days, swept when each day ends', () => {
    const keys = Array.from({ length: 1_000 }, (_, i): ApiKey => ({
      key: `key-${i}`,
      plan: 'pro',
      limits: PLAN_LIMITS.pro,
    }));
    const { clock, control } = controlWith(keys, 10_000);
    let largest = 0;
    for (let day = 0; day < 3; day++) {
      for (let n = 0; n < 30_000; n++) {
        clock.nowMs = T0 + day * DAY_MS + n * 2_000;
        control.check(`Bearer key-${(n * 7 + day) % 1_000}`, '127.0.0.1');
        largest = Math.max(largest, control.trackedSubjects.keys);
      }
    }
    expect(largest).toBe(1_000);
    clock.nowMs = T0 + 3 * DAY_MS;
    control.check('Bearer key-0', '127.0.0.1');
    expect(control.trackedSubjects.keys).toBe(1);
  });
});
