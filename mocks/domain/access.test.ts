import { describe, expect, it } from '@jest/globals';
import { AccessControl } from './access.js';
import type { Clock } from './clock.js';
import { DEFAULT_KEYS, PLAN_LIMITS } from './plans.js';

const T0 = Date.UTC(2026, 10, 22, 10, 0, 0);

function setup(ban = { threshold: 2, seconds: 300 }) {
  const clock = {
    nowMs: T0,
    now() {
      return this.nowMs;
    },
  } satisfies Clock & { nowMs: number };
  const control = new AccessControl({ keys: DEFAULT_KEYS, clock, ban, anonymousCapacity: 100 });
  return { clock, control };
}

describe('AccessControl', () => {
  it('tells a missing key from an unknown or malformed one, with the right challenge', () => {
    const { control } = setup();
    expect(control.check(null, 'a')).toMatchObject({
      granted: false,
      error: { code: 'missing_api_key', status: 401 },
      challenge: 'Bearer realm="petstore"',
    });
    for (const header of [
      'Bearer nope',
      'Basic Zm9vOmJhcg==',
      'Bearer',
      'free-test-key',
      `Bearer ${'x'.repeat(5000)}`,
    ]) {
      expect(control.check(header, 'a')).toMatchObject({
        granted: false,
        error: { code: 'invalid_api_key' },
        challenge: expect.stringContaining('error="invalid_token"'),
      });
    }
    expect(control.check('bearer free-test-key', 'a')).toMatchObject({ granted: true, apiKey: { plan: 'free' } });
  });

  it('counts 401s in an anonymous bucket per address with the free limits, then answers 429 instead', () => {
    const { control } = setup();
    for (let i = 0; i < PLAN_LIMITS.free.perMinute; i++)
      expect(control.check('Bearer guess', '10.0.0.1')).toMatchObject({ error: { status: 401 } });
    const blocked = control.check('Bearer guess', '10.0.0.1');
    expect(blocked).toMatchObject({
      granted: false,
      error: { code: 'rate_limit_exceeded', status: 429 },
      rateLimit: { remaining: 0, limit: 60 },
    });
    expect(blocked.granted === false && blocked.retryAfterSeconds).toBe(60);
    // Other addresses and real keys are unaffected: 401s consume no key's quota.
    expect(control.check(null, '10.0.0.2')).toMatchObject({ error: { status: 401 }, rateLimit: { remaining: 59 } });
    expect(control.check('Bearer free-test-key', '10.0.0.1')).toMatchObject({
      granted: true,
      rateLimit: { remaining: 59 },
    });
  });

  it('bans a key on the rejection that crosses the threshold; the ban neither consumes nor extends', () => {
    const { clock, control } = setup({ threshold: 2, seconds: 300 });
    const key = 'Bearer free-test-key';
    for (let i = 0; i < 60; i++) control.check(key, 'a');
    expect(control.check(key, 'a')).toMatchObject({ error: { code: 'rate_limit_exceeded' } });
    expect(control.check(key, 'a')).toMatchObject({ error: { code: 'rate_limit_exceeded' } });
    clock.nowMs += 10_000;
    const crossed = control.check(key, 'a');
    expect(crossed).toMatchObject({
      error: { code: 'temporarily_banned', status: 429 },
      retryAfterSeconds: 300,
      rateLimit: { remaining: 0, resetEpochSeconds: (T0 + 310_000) / 1000 },
    });
    clock.nowMs += 100_000;
    expect(control.check(key, 'a')).toMatchObject({
      error: { code: 'temporarily_banned' },
      retryAfterSeconds: 200,
      rateLimit: { resetEpochSeconds: (T0 + 310_000) / 1000 },
    });
    clock.nowMs = T0 + 310_000;
    expect(control.check(key, 'a')).toMatchObject({ granted: true, rateLimit: { remaining: 59 } });
  });

  it('bans one key only, and reset lifts bans and counters', () => {
    const { control } = setup({ threshold: 0, seconds: 300 });
    for (let i = 0; i <= 60; i++) control.check('Bearer free-test-key', 'a');
    expect(control.check('Bearer free-test-key', 'a')).toMatchObject({ error: { code: 'temporarily_banned' } });
    expect(control.check('Bearer pro-test-key', 'a')).toMatchObject({ granted: true });
    control.reset();
    expect(control.check('Bearer free-test-key', 'a')).toMatchObject({ granted: true, rateLimit: { remaining: 59 } });
  });
});
