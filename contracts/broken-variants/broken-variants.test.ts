import { beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { CHECKS, checkNamed } from '../checks/registry.js';
import type { Check, ContractId } from '../checks/check.js';
import { PROMISE_NAMES, PROMISES } from '../model/promise-rules.js';
import { RULE_NAMES, RULES } from '../rules/rule-table.js';
import type { CheckFinding } from '../runner/check-finding.js';
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
 * Checks and rules whose break the fake's seam cannot express, because the fake's HTTP server handles the
 * connection before any override sees a request (two Host or Authorization fields, which it joins;
 * pipelining, persistence, trailers), frames every answer (Content-Length; no content after HEAD) or sets
 * the fields after the overrides (Content-Type, the CORS fields): a front in front of the fake breaks
 * each in the named test, which asserts the finding of that id.
 */
const CAUGHT_BEHIND_A_FRONT = new Map<ContractId, { test: string; title: string }>([
  [
    'host_field_required_once',
    {
      test: '../checks/connection-checks.test.ts',
      title: 'fails the fake behind a gateway that passes such a request on with one Host',
    },
  ],
  [
    'pipelined_answers_in_order',
    {
      test: '../checks/connection-checks.test.ts',
      title: 'fails a front that answers pipelined requests out of order',
    },
  ],
  [
    'connections_persist',
    {
      test: '../checks/connection-checks.test.ts',
      title: 'warns of a front that closes after every answer without saying close, and fails it under --strict',
    },
  ],
  ...(['content_type_on_content', 'cors_exposes_the_spec_headers'] as const).map(
    (rule) => [rule, { test: './behind-a-front.test.ts', title: 'the fake behind a front that breaks %s' }] as const,
  ),
  ...(['repeated_credentials_refused', 'content_length_matches', 'no_content_where_none_can_be'] as const).map(
    (rule) =>
      [rule, { test: './behind-a-front.test.ts', title: 'the fake behind a raw front that breaks %s' }] as const,
  ),
  [
    'trailers_change_no_header',
    {
      test: '../checks/framing-checks.test.ts',
      title: 'fails a front that merges a trailer section into the header section (%s), under each of five seeds',
    },
  ],
]);

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

/** What an id names: a promise, a rule, or a check's own expectation (four rules share a check's name: the rule wins). */
const kindOfId = (id: ContractId): CheckFinding['kind'] =>
  id in PROMISES ? 'promise' : id in RULES ? 'rule' : 'check';

/** The findings of a run that name what the variant breaks, of its kind: the proof it was caught for that. */
const findingsOfItsBreak = (results: CheckResult[], variant: { breaks: ContractId }) =>
  results
    .flatMap((result) => result.findings ?? [])
    .filter(({ id, kind }) => id === variant.breaks && kind === kindOfId(variant.breaks))
    .map(({ id, kind }) => `${kind} ${id}`);

/**
 * Rules no run can show failing: a MAY (a leniency a requirement permits) only ever warns, so no finding
 * names it; the report lists it among the warnings.
 */
const ONLY_EVER_WARNED = new Set(RULE_NAMES.filter((rule) => RULES[rule].strength === 'MAY'));

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

  it('sees every rule of the table and every promise of the model broken by a variant (one never seen failing is a defect)', () => {
    const broken = new Set<string>([
      ...BROKEN_VARIANTS.map((variant) => variant.breaks),
      ...CAUGHT_BEHIND_A_FRONT.keys(),
      ...ONLY_EVER_WARNED,
    ]);
    expect([...RULE_NAMES, ...PROMISE_NAMES].filter((id) => !broken.has(id))).toEqual([]);
  });

  it('finds each check or rule a variant of the fake cannot break failing in the test that breaks it behind a front', () => {
    for (const [id, { test, title }] of CAUGHT_BEHIND_A_FRONT) {
      const source = readFileSync(new URL(test, import.meta.url), 'utf8');
      expect([id, source.includes(title), source.includes(`'${id}'`)]).toEqual([id, true, true]);
    }
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
    const itsBreakBySeed = new Map<number, string[]>();
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
          itsBreakBySeed.set(seed, findingsOfItsBreak(run, variant));
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

    it(`fails with ${variant.caughtBy.join(', ')}${variant.strict ? ' under --strict' : ''} (it ${variant.does})`, () => {
      expect(failedChecks(results)).toEqual(expect.arrayContaining(variant.caughtBy));
    });

    const itsBreak = `${kindOfId(variant.breaks)} ${variant.breaks}`;
    it(`reports a finding of ${itsBreak}, the one thing it breaks`, () => {
      expect(findingsOfItsBreak(results, variant)).toContain(itsBreak);
    });

    it(`is caught under each of ${SEEDS.length} seeds, with a finding of what it breaks`, () => {
      for (const seed of SEEDS) {
        expect([seed, caughtBySeed.get(seed)]).toEqual([seed, expect.arrayContaining(variant.caughtBy)]);
        expect([seed, itsBreakBySeed.get(seed)]).toEqual([seed, expect.arrayContaining([itsBreak])]);
      }
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
