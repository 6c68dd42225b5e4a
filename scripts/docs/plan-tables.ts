import { DEFAULT_KEYS, PLAN_LIMITS, PLANS } from '../../mocks/domain/plans.js';

// The plans' limits are the spec's (mocks/domain/plans.ts reads them from spec/openapi.yaml): the docs
// show them from there, never typed again.
const count = (n: number) => n.toLocaleString('en-US');

/** Each plan's limits as the spec states them; enterprise's are agreed per key (the fake's default shown). */
export function planLimitsMarkdown(): string {
  return [
    '| Plan | per minute | per day |',
    '|---|---|---|',
    ...PLANS.map((plan) => {
      const { perMinute, perDay } = PLAN_LIMITS[plan];
      return plan === 'enterprise'
        ? `| ${plan} | custom (fake: ${count(perMinute)}) | custom (fake: ${count(perDay)}) |`
        : `| ${plan} | ${count(perMinute)} | ${count(perDay)} |`;
    }),
  ].join('\n');
}

/** The fake's default keys, one per plan, with their limits. */
export function defaultKeysMarkdown(): string {
  return [
    '| Key | Plan | Per minute | Per day |',
    '|---|---|---|---|',
    ...DEFAULT_KEYS.map(
      ({ key, plan, limits }) => `| \`${key}\` | ${plan} | ${count(limits.perMinute)} | ${count(limits.perDay)} |`,
    ),
  ].join('\n');
}
