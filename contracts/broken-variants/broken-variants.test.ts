import { beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { CHECKS, checkNamed } from '../checks/registry.js';
import type { Check } from '../checks/check.js';
import type { CheckResult } from '../runner/check-result.js';
import { runChecks } from '../runner/run-checks.js';
import { suiteSettings } from '../runner/suite-settings.js';
import { override } from '../../mocks/handlers/typed-override.js';
import { startFakeTarget, type FakeTargetOptions } from '../targets/fake-target.js';
import { BROKEN_VARIANTS } from './index.js';
import { statusOfCurl } from '../../test/support/curl-in-bash.js';

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

/**
 * Checks whose break the fake's seam cannot express, because the fake's HTTP server refuses the request
 * before any override sees it (two Host fields): a front in front of the fake breaks it in the named test.
 */
const CAUGHT_BEHIND_A_FRONT = new Map([['host_field_required_once', '../checks/connection-checks.test.ts']]);

/** Seeds every variant is run under: the verdict must not depend on which one a run drew. */
const SEEDS = [1, 2, 3, 4, 5];

/**
 * A failure one request shows whatever came before it: not a 429 (the window that earlier requests
 * used up), not one of a sequence or a burst (their other requests are listed beside it).
 */
const reproducible = (failure: NonNullable<CheckResult['failure']>) =>
  failure.status !== 429 && !failure.lines.some((line) => line.trimStart().startsWith('curl '));

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
    const caught = new Set([
      ...BROKEN_VARIANTS.flatMap((variant) => variant.caughtBy),
      ...CAUGHT_BEHIND_A_FRONT.keys(),
    ]);
    expect(CHECKS.map((check) => check.name).filter((name) => !caught.has(name))).toEqual([]);
  });

  it('finds each check a variant of the fake cannot break failing in the test that breaks it behind a front', () => {
    for (const [check, test] of CAUGHT_BEHIND_A_FRONT)
      expect([check, readFileSync(new URL(test, import.meta.url), 'utf8').includes(`fails the fake behind a`)]).toEqual(
        [check, true],
      );
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
    const caughtBySeed = new Map<number, string[]>();
    const reproduced: Array<{ curl: string; printed: number; again: number }> = [];
    beforeAll(async () => {
      // Only the checks the variant names: that they fail is the claim (the whole suite passes on the fake above).
      const checks = variant.caughtBy.map(checkNamed);
      const strict = variant.strict === true;
      // Each seed on a fake of its own, as a run of its own would find it; the first seed's failures are
      // then reproduced on its fake, reset to its start before each curl.
      for (const seed of SEEDS) {
        const target = await startFakeTarget(variant.fake);
        try {
          const settings = suiteSettings({ live: false, seed, ...(strict && { strict }) });
          const run = await runChecks(checks, target.descriptor, { settings });
          caughtBySeed.set(seed, failedChecks(run));
          if (seed !== SEEDS[0]) continue;
          results = run;
          for (const { failure } of results) {
            if (!failure?.curl || failure.status === undefined || !reproducible(failure)) continue;
            await fetch(`${target.descriptor.adminUrl}/__admin/reset`, { method: 'POST' });
            reproduced.push({ curl: failure.curl, printed: failure.status, again: await statusOfCurl(failure.curl) });
          }
        } finally {
          await target.close();
        }
      }
      if (strict) byDefault = await suiteAgainst(variant.fake, checks);
    }, 240_000);

    it(`fails with ${variant.caughtBy.join(', ')}${variant.strict ? ' under --strict' : ''} (it breaks: ${variant.breaks})`, () => {
      expect(failedChecks(results)).toEqual(expect.arrayContaining(variant.caughtBy));
    });

    it(`is caught under each of ${SEEDS.length} seeds`, () => {
      for (const seed of SEEDS)
        expect([seed, caughtBySeed.get(seed)]).toEqual([seed, expect.arrayContaining(variant.caughtBy)]);
    });

    it('prints a curl for each failure that, run in bash, gets the answer the suite got', () => {
      expect(reproduced.filter(({ printed, again }) => printed !== again)).toEqual([]);
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
        // Double quotes when the URL carries the key as ${PETSTORE_API_KEY} (a key sent in the query); a
        // HEAD is `curl -I` (with -X HEAD, curl waits for the content a HEAD never has).
        expect(result.failure?.curl).toMatch(/^curl (-X [A-Z]+|-I) (['"])http:\/\/127\.0\.0\.1:\d+\/v1\//);
        expect(result.failure?.curl).not.toContain('free-test-key');
      }
    });
  });
});
