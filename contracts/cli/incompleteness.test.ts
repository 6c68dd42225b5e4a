import { describe, expect, it } from '@jest/globals';
import type { CheckResult } from '../runner/check-result.js';
import type { EvidenceSummary } from '../runner/evidence-catalogue.js';
import { INTERRUPTED, LEFT_OUT } from '../runner/run-bounds.js';
import { incompleteLine, incompleteness } from './incompleteness.js';

const skipped = (check: string, reason: string) =>
  ({
    check,
    verifies: '',
    outcome: 'skipped',
    reason,
    notes: [],
    durationMs: 0,
    requests: 0,
    observed: [],
  }) as CheckResult;
const allTried = { notTried: [] } as unknown as EvidenceSummary;

describe('incompleteness', () => {
  it('counts checks left out by a budget and checks stopped midway, not skips for what the target is', () => {
    const results = [
      skipped('a', `${LEFT_OUT} 5: the time was used up`),
      skipped('b', `${INTERRUPTED}: the run was stopped before this check`),
      skipped('c', 'a live target has no clock to move'),
    ];
    expect(incompleteness(results, allTried)).toEqual([
      '1 checks left out by the budget (a)',
      '1 checks not completed (b)',
    ]);
  });

  it('makes the last line only of a run that did less than asked, saying whether it fails the run', () => {
    const done = { target: { label: 'fake' }, incomplete: [] };
    const short = { target: { label: 'staging' }, incomplete: ['1 checks not completed (b)'] };
    expect(incompleteLine([done], false)).toBeUndefined();
    expect(incompleteLine([done, short], false)).toBe(
      'INCOMPLETE: staging: 1 checks not completed (b) (--require-complete makes this exit 1)',
    );
    expect(incompleteLine([short], true)).toMatch(/\(exit 1: --require-complete\)$/);
  });
});
