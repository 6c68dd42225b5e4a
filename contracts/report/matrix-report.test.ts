import { describe, expect, it } from '@jest/globals';
import { coverageOf } from '../coverage/coverage.js';
import type { CheckResult } from '../runner/check-result.js';
import { coverageText, matrixText } from './matrix-report.js';
import { disagreementsOf, type SuiteReport } from './suite-report.js';

const result = (check: string, outcome: CheckResult['outcome'], title?: string): CheckResult => ({
  check: check as CheckResult['check'], // made-up names: a report renders any check
  verifies: 'v',
  outcome,
  ...(title && { failure: { title, lines: [] } }),
  notes: [],
  durationMs: 1,
  requests: 1,
  observed: [],
});

function suite(label: string, results: CheckResult[]): SuiteReport {
  return {
    target: { kind: label === 'fake' ? 'fake' : 'url', label, baseUrl: label, capabilities: [] },
    startedAt: '2026-11-23T00:00:00.000Z',
    durationMs: 1,
    summary: { passed: 0, failed: 0, skipped: 0 },
    incomplete: [],
    runs: 1,
    requests: 3,
    coverage: coverageOf([]),
    unanswered: { count: 0, requests: [] },
    reachability: { exitCode: 0 },
    waitsPastBudget: [],
    waits: [],
    exitCode: 0,
    results,
  };
}

describe('disagreementsOf and matrixText', () => {
  const fake = suite('fake', [result('a', 'passed'), result('b', 'passed'), result('c', 'skipped')]);
  const staging = suite('http://staging/v1', [
    result('a', 'passed'),
    result('b', 'failed', 'The answer differs from the body sent'),
    result('c', 'failed', 'x'),
  ]);

  it('names a check that passes on one target and fails on another; a skip disagrees with nothing', () => {
    expect(disagreementsOf([fake, staging])).toEqual([
      {
        check: 'b',
        passedOn: ['fake'],
        failedOn: [{ target: 'http://staging/v1', title: 'The answer differs from the body sent' }],
      },
    ]);
  });

  it('prints one row per check, one column per target, and the disagreement plainly', () => {
    const text = matrixText({
      seed: 7,
      exitCode: 1,
      targets: [fake, staging],
      disagreements: disagreementsOf([fake, staging]),
    });
    expect(text).toContain('check     fake  http://staging/v1');
    expect(text).toMatch(/^b\s+PASS\s+FAIL$/m);
    expect(text).toContain(
      'The targets disagree on 1 check:\n- b: passes on fake; fails on http://staging/v1 (The answer differs from the body sent)',
    );
  });

  it('says so when the targets agree', () => {
    expect(matrixText({ seed: 7, exitCode: 0, targets: [fake, fake], disagreements: [] })).toContain(
      'The targets agree on every check they all ran.',
    );
  });
});

describe('coverageText', () => {
  it('lists a status never seen once, without its headers, and a header missing from a status seen', () => {
    const text = coverageText(
      coverageOf(['listOrders 200', 'listOrders 200 X-RateLimit-Limit', 'listOrders 200 X-RateLimit-Remaining']),
    );
    expect(text).toMatch(/^Coverage: 3 of \d+ documented operation x status x header exercised \(\d+\.\d%\)/);
    expect(text).toContain('listOrders 200 X-RateLimit-Reset');
    expect(text).toContain('listOrders 429');
    expect(text).not.toContain('listOrders 429 Retry-After');
  });

  it('leaves out of the total what the target can never be made to answer (a declared 500 without Prefer), saying why; counts it when answered', () => {
    const lacking = { preferredStatus: 'no test control makes it fail' };
    const everywhere = coverageOf([]);
    const live = coverageOf([], lacking);
    const fiveHundreds = everywhere.items.filter((item) => item.status === '500');
    expect(fiveHundreds.length).toBeGreaterThan(0);
    expect(live.total).toBe(everywhere.total - fiveHundreds.length);
    const text = coverageText(live);
    expect(text).toMatch(/^ {2}not exercised: .*listOrders 429/m);
    expect(text).not.toMatch(/not exercised: .*listOrders 500/);
    expect(text).toMatch(
      /^ {2}not counted, this target cannot give them: .*listOrders 500.* \(no test control makes it fail\)$/m,
    );
    // A 500 the target gave anyway (a defect a request found) is exercised and counted.
    const answered = coverageOf(['listOrders 500'], lacking);
    expect(answered.total).toBe(live.total + 1);
    expect(answered.items.find((item) => item.id === 'listOrders 500')).toMatchObject({ exercised: true });
    expect(answered.items.find((item) => item.id === 'listOrders 500')).not.toHaveProperty('unreachable');
  });
});
