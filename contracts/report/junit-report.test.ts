import { describe, expect, it } from '@jest/globals';
import { coverageOf } from '../coverage/coverage.js';
import { junitReport } from './junit-report.js';
import type { ContractReport, SuiteReport } from './suite-report.js';

const staging: SuiteReport = {
  target: {
    kind: 'url',
    label: 'https://staging.api.petstore.example.com/v1',
    baseUrl: 'https://staging.api.petstore.example.com/v1',
    capabilities: ['stateful'],
  },
  startedAt: '2026-11-22T12:00:00.000Z',
  durationMs: 1500,
  summary: { passed: 1, failed: 1, skipped: 1 },
  incomplete: [],
  runs: 20,
  requests: 7,
  coverage: coverageOf(['listCategories 200', 'listCategories 200 X-RateLimit-Limit']),
  unanswered: { count: 0, requests: [] },
  reachability: { exitCode: 0 },
  waitsPastBudget: [],
  waits: [],
  exitCode: 1,
  results: [
    {
      check: 'list_categories_conforms',
      verifies: 'v',
      outcome: 'passed',
      notes: [],
      durationMs: 12,
      requests: 1,
      observed: [],
    },
    {
      check: 'invalid_body_rejected',
      verifies: 'bodies <invalid> give 400',
      outcome: 'failed',
      failure: {
        title: 'Unexpected status (body breaking "x" & y)',
        lines: ['Received: 201 / Expected: 400'],
        curl: `curl -X POST 'https://x/v1/categories'`,
      },
      notes: [],
      durationMs: 30,
      requests: 1,
      observed: [],
    },
    {
      check: 'ban_after_repeated_rejections',
      verifies: 'v',
      outcome: 'skipped',
      reason: "a live target's clock cannot be moved",
      notes: [],
      durationMs: 0,
      requests: 0,
      observed: [],
    },
  ],
};
const fake: SuiteReport = {
  ...staging,
  target: { ...staging.target, kind: 'fake', label: 'fake' },
  summary: { passed: 3, failed: 0, skipped: 0 },
  exitCode: 0,
  results: [],
};
const run: ContractReport = { seed: 42, exitCode: 1, targets: [staging, fake], disagreements: [] };

describe('junitReport', () => {
  const xml = junitReport(run);

  it('has one testsuite per target, counting tests, failures and skips', () => {
    expect(xml).toContain(
      '<testsuite name="petstore contract suite (https://staging.api.petstore.example.com/v1)" tests="4" failures="1" errors="0" skipped="1"',
    );
    expect(xml).toContain('<testsuite name="petstore contract suite (fake)" tests="4" failures="0"');
    expect(xml).toContain('<testsuites name="petstore contract suite" tests="8" failures="1" skipped="1"');
  });

  it('gives a failure its title as message and the lines and curl as text, escaped', () => {
    expect(xml).toContain(
      '<failure message="Unexpected status (body breaking &quot;x&quot; &amp; y)" type="CheckFailure">bodies &lt;invalid&gt; give 400\nReceived: 201 / Expected: 400\nReproduce with: curl -X POST \'https://x/v1/categories\'</failure>',
    );
  });

  it('fails target_answered with the requests that got no answer, and passes it when every one did', () => {
    expect(xml).toContain('<testcase classname="contract.url" name="target_answered" time="0"></testcase>');
    const unanswered: SuiteReport = {
      ...staging,
      unanswered: {
        count: 2,
        requests: [
          { request: 'GET /categories', why: 'ECONNREFUSED', at: '2026-11-22T12:00:01.000Z' },
          { request: 'POST /categories', why: 'ECONNRESET', at: '2026-11-22T12:00:02.000Z' },
        ],
      },
      reachability: { exitCode: 1, verdict: '2 of 7 requests got no answer from the target (exit 1)' },
    };
    const failed = junitReport({ ...run, targets: [unanswered] });
    expect(failed).toContain(
      '<failure message="2 of 7 requests got no answer from the target (exit 1)" type="Unanswered">2 of 7 requests got no answer from the target (exit 1)\nGET /categories: ECONNREFUSED (2026-11-22T12:00:01.000Z)\nPOST /categories: ECONNRESET',
    );
    expect(failed).toContain('tests="4" failures="2" skipped="1"');
  });

  it('gives a skipped check its reason', () => {
    expect(xml).toContain(
      '<testcase classname="contract.url" name="ban_after_repeated_rejections" time="0.000">\n      <skipped message="a live target\'s clock cannot be moved"/>',
    );
  });

  it('carries the seed, the requests sent and every coverage item as properties', () => {
    expect(xml).toContain('<property name="seed" value="42"/>');
    expect(xml).toContain('<property name="requests" value="7"/>');
    expect(xml).toContain(`<property name="coverage.percent" value="${staging.coverage.percent.toFixed(1)}"/>`);
    expect(xml).toContain('<property name="coverage.listCategories 200 X-RateLimit-Limit" value="exercised"/>');
    expect(xml).toContain('<property name="coverage.listOrders 429" value="not exercised"/>');
  });

  it('shows warnings as a skipped `<check> warnings` case and counts them, a warning only noted included once', () => {
    const judged =
      "server_version_hidden: GET answered 200: names its version; Received: server: nginx/1.25.3 / Expected: no version; curl -X GET 'https://x/v1/categories'";
    const warned: SuiteReport = {
      ...staging,
      results: [
        {
          ...staging.results[0]!,
          warnings: [judged],
          // The model notes the warning it keeps (the same one, without its curl); a parser's refusal is only noted.
          notes: [
            'warning server_version_hidden: GET answered 200: names its version; Received: server: nginx/1.25.3 / Expected: no version',
            'warning method_case_kept: get /categories refused by the parser; Received: 400 / Expected: 404 or 405',
            'waited 2 s for Retry-After',
          ],
        },
        ...staging.results.slice(1),
      ],
    };
    const text = junitReport({ ...run, targets: [warned] });
    expect(text).toContain(
      '<testcase classname="contract.url" name="list_categories_conforms warnings" time="0">\n      <skipped message="2 warnings (a SHOULD the target broke; --strict makes it a failure): server_version_hidden: GET answered 200',
    );
    expect(text).toContain(
      "curl -X GET 'https://x/v1/categories'\nmethod_case_kept: get /categories refused by the parser",
    );
    expect(text).toContain('<property name="warnings" value="2"/>');
    expect(text).toContain('tests="5" failures="1" errors="0" skipped="2"');
  });
});
