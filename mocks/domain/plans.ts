import { ConfigError } from './config-error.js';

/** The plans of the interface. */
export const PLANS = ['free', 'pro', 'business', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

/** Requests admitted per fixed UTC window. */
export interface Limits {
  perMinute: number;
  perDay: number;
}

/** Each plan's limits. Enterprise is "custom" in the seed; these are its defaults. */
export const PLAN_LIMITS: Readonly<Record<Plan, Limits>> = {
  free: { perMinute: 60, perDay: 1_000 },
  pro: { perMinute: 300, perDay: 10_000 },
  business: { perMinute: 1_000, perDay: 100_000 },
  enterprise: { perMinute: 5_000, perDay: 1_000_000 },
};

/** An API key the fake accepts, with the plan and limits that apply to it. */
export interface ApiKey {
  key: string;
  plan: Plan;
  limits: Limits;
}

/** One entry of a `--keys` file. */
export interface ApiKeyConfig {
  key: string;
  plan: Plan;
  perMinute?: number;
  perDay?: number;
}

/** The fake's default keys, one per plan. */
export const DEFAULT_KEYS: readonly ApiKey[] = PLANS.map((plan) => ({
  key: `${plan}-test-key`,
  plan,
  limits: PLAN_LIMITS[plan],
}));

// A bearer token is a token68 (RFC 7235); anything else could never arrive intact in a header.
const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*$/;

/**
 * Checks a `--keys` document and turns it into API keys; throws a {@link ConfigError} naming the entry.
 * @example apiKeysFromConfig([{ key: 'k1', plan: 'pro' }], 'keys.json')
 */
export function apiKeysFromConfig(config: unknown, source: string): ApiKey[] {
  if (!Array.isArray(config))
    throw new ConfigError(source, '', 'must be a JSON array of { key, plan, perMinute?, perDay? }');
  if (config.length === 0) throw new ConfigError(source, '', 'lists no key; the fake would refuse every request');
  const seen = new Set<string>();
  return config.map((entry: unknown, index) => {
    const at = `[${index}]`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      throw new ConfigError(source, at, 'must be an object { key, plan, perMinute?, perDay? }');
    }
    const { key, plan, perMinute, perDay, ...rest } = entry as Record<string, unknown>;
    const unknown = Object.keys(rest);
    if (unknown.length > 0) throw new ConfigError(source, at, `unknown field "${unknown[0]}"`);
    if (typeof key !== 'string' || !TOKEN68.test(key)) {
      throw new ConfigError(source, `${at}.key`, 'must be a non-empty bearer token (letters, digits, - . _ ~ + /)');
    }
    if (seen.has(key)) throw new ConfigError(source, `${at}.key`, `duplicate key "${key}"`);
    seen.add(key);
    if (typeof plan !== 'string' || !(PLANS as readonly string[]).includes(plan)) {
      throw new ConfigError(
        source,
        `${at}.plan`,
        `unknown plan ${JSON.stringify(plan)}; expected one of ${PLANS.join(', ')}`,
      );
    }
    const limits = { ...PLAN_LIMITS[plan as Plan] };
    for (const [name, value] of [
      ['perMinute', perMinute],
      ['perDay', perDay],
    ] as const) {
      if (value === undefined) continue;
      if (plan !== 'enterprise') {
        throw new ConfigError(
          source,
          `${at}.${name}`,
          `custom limits are accepted only for the enterprise plan, not "${plan}"`,
        );
      }
      if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
        throw new ConfigError(source, `${at}.${name}`, `must be a positive integer, got ${JSON.stringify(value)}`);
      }
      limits[name] = value;
    }
    return { key, plan: plan as Plan, limits };
  });
}
