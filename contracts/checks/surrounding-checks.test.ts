import { describe, expect, it } from '@jest/globals';
import { DERIVED_SURROUNDING_VARIANTS } from '../broken-variants/derived-surrounding-variants.js';
import { SURROUNDING_VARIANTS } from '../broken-variants/surrounding-variants.js';
import { wrapping } from '../broken-variants/variant.js';
import { runChecks } from '../runner/run-checks.js';
import { startFakeTarget, type FakeTargetOptions } from '../targets/fake-target.js';
import { undeclaredSurroundingsIgnored } from './surrounding-checks.js';

/** The check alone against a fake, as a run whose key's quota limits it (`paced`) or one with room. */
async function runAgainst(fake: FakeTargetOptions, paced: boolean) {
  const target = await startFakeTarget(fake);
  try {
    const [result] = await runChecks([undeclaredSurroundingsIgnored], { ...target.descriptor, paced });
    return result!;
  } finally {
    await target.close();
  }
}

describe('undeclared_surroundings_ignored under a budget', () => {
  it('sends the elements together, fewer requests than one each, and the fake passes', async () => {
    const [budgeted, roomy] = [await runAgainst({}, true), await runAgainst({}, false)];
    expect([budgeted.outcome, roomy.outcome]).toEqual(['passed', 'passed']);
    expect(budgeted.requests).toBeLessThan(roomy.requests / 2);
  }, 60_000);

  it.each(
    [...SURROUNDING_VARIANTS, ...DERIVED_SURROUNDING_VARIANTS].map((variant) => [variant.name, variant] as const),
  )(
    'halves the group that changes the answer down to the element: %s',
    async (_name, variant) => {
      const result = await runAgainst(variant.fake, true);
      expect(result.outcome).toBe('failed');
      // The rule's finding names the one element, found alone by halving its group (the model may add its own).
      const named = (result.findings ?? []).filter(({ id }) =>
        ['undeclared_elements_change_nothing', 'required_forms_accepted'].includes(id),
      );
      // What is charged is the model's to judge: its finding's exchange carries the element.
      const charged = (result.findings ?? []).filter(({ id }) => id === 'charged_once_per_admitted_request');
      expect(named.length + charged.length).toBeGreaterThan(0);
      for (const finding of named)
        expect(finding.lines.join('\n')).toMatch(/^(header|query|framing|request-line|path) /m);
    },
    60_000,
  );

  it('reports a group whole when only its elements together change the answer', async () => {
    // A service that builds its own URL from both forwarded fields, and routes it: either alone is ignored.
    const both = wrapping((request, next) =>
      request.header('x-forwarded-host') !== null && request.header('x-forwarded-prefix') !== null
        ? next({ path: '/elsewhere' })
        : next(),
    );
    const result = await runAgainst(both, true);
    expect(result.outcome).toBe('failed');
    const lines = (result.findings ?? [])
      .find(({ id }) => id === 'undeclared_elements_change_nothing')!
      .lines.join('\n');
    expect(lines).toContain('each alone was answered as without it');
    expect(lines).toMatch(/X-Forwarded-Host/);
    expect(lines).toMatch(/X-Forwarded-Prefix/);
  }, 60_000);
});
