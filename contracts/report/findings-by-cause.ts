import type { CheckFinding } from '../runner/check-finding.js';
import type { CheckResult } from '../runner/check-result.js';

/** One cause of a run's failures: a promise, rule or check by id, every check that met it, and its first finding. */
export interface FindingCause {
  id: string;
  kind: CheckFinding['kind'];
  checks: string[];
  first: CheckFinding;
}

/**
 * The run's findings grouped by what broke (its id), in the order first met: one service defect that
 * many checks meet (a promise every exchange is held to) shows once, with every check named under it.
 * @example findingsByCause(results)[0] // { id: 'charged_once_per_admitted_request', checks: [...15 names], first }
 */
export function findingsByCause(results: readonly CheckResult[]): FindingCause[] {
  const causes = new Map<string, FindingCause>();
  for (const { check, findings = [] } of results)
    for (const finding of findings) {
      const cause = causes.get(finding.id);
      if (!cause) causes.set(finding.id, { id: finding.id, kind: finding.kind, checks: [check], first: finding });
      else if (!cause.checks.includes(check)) cause.checks.push(check);
    }
  return [...causes.values()];
}
