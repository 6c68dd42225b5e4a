import { describe, expect, it } from '@jest/globals';
import { estimateRunCost, expectedRequests, runCostText, WINDOW_DRIVING_CHECKS } from './run-cost.js';

const freeKeyRun = (maxMinutes?: number) =>
  estimateRunCost({
    runs: 20,
    keyLimit: 60,
    capabilities: ['writes', 'quota'],
    checks: [...WINDOW_DRIVING_CHECKS, 'valid_bodies_stored_as_sent'],
    ...(maxMinutes !== undefined && { maxMinutes }),
  });

describe('estimateRunCost', () => {
  it('states what a --max-minutes shorter than the run holds of it, and the expected requests are those', () => {
    const whole = freeKeyRun();
    expect(whole.bounded).toBeUndefined();
    const bounded = freeKeyRun(5);
    expect(bounded.bounded).toBeDefined();
    const held = bounded.bounded!;
    expect(held.requests).toBeLessThan(whole.requests);
    expect(held.records).toBeLessThan(whole.records);
    expect(expectedRequests(bounded)).toBe(held.requests);
    expect(runCostText(bounded, { maxMinutes: 5 })).toContain(
      `--max-minutes 5 holds about ${held.requests} requests of it and ${held.records} records, and leaves the rest out`,
    );
  });

  it('holds the whole run when the bound is longer than the run', () => {
    const whole = freeKeyRun();
    const roomy = freeKeyRun(Math.ceil(whole.seconds / 60) + 1);
    expect(roomy.bounded).toBeUndefined();
    expect(expectedRequests(roomy)).toBe(whole.requests);
  });

  it('runs a key with room in a minute and states no bound it does not reach', () => {
    const enterprise = estimateRunCost({ runs: 20, keyLimit: 5_000, capabilities: [], checks: [], maxMinutes: 5 });
    expect(enterprise.bounded).toBeUndefined();
    expect(enterprise.records).toBe(0);
    expect(runCostText(enterprise, { maxMinutes: 5 })).toContain(
      'about 792 requests, about 1 min, no records created; bounded by --max-minutes 5',
    );
  });
});
