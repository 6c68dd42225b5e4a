import { describe, expect, it } from '@jest/globals';
import { apiKeysFromConfig, DEFAULT_KEYS } from './plans.js';

describe('API keys', () => {
  it('has one default key per plan with the design limits, enterprise 5,000/min and 1,000,000/day', () => {
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
