import { describe, expect, it } from '@jest/globals';
import { junitReport } from './junit-report.js';
import type { SuiteReport } from './suite-report.js';

const report: SuiteReport = {
  target: { kind: 'url', label: 'https://staging.api.petstore.example.com/v1', baseUrl: 'https://staging.api.petstore.example.com/v1', capabilities: ['stateful'] },
  startedAt: '2026-11-22T12:00:00.000Z',
  durationMs: 1500,
  summary: { passed: 1, failed: 1, skipped: 1 },
  exitCode: 1,
  results: [
    { check: 'list_categories_conforms', verifies: 'v', outcome: 'passed', notes: [], durationMs: 12, requests: 1, observed: [] },
    {
      check: 'invalid_body_rejected',
      verifies: 'bodies <invalid> give 400',
      outcome: 'failed',
      failure: { title: 'Unexpected status (body breaking "x" & y)', lines: ['Received: 201 / Expected: 400'], curl: `curl -X POST 'https://x/v1/categories'` },
      notes: [],
      durationMs: 30,
      requests: 1,
      observed: [],
    },
    { check: 'ban_after_repeated_rejections', verifies: 'v', outcome: 'skipped', reason: 'a live target\'s clock cannot be moved', notes: [], durationMs: 0, requests: 0, observed: [] },
  ],
};

describe('junitReport', () => {
  const xml = junitReport(report);

  it('counts tests, failures and skips on the suite', () => {
    expect(xml).toContain('<testsuite name="petstore contract suite (https://staging.api.petstore.example.com/v1)" tests="3" failures="1" errors="0" skipped="1"');
  });

  it('gives a failure its title as message and the lines and curl as text, escaped', () => {
    expect(xml).toContain('<failure message="Unexpected status (body breaking &quot;x&quot; &amp; y)" type="CheckFailure">bodies &lt;invalid&gt; give 400\nReceived: 201 / Expected: 400\nReproduce with: curl -X POST \'https://x/v1/categories\'</failure>');
  });

  it('gives a skipped check its reason', () => {
    expect(xml).toContain('<testcase classname="contract.url" name="ban_after_repeated_rejections" time="0.000">\n      <skipped message="a live target\'s clock cannot be moved"/>');
  });
});
