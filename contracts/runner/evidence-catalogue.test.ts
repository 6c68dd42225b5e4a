import { describe, expect, it } from '@jest/globals';
import type { CheckResult } from './check-result.js';
import {
  catalogueCounts,
  CONCURRENCY_ENTRIES,
  evidenceAgreementText,
  evidenceCatalogue,
  evidenceSummary,
  evidenceText,
  ruleEntry,
} from './evidence-catalogue.js';

const WRITES = 'not allowed on this target: pass --allow writes to let the suite create categories';
const skipped = (check: string, reason: string): CheckResult => ({
  check: check as CheckResult['check'], // made-up names: a report renders any check
  verifies: '',
  outcome: 'skipped',
  reason,
  notes: [],
  durationMs: 0,
  requests: 0,
  observed: [],
});

describe('what a run tried of the evidence catalogue', () => {
  const catalogue = evidenceCatalogue();

  it('counts apart what the target cannot take, and names each gap with why, loudly', () => {
    const tried = new Set(
      catalogue.filter(({ needs, kind }) => !needs.includes('writes') && kind !== 'rule').map(({ id }) => id),
    );
    const summary = evidenceSummary({
      catalogue,
      tried,
      results: [
        skipped('repeated_members_handled', WRITES),
        skipped('rate_limit_exceeded_answer', 'the request budget is used up (--max-requests 9)'),
      ],
      descriptor: { capabilities: ['stateful', 'exactParameters'], lacking: { writes: WRITES } },
    });
    expect(summary.notApplicable).toEqual(
      expect.arrayContaining([
        { entry: 'createCategory body.name: pattern', why: WRITES },
        { entry: CONCURRENCY_ENTRIES.creates, why: WRITES },
        // Every check the table names for it was skipped for what the target lacks.
        { entry: ruleEntry('repeated_members_handled'), why: WRITES },
      ]),
    );
    expect(summary.notTried).toEqual(
      expect.arrayContaining([
        {
          entry: ruleEntry('retry_after_syntax'),
          why: expect.stringContaining('rate_limit_exceeded_answer (the request budget is used up') as unknown,
        },
      ]),
    );
    expect(summary.complete).toBe(false);
    const [headline] = evidenceText(summary, 'staging');
    expect(headline).toMatch(/^INCOMPLETE EVIDENCE: \d+ of \d+ entries .* tried against staging; .* not tried\./);
  });

  it('is complete when every entry the target can take was tried', () => {
    const summary = evidenceSummary({
      catalogue,
      tried: new Set(catalogue.map(({ id }) => id)),
      results: [],
      descriptor: { capabilities: ['stateful', 'writes', 'exactParameters', 'closedCors'], lacking: {} },
    });
    expect([summary.complete, summary.tried.length, summary.catalogue]).toEqual([
      true,
      catalogue.length,
      catalogue.length,
    ]);
    expect(evidenceText(summary, 'fake')[0]).toBe(
      `Evidence: ${catalogue.length} of ${catalogue.length} entries of the evidence catalogue tried against fake: every entry it can take`,
    );
    expect(evidenceText(summary, 'fake')[1]).toMatch(
      /^ {2}by axis: keyword \d+\/\d+, .*header \d+\/\d+, .*path \d+\/\d+, .*; by source: spec \d+\/\d+, listed \d+\/\d+, grammar \d+\/\d+$/,
    );
  });

  it('counts its entries by axis and by source, and no axis of elements around a request comes from a list alone', () => {
    const { byAxis, bySource } = catalogueCounts(catalogue);
    // The catalogue's size by axis and by source, as the report prints it (npm test shows it on failure).
    expect(Object.values(byAxis).reduce((sum, { catalogue: size }) => sum + size, 0)).toBe(catalogue.length);
    expect(Object.values(bySource).reduce((sum, { catalogue: size }) => sum + size, 0)).toBe(catalogue.length);
    for (const axis of ['header', 'query', 'path', 'framing', 'request-line']) {
      const derived = catalogue.filter((entry) => entry.axis === axis && entry.source !== 'listed');
      expect([axis, derived.length > 0]).toEqual([axis, true]);
    }
    // Each name the spec declares is tried where it does not declare it: petId (a path parameter) in the
    // query and as a header field, name (a body member) in the query, an answer's header on a request.
    expect(catalogue.filter(({ source }) => source === 'spec').map(({ id }) => id)).toEqual(
      expect.arrayContaining([
        'query petId',
        'header petId: 1',
        'query name',
        'header X-RateLimit-Remaining: 59',
        'path /categories: trailing-slash',
        'path /pets/{petId}: percent-encoded-unreserved',
      ]),
    );
    // Every framing of RFC 9112 §6.3 and the hop-by-hop fields, from HTTP's grammar.
    expect(catalogue.filter(({ source }) => source === 'grammar').map(({ id }) => id)).toEqual(
      expect.arrayContaining([
        'framing Content-Length',
        'framing chunked',
        'framing chunked with trailers',
        'framing none',
        'header Connection: keep-alive',
        'header TE: trailers, deflate;q=0.5',
        'header Upgrade: example/1',
      ]),
    );
  });

  it('says whether two targets were held to the same evidence, and where they were not', () => {
    const summary = (tried: string[]) => ({
      catalogue: 3,
      tried,
      notApplicable: [],
      notTried: [],
      complete: true,
      byAxis: {},
      bySource: {},
    });
    expect(
      evidenceAgreementText([
        { label: 'fake', evidence: summary(['a', 'b']) },
        { label: 'staging', evidence: summary(['a', 'b']) },
      ]),
    ).toEqual(['Evidence alike: the same 2 entries of the catalogue tried on every target']);
    expect(
      evidenceAgreementText([
        { label: 'fake', evidence: summary(['a', 'b']) },
        { label: 'staging', evidence: summary(['a']) },
      ]),
    ).toEqual(['Evidence differs: 1 entries tried on some targets only', '  b: tried on fake; not on staging']);
  });
});
