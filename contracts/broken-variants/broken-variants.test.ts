import { beforeAll, describe, expect, it } from '@jest/globals';
import { CHECKS, checkNamed } from '../checks/registry.js';
import type { Check } from '../checks/check.js';
import type { CheckResult } from '../runner/check-result.js';
import { runChecks } from '../runner/run-checks.js';
import { suiteSettings } from '../runner/suite-settings.js';
import { override } from '../../mocks/handlers/typed-override.js';
import { startFakeTarget, type FakeTargetOptions } from '../targets/fake-target.js';
import { BROKEN_VARIANTS } from './index.js';

async function suiteAgainst(
  fake: FakeTargetOptions,
  checks: readonly Check[] = CHECKS,
  { strict = false } = {},
): Promise<CheckResult[]> {
  const target = await startFakeTarget(fake);
  try {
    return await runChecks(checks, target.descriptor, {
      ...(strict && { settings: suiteSettings({ live: false, seed: 1, strict: true }) }),
    });
  } finally {
    await target.close();
  }
}

const failedChecks = (results: CheckResult[]) =>
  results.filter((result) => result.outcome === 'failed').map((result) => result.check);

describe('the contract suite against deliberately broken fakes', () => {
  it('has at least twelve variants, with distinct names, each naming checks that exist', () => {
    expect(BROKEN_VARIANTS.length).toBeGreaterThanOrEqual(12);
    expect(new Set(BROKEN_VARIANTS.map((variant) => variant.name)).size).toBe(BROKEN_VARIANTS.length);
    const known = CHECKS.map((check) => check.name);
    for (const variant of BROKEN_VARIANTS) {
      expect(variant.caughtBy.length).toBeGreaterThan(0);
      expect(known).toEqual(expect.arrayContaining(variant.caughtBy));
    }
  });

  it('sees every check of the registry fail on at least one variant (a check that cannot fail is a defect)', () => {
    const caught = new Set(BROKEN_VARIANTS.flatMap((variant) => variant.caughtBy));
    expect(CHECKS.map((check) => check.name).filter((name) => !caught.has(name))).toEqual([]);
  });

  it('passes every check on the fake with pass-through overrides at both stages (the seam itself breaks nothing)', async () => {
    const results = await suiteAgainst({
      overrides: [override.all(({ next }) => next(), { beforeAuth: true }), override.all(({ next }) => next())],
    });
    expect(results.filter((result) => result.outcome !== 'passed')).toEqual([]);
  }, 120_000);

  describe.each(BROKEN_VARIANTS.map((variant) => [variant.name, variant] as const))('variant %s', (_name, variant) => {
    let results: CheckResult[] = [];
    let byDefault: CheckResult[] = [];
    beforeAll(async () => {
      // Only the checks the variant names: that they fail is the claim (the whole suite passes on the fake above).
      const checks = variant.caughtBy.map(checkNamed);
      results = await suiteAgainst(variant.fake, checks, { strict: variant.strict === true });
      if (variant.strict) byDefault = await suiteAgainst(variant.fake, checks);
    }, 120_000);

    it(`fails with ${variant.caughtBy.join(', ')}${variant.strict ? ' under --strict' : ''} (it breaks: ${variant.breaks})`, () => {
      expect(failedChecks(results)).toEqual(expect.arrayContaining(variant.caughtBy));
    });

    if (variant.strict)
      it('breaks a SHOULD: a default run passes those checks, each with a warning naming what broke', () => {
        for (const result of byDefault.filter(({ check }) => variant.caughtBy.includes(check))) {
          expect([result.check, result.outcome]).toEqual([result.check, 'passed']);
          expect(result.warnings?.length ?? 0).toBeGreaterThan(0);
        }
      });

    it('reports each failure with a title, Received/Expected lines or a reason, and a curl command', () => {
      for (const result of results.filter(({ check }) => variant.caughtBy.includes(check))) {
        expect(result.failure?.title).toEqual(expect.any(String));
        expect(result.failure?.lines.length).toBeGreaterThan(0);
        // Double quotes when the URL carries the key as ${PETSTORE_API_KEY} (a key sent in the query).
        expect(result.failure?.curl).toMatch(/^curl -X [A-Z]+ (['"])http:\/\/127\.0\.0\.1:\d+\/v1\//);
        expect(result.failure?.curl).not.toContain('free-test-key');
      }
    });
  });
});
