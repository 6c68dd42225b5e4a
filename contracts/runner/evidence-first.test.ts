import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CHECKS } from '../checks/registry.js';
import { concurrentClientsSerialisable } from '../checks/concurrent-clients-check.js';
import { brokenVariant } from '../broken-variants/index.js';
import { startFakeServer } from '../../mocks/server/index.js';
import { connectUrlTarget } from '../targets/url-target.js';
import { startFakeTarget } from '../targets/fake-target.js';
import type { RunningTarget } from '../targets/target.js';
import type { CheckResult } from './check-result.js';
import { evidenceCatalogue, evidenceSummary } from './evidence-catalogue.js';
import { chooseEvidenceChecks } from './evidence-plan.js';
import { runCheck, runCheckInPhase, sessionOf } from './run-check.js';
import { runChecks } from './run-checks.js';
import type { SuiteSettings } from './suite-settings.js';

// A budget far below what a run of every check with its generated cases takes on the fake (thousands
// of requests at --runs 100), and above what the checks that try the whole catalogue take (667 on the
// fake since the surroundings are derived: on a target with room each element of the first read goes
// alone; 595 before).
const TIGHT: SuiteSettings = { seed: 11, runs: 100, maxRequests: 700 };

let targets: RunningTarget[] = [];
const target = async () => {
  const started = await startFakeTarget();
  targets.push(started);
  return started.descriptor;
};
beforeAll(() => {
  targets = [];
});
afterAll(async () => {
  await Promise.all(targets.map((running) => running.close()));
});

const summaryOf = async (descriptor: Awaited<ReturnType<typeof target>>, results: CheckResult[]) =>
  evidenceSummary({
    catalogue: evidenceCatalogue(),
    tried: sessionOf(descriptor).evidence.tried,
    results,
    descriptor,
  });

describe('a budget buys evidence first, repetition last', () => {
  it('tries every entry of the catalogue on the fake under a request budget that checks run one by one spend before the end', async () => {
    // Checks one after another, each with its generated cases (how a run spent a budget before):
    // the budget is gone before the checks that hold the rest of the catalogue.
    const inTurn = await target();
    const oneByOne: CheckResult[] = [];
    for (const check of CHECKS) oneByOne.push(await runCheck(check, inTurn, { settings: TIGHT }));
    const before = await summaryOf(inTurn, oneByOne);
    expect(before.complete).toBe(false);
    expect(before.notTried.length).toBeGreaterThan(0);

    const planned = await target();
    const results = await runChecks(CHECKS, planned, { settings: TIGHT });
    const after = await summaryOf(planned, results);
    expect(after.notTried).toEqual([]);
    expect(after.tried).toHaveLength(evidenceCatalogue().length);
    expect(results.map(({ check }) => check)).toEqual(CHECKS.map(({ name }) => name));
    expect(results.filter(({ outcome }) => outcome === 'failed')).toEqual([]);
    // The budget held, and what it dropped is repetition: checks that left out something said why.
    expect(results.reduce((sum, { requests }) => sum + requests, 0)).toBeLessThanOrEqual(TIGHT.maxRequests!);
    for (const result of results.filter(({ outcome }) => outcome === 'skipped'))
      expect(result.reason).toMatch(/request budget is used up/);
  }, 120_000);

  it('draws generated cases after the evidence, with what the budget has left', async () => {
    const descriptor = await target();
    const notes: string[] = [];
    await runChecks(CHECKS, descriptor, {
      settings: { seed: 5, runs: 5, maxRequests: 5_000 },
      onNote: (check, message) => notes.push(`${check}: ${message}`),
    });
    expect(notes).toEqual(
      expect.arrayContaining([expect.stringMatching(/^invalid_body_rejected: repetition: \d+ more requests/)]),
    );
  }, 120_000);
});

describe('bursts from several clients, whatever the budget', () => {
  it('catches creates answered with one id on a URL with its fixed bursts alone, whatever the seed', async () => {
    const service = await startFakeServer({ host: '127.0.0.1', port: 0, ...brokenVariant('create-ids-race').fake });
    try {
      for (const seed of [1, 2]) {
        // A target of its own per seed: a session keeps the seed its first check was given.
        const { descriptor } = await connectUrlTarget({
          baseUrl: service.baseUrl,
          apiKey: 'enterprise-test-key',
          allow: ['writes'],
        });
        const { result, tried } = await runCheckInPhase(
          concurrentClientsSerialisable,
          descriptor,
          { settings: { seed, runs: 20, maxRequests: 60 } },
          'evidence',
        );
        expect(result).toMatchObject({
          outcome: 'failed',
          failure: { title: expect.stringMatching(/clients at once/) },
        });
        expect(result.requests).toBeLessThanOrEqual(12);
        expect(tried).toEqual(expect.arrayContaining(['concurrency: creates from several clients at once']));
      }
    } finally {
      await service.close();
    }
  }, 60_000);
});

describe('choosing the checks that try the catalogue', () => {
  it('takes the most untried entries per request first, and one check the table names for every rule', () => {
    const chosen = chooseEvidenceChecks(
      [
        { check: 'broad_but_dear', requests: 100, tried: new Set(['a', 'b', 'c']) },
        { check: 'cheap_a', requests: 1, tried: new Set(['a']) },
        { check: 'cheap_bc', requests: 2, tried: new Set(['b', 'c']) },
        { check: 'repeats', requests: 1, tried: new Set(['a']) },
      ],
      ['rate_limit_exceeded_answer'],
    );
    expect(chosen.has('cheap_a') && chosen.has('cheap_bc')).toBe(true);
    expect(chosen.has('broad_but_dear') || chosen.has('repeats')).toBe(false);
    // retry_after_syntax is held by window-driving checks only: one of them runs, unrehearsed.
    expect(chosen.has('rate_limit_exceeded_answer')).toBe(true);
  });
});
