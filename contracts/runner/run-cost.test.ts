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
  it('leaves out the windows --max-requests cannot afford, and only those (they create no records)', () => {
    const enterprise = estimateRunCost({
      runs: 20,
      keyLimit: 5_000,
      capabilities: ['writes', 'quota'],
      checks: [...WINDOW_DRIVING_CHECKS],
      maxRequests: 5_000,
    });
    expect(enterprise.windowRequests).toBe(WINDOW_DRIVING_CHECKS.size * 5_003);
    expect(enterprise.bounded).toEqual({
      by: '--max-requests 5000',
      requests: enterprise.requests - enterprise.windowRequests,
      records: enterprise.records,
    });
  });

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

  it("counts the records a bounded run makes from its rehearsal: the fixed cases' records come first", () => {
    const early = { runs: 20, keyLimit: 60, capabilities: ['writes', 'quota'] as const, checks: [], maxMinutes: 2 };
    // Two minutes of a free key hold about 220 requests: the first check's 100 requests and 50 records all fit.
    const frontLoaded = estimateRunCost({
      ...early,
      rehearsal: [
        { requests: 100, records: 50 },
        { requests: 400, records: 0 },
      ],
    });
    const spread = estimateRunCost({
      ...early,
      rehearsal: [
        { requests: 400, records: 0 },
        { requests: 100, records: 50 },
      ],
    });
    expect(frontLoaded.bounded!.records).toBe(50);
    expect(spread.bounded!.records).toBe(0);
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
      'about 792 requests, under a minute, no records created; bounded by --max-minutes 5',
    );
  });
});
