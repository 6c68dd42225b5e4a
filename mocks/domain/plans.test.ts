import { describe, expect, it } from '@jest/globals';
import { specDocument } from '../../spec/spec-artifacts.js';
import { apiKeysFromConfig, DEFAULT_KEYS, PLAN_LIMITS, planLimitsStatedBy } from './plans.js';

describe("the plans' limits", () => {
  const stating = (quotas: string) =>
    `Each key has a plan, and the plan sets its quotas: ${quotas}. Each request counts.`;

  it("are the ones the spec states (enterprise: agreed per key, the fake's default)", () => {
    const description = (specDocument().info as { description?: string }).description ?? '';
    expect(PLAN_LIMITS).toEqual(planLimitsStatedBy(description));
    expect(
      planLimitsStatedBy(
        stating(
          'free (7 requests a minute, 1,100 a day), pro\n  (30 and 10,001), business (2,000 and 100,000) or enterprise (limits agreed per key)',
        ),
      ),
    ).toEqual({
      free: { perMinute: 7, perDay: 1_100 },
      pro: { perMinute: 30, perDay: 10_001 },
      business: { perMinute: 2_000, perDay: 100_000 },
      enterprise: PLAN_LIMITS.enterprise,
    });
  });

  it.each([
    [
      'a plan the fake does not know',
      'free (1 and 2), gold (3 and 4), pro (5 and 6), business (7 and 8) or enterprise (agreed)',
    ],
    ['a plan without its day limit', 'free (60 a minute), pro (5 and 6), business (7 and 8) or enterprise (agreed)'],
    ['no such sentence', ''],
  ])('fail loudly when the spec no longer states them: %s', (_, quotas) => {
    expect(() => planLimitsStatedBy(stating(quotas))).toThrow(/spec\/openapi.yaml must state each plan's quotas/);
  });
});

describe('API keys', () => {
  it('has one default key per plan with the spec limits, enterprise 5,000/min and 1,000,000/day', () => {
    expect(DEFAULT_KEYS.map((k) => [k.key, k.plan, k.limits.perMinute, k.limits.perDay])).toEqual([
      ['free-test-key', 'free', 60, 1_000],
      ['pro-test-key', 'pro', 300, 10_000],
      ['business-test-key', 'business', 1_000, 100_000],
      ['enterprise-test-key', 'enterprise', 5_000, 1_000_000],
    ]);
  });

  it('reads a keys file, with custom limits for enterprise keys', () => {
    expect(
      apiKeysFromConfig(
        [
          { key: 'a', plan: 'pro' },
          { key: 'b', plan: 'enterprise', perMinute: 7 },
        ],
        'keys.json',
      ),
    ).toEqual([
      { key: 'a', plan: 'pro', limits: { perMinute: 300, perDay: 10_000 } },
      { key: 'b', plan: 'enterprise', limits: { perMinute: 7, perDay: 1_000_000 } },
    ]);
  });

  it.each([
    [{}, 'keys.json: must be a JSON array'],
    [[], 'keys.json: lists no key'],
    [[{ key: 'a', plan: 'gold' }], 'keys.json: [0].plan: unknown plan "gold"'],
    [
      [{ key: 'a', plan: 'free', perMinute: 100 }],
      'keys.json: [0].perMinute: custom limits are accepted only for the enterprise plan',
    ],
    [[{ key: 'a', plan: 'enterprise', perDay: 0 }], 'keys.json: [0].perDay: must be a positive integer'],
    [
      [
        { key: 'a', plan: 'free' },
        { key: 'a', plan: 'pro' },
      ],
      'keys.json: [1].key: duplicate key "a"',
    ],
    [[{ key: 'has space', plan: 'free' }], 'keys.json: [0].key: must be a non-empty bearer token'],
    [[{ key: 'a', plan: 'free', limit: 3 }], 'keys.json: [0]: unknown field "limit"'],
    [['a'], 'keys.json: [0]: must be an object'],
  ])('refuses %j naming the entry', (config, message) => {
    expect(() => apiKeysFromConfig(config, 'keys.json')).toThrow(message);
  });
});
