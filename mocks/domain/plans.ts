import { specDocument } from '../../spec/spec-artifacts.js';
import { ConfigError } from './config-error.js';

/** The plans of the interface. */
export const PLANS = ['free', 'pro', 'business', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

/** Requests admitted per fixed UTC window. */
export interface Limits {
  perMinute: number;
  perDay: number;
}

// The spec agrees enterprise limits per key; without a `--keys` entry that sets them, the fake's are these.
const ENTERPRISE_DEFAULT: Limits = { perMinute: 5_000, perDay: 1_000_000 };

// How the spec states the plans: "the plan sets its quotas: free (60 requests a minute, 1,000 a day), pro
// (300 and 10,000), ... or enterprise (limits agreed per key)."
const QUOTAS_SENTENCE = /the plan sets its quotas: (.*?)\.(?:\s|$)/;

/**
 * Each plan's limits as `description` (the spec's `info.description`) states them: the spec is their
 * one source, the fake reads them from it. Throws, naming what it found, when the spec no longer states
 * a minute and a day limit for each plan but enterprise (whose limits are agreed per key).
 * @example planLimitsStatedBy('... the plan sets its quotas: free (60 requests a minute, 1,000 a day), pro (300 and 10,000), business (1,000 and 100,000) or enterprise (limits agreed per key).').free // { perMinute: 60, perDay: 1000 }
 */
export function planLimitsStatedBy(description: string): Record<Plan, Limits> {
  const stated = QUOTAS_SENTENCE.exec(description.replace(/\s+/g, ' '))?.[1] ?? '';
  const plans = [...stated.matchAll(/(\w+) \(([^)]*)\)/g)].map(([, plan, limits]) => ({
    plan: plan!,
    numbers: (limits!.match(/\d[\d,]*/g) ?? []).map((number) => Number(number.replace(/,/g, ''))),
  }));
  const named = plans.map(({ plan }) => plan);
  const malformed = plans.find(({ plan, numbers }) => numbers.length !== (plan === 'enterprise' ? 0 : 2));
  if (named.join() !== PLANS.join() || malformed)
    throw new Error(
      `[petstore-fake] spec/openapi.yaml must state each plan's quotas as "the plan sets its quotas: free (N requests a minute, N a day), pro (N and N), business (N and N) or enterprise (limits agreed per key)"; it states "${stated}"`,
    );
  const limits = Object.fromEntries(
    plans.map(({ plan, numbers: [perMinute, perDay] }) => [
      plan,
      plan === 'enterprise' ? ENTERPRISE_DEFAULT : { perMinute: perMinute!, perDay: perDay! },
    ]),
  );
  return limits as Record<Plan, Limits>;
}

/** Each plan's limits, read from the spec (enterprise's are the fake's default: the spec agrees them per key). */
export const PLAN_LIMITS: Readonly<Record<Plan, Limits>> = planLimitsStatedBy(
  (specDocument().info as { description?: string }).description ?? '',
);

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
