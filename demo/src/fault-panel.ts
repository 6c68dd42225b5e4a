import type { Fake } from '../../mocks/browser/index.js';

/** The states a designer can switch on in the demo's panel (docs/explanation/design.md section 5 underneath). */
export const DEMO_FAULTS = ['slow', 'unavailable', 'offline', 'twoLeft', 'banned'] as const;
export type DemoFault = (typeof DEMO_FAULTS)[number];

/** The list waits this long under "Slow network": long enough to see the loading state. */
export const SLOW_NETWORK_MS = 2_000;

/**
 * Switches one state on or off in the page's fake. Each is the fake's own control, so what the page then
 * shows (headers, 429, the ban's Retry-After) is the fake's ordinary behaviour, not a canned answer.
 * @example await switchFault(fake, 'free-test-key', 'offline', true)
 */
export async function switchFault(fake: Fake, apiKey: string, fault: DemoFault, on: boolean): Promise<void> {
  const rule = RULES[fault];
  if (rule) {
    await fake.faults.remove(rule.id);
    if (on) await fake.faults.add(rule);
    return;
  }
  if (fault === 'banned') {
    await (on ? fake.keys.ban(apiKey) : fake.keys.unban(apiKey));
    return;
  }
  // Three, because the list the page reloads to show the switch spends one: the page then reads "2".
  const { minute } = await fake.keys.state(apiKey);
  await fake.keys.setQuota(apiKey, { minuteRemaining: on ? Math.min(3, minute.limit) : minute.limit });
}

const RULES: Partial<
  Record<DemoFault, { id: string; effect: { delayMs: number } | { status: number } | { network: 'error' } }>
> = {
  slow: { id: 'demo-slow', effect: { delayMs: SLOW_NETWORK_MS } },
  unavailable: { id: 'demo-unavailable', effect: { status: 503 } },
  offline: { id: 'demo-offline', effect: { network: 'error' } },
};
