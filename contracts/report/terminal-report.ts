import { findingsByCause, type FindingCause } from './findings-by-cause.js';
import type { CheckResult, SuiteSummary } from '../runner/check-result.js';

const MARK = { passed: 'PASS', failed: 'FAIL', skipped: 'SKIP' } as const;

/**
 * The one line a check gets while the suite runs.
 * @example checkLine(result) // 'PASS  list_categories_conforms  (12 ms)'
 */
export function checkLine(result: CheckResult): string {
  const tail = result.outcome === 'skipped' ? `  skipped: ${result.reason}` : `  (${result.durationMs} ms)`;
  const failure = result.outcome === 'failed' ? `  - ${result.failure?.title}` : '';
  return `${MARK[result.outcome]}  ${result.check}${failure}${tail}`;
}

/**
 * A failure as a person reads it: what the check verifies, what went wrong, Received/Expected, and the
 * request as `curl`, last.
 */
export function failureBlock(result: CheckResult, index?: number): string {
  const failure = result.failure;
  if (!failure) return '';
  const heading = `${index === undefined ? '' : `${index}) `}${result.check}: ${result.verifies}`;
  // The first finding's reproduction goes under its own lines, before the other findings (each with its own).
  const own = result.findings && result.findings.length > 1 ? result.findings[0]!.lines.length : failure.lines.length;
  const reproduce = failure.curl ? ['', `Reproduce with: ${failure.curl}`] : [];
  const body = [...failure.lines.slice(0, own), ...reproduce, ...failure.lines.slice(own)];
  return [heading, `   - ${failure.title}`, ...body.map((line) => (line === '' ? '' : `     ${line}`))].join('\n');
}

/** The closing lines: the findings grouped by cause, every failure in full, then the counts. */
export function summaryText(results: readonly CheckResult[], summary: SuiteSummary, seconds: number): string {
  const failures = results.filter((result) => result.outcome === 'failed');
  const blocks = failures.map((result, index) => failureBlock(result, index + 1));
  const counts = `${summary.passed} passed, ${summary.failed} failed, ${summary.skipped} skipped in ${seconds.toFixed(1)} s`;
  const causes = findingsByCause(results);
  // Every failed check is under a cause; the list says something the failures below do not once there
  // is more than one of either (several checks behind one defect, several defects behind one check).
  const grouped =
    causes.length > 1 || failures.length > 1
      ? [
          '',
          `Findings by cause (${causes.length} cause${causes.length === 1 ? '' : 's'} behind ${failures.length} failed check${failures.length === 1 ? '' : 's'}):`,
          ...causes.map(causeLine),
        ]
      : [];
  return [...grouped, ...(blocks.length > 0 ? ['', 'Failures:', '', blocks.join('\n\n')] : []), '', counts].join('\n');
}

/** One cause, once: what broke and what went wrong, every check that met it, and its own first reproduction. */
function causeLine({ id, kind, what, checks, first, unidentified }: FindingCause): string {
  const broke = unidentified ? `${id} (a failure without a finding id)` : `${id} (${kind})`;
  return [
    `  ${broke}: ${what}; met by ${checks.length} check${checks.length === 1 ? '' : 's'}: ${checks.join(', ')}`,
    `    first: ${first.title}${first.operation ? ` (${first.operation})` : ''}`,
    ...(first.curl
      ? [`    Reproduce with: ${first.curl}${first.status === undefined ? '' : `  # answered ${first.status}`}`]
      : []),
  ].join('\n');
}

/**
 * What a run left on a target it cannot reset, so a team can find it and clean it: how many records of
 * each write, their ids, and the mark each carries.
 * @example createdText({ marker: 'ct5-', records }) // 'Created on the target: 3 by createCategory (ids 41, 42, 43), each marked ct5- ...'
 */
export function createdText(created: {
  marker: string;
  records: ReadonlyArray<{ operationId: string; record: Record<string, unknown> }>;
}): string {
  if (created.records.length === 0)
    return `Created on the target: nothing (records this run creates carry the mark ${created.marker})`;
  const byOperation = new Map<string, unknown[]>();
  for (const { operationId, record } of created.records)
    byOperation.set(operationId, [...(byOperation.get(operationId) ?? []), record.id]);
  const parts = [...byOperation].map(
    ([operationId, ids]) => `${ids.length} by ${operationId} (ids ${ids.map(String).join(', ')})`,
  );
  return `Created on the target: ${parts.join('; ')}; each carries the mark ${created.marker} at the start of a text field (the list is in --json)`;
}
