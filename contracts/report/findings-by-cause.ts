import type { CheckFinding } from '../runner/check-finding.js';
import type { CheckResult } from '../runner/check-result.js';

/**
 * One cause of a run's failures: what broke (a promise, rule or check, by id) and what went wrong (the
 * expectation the answer missed), every failed check that met it, and its own first reproduction.
 */
export interface FindingCause {
  id: string;
  kind: CheckFinding['kind'];
  /** What went wrong: `expected` and the `Expected:` of the first finding's `Received: ... / Expected: ...` line, else its title. */
  what: string;
  checks: string[];
  first: CheckFinding;
  /** A failed check that named no finding: its failure is the cause, under the check's name. */
  unidentified?: true;
}

// Lines are schemathesis-style (checks/check.ts): what came, then what the spec or rule wanted.
const RECEIVED_EXPECTED = /^Received: .* \/ Expected: (.+)$/;

/**
 * What went wrong in a finding, as the side of it that does not depend on the answer: the expectation
 * it missed. A key admitted (`Expected: 401 invalid_api_key...`) and a wrong error code (`Expected:
 * invalid_api_key`) of one rule are two causes; one defect met on many answers (every answer's
 * Content-Type sent twice) is one.
 */
function whatWentWrong(finding: Pick<CheckFinding, 'title' | 'lines'>): string {
  for (const line of finding.lines) {
    const expected = RECEIVED_EXPECTED.exec(line)?.[1];
    if (expected !== undefined) return `expected ${expected}`;
  }
  return finding.title;
}

/** A failure that carries no finding (a check that could not complete, a repetition's failure), as one. */
function findingOfFailure(result: CheckResult): CheckFinding {
  const failure = result.failure ?? { title: 'failed', lines: [] };
  return {
    id: result.check,
    kind: 'check',
    title: failure.title,
    lines: failure.lines,
    ...(failure.curl !== undefined && { curl: failure.curl }),
    ...(failure.status !== undefined && { status: failure.status }),
    count: 1,
  };
}

/**
 * Every failed check under a cause, in the order first met: one service defect that many checks meet (a
 * promise every exchange is held to) shows once with every check named under it, two defects of one
 * rule show apart, each with its own first reproduction, and a failure without a finding id is a cause
 * of its own.
 * @example findingsByCause(results)[0] // { id: 'charged_once_per_admitted_request', what: '...', checks: [...15 names], first }
 */
export function findingsByCause(results: readonly CheckResult[]): FindingCause[] {
  const causes = new Map<string, FindingCause>();
  for (const result of results) {
    if (result.outcome !== 'failed') continue;
    const found = result.findings ?? [];
    const unidentified = found.length === 0;
    for (const finding of unidentified ? [findingOfFailure(result)] : found) {
      const what = whatWentWrong(finding);
      const key = JSON.stringify([unidentified ? result.check : '', finding.id, finding.kind, what]);
      const cause = causes.get(key);
      if (!cause)
        causes.set(key, {
          id: finding.id,
          kind: finding.kind,
          what,
          checks: [result.check],
          first: finding,
          ...(unidentified && { unidentified: true as const }),
        });
      else if (!cause.checks.includes(result.check)) cause.checks.push(result.check);
    }
  }
  return [...causes.values()];
}
