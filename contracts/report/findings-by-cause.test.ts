import { describe, expect, it } from '@jest/globals';
import type { CheckFinding } from '../runner/check-finding.js';
import type { CheckResult } from '../runner/check-result.js';
import { findingsByCause } from './findings-by-cause.js';
import { summaryText } from './terminal-report.js';

const failed = (check: string, findings?: CheckFinding[], failure?: CheckResult['failure']): CheckResult => ({
  check: check as CheckResult['check'], // made-up names: a report renders any check
  verifies: `${check} holds`,
  outcome: 'failed',
  failure: failure ?? { title: findings![0]!.title, lines: findings![0]!.lines },
  ...(findings && { findings }),
  notes: [],
  durationMs: 1,
  requests: 1,
  observed: [],
});

const finding = (
  id: CheckFinding['id'],
  received: string,
  expected: string,
  curl: string,
  status: number,
): CheckFinding => ({
  id,
  kind: 'rule',
  title: `${id}: ${received}`,
  lines: [`Received: ${received} / Expected: ${expected}`],
  curl,
  status,
  count: 1,
});

// The run: a key with a trailing U+00A0 admitted, and a wrong error code for `Bearer: key`, both
// under malformed_credentials_refused; a defect many checks meet; a failure that names no finding.
const ADMITTED = finding(
  'malformed_credentials_refused',
  '200 to Authorization: "Bearer fr...\u00a0"',
  '401 invalid_api_key: it is not Bearer 1*SP b64token',
  `curl -X GET 'http://x/v1/categories' -H 'Authorization: Bearer '"\${PETSTORE_API_KEY}"$'\\xa0'`,
  200,
);
const WRONG_CODE = finding(
  'malformed_credentials_refused',
  'missing_api_key',
  'invalid_api_key',
  `curl -X GET 'http://x/v1/categories' -H "Authorization: Bearer: \${PETSTORE_API_KEY}"`,
  401,
);
const DATE = (path: string) =>
  finding('date_on_answers', 'no Date', 'a Date field', `curl -X GET 'http://x/v1${path}'`, 200);
const RESULTS: CheckResult[] = [
  failed('invalid_api_key_rejected', [ADMITTED, DATE('/categories')]),
  failed('malformed_credentials_refused', [WRONG_CODE]),
  failed('list_orders_conforms', [DATE('/store/orders')]),
  failed('valid_bodies_stored_as_sent', undefined, {
    title: 'Unexpected status (a valid body)',
    lines: ['Received: 400 / Expected: 201'],
    curl: `curl -X POST 'http://x/v1/categories' --data-binary '{"name":"x"}'`,
    status: 400,
  }),
  { ...failed('list_categories_conforms', [DATE('/categories')]), outcome: 'passed', findings: [] },
];

describe('findingsByCause', () => {
  const causes = findingsByCause(RESULTS);

  it('parts two defects of one rule, each with its own first reproduction and status', () => {
    const rule = causes.filter((cause) => cause.id === 'malformed_credentials_refused');
    expect(rule.map(({ what, first }) => [what, first.curl, first.status])).toEqual([
      ['expected 401 invalid_api_key: it is not Bearer 1*SP b64token', ADMITTED.curl, 200],
      ['expected invalid_api_key', WRONG_CODE.curl, 401],
    ]);
  });

  it('keeps one defect that several checks meet as one cause naming each check', () => {
    const date = causes.filter((cause) => cause.id === 'date_on_answers');
    expect(date).toHaveLength(1);
    expect(date[0]!.checks).toEqual(['invalid_api_key_rejected', 'list_orders_conforms']);
  });

  it('puts a failure that names no finding under a cause of its own, with its reproduction', () => {
    const own = causes.find((cause) => cause.unidentified);
    expect(own).toMatchObject({ id: 'valid_bodies_stored_as_sent', checks: ['valid_bodies_stored_as_sent'] });
    expect(own!.first).toMatchObject({ status: 400, curl: expect.stringContaining('curl -X POST') });
  });

  it('accounts for every failed check, in the summary too', () => {
    const failedChecks = RESULTS.filter((result) => result.outcome === 'failed').map((result) => result.check);
    expect(failedChecks.filter((check) => !causes.some((cause) => cause.checks.includes(check)))).toEqual([]);
    const text = summaryText(RESULTS, { passed: 1, failed: 4, skipped: 0 }, 1);
    expect(text).toContain('Findings by cause (4 causes behind 4 failed checks):');
    expect(text).toContain(`    Reproduce with: ${WRONG_CODE.curl}  # answered 401`);
    expect(text).toContain(
      '  valid_bodies_stored_as_sent (a failure without a finding id): expected 201; met by 1 check: valid_bodies_stored_as_sent',
    );
  });
});
