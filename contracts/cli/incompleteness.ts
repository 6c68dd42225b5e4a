import type { CheckResult } from '../runner/check-result.js';
import type { EvidenceSummary } from '../runner/evidence-catalogue.js';
import { BUDGET_USED_UP, LEFT_OUT, NOT_COMPLETED, REFUSED_UP_FRONT } from '../runner/run-bounds.js';

/**
 * What a run did not do that it was asked to: checks its budget left out or refused (--max-minutes,
 * --max-requests), checks stopped midway (not completed), and evidence of the catalogue not tried. A target's nature (no clock to move on a
 * URL, writes not allowed) is not incompleteness: those skips say why in their own lines.
 */
export function incompleteness(results: readonly CheckResult[], evidence: EvidenceSummary): string[] {
  const skippedFor = (starts: readonly string[]) =>
    results.filter(({ outcome, reason }) => outcome === 'skipped' && starts.some((start) => reason?.startsWith(start)));
  const leftOut = skippedFor([LEFT_OUT, REFUSED_UP_FRONT, BUDGET_USED_UP]);
  // Stopped midway: interrupted, a wait no run can hold, the key's quota used up, the target silent.
  const notCompleted = skippedFor([NOT_COMPLETED]);
  const named = (list: readonly CheckResult[]) => list.map(({ check }) => check).join(', ');
  return [
    ...(leftOut.length > 0 ? [`${leftOut.length} checks left out by the budget (${named(leftOut)})`] : []),
    ...(notCompleted.length > 0 ? [`${notCompleted.length} checks not completed (${named(notCompleted)})`] : []),
    ...(evidence.notTried.length > 0 ? [`${evidence.notTried.length} evidence entries not tried`] : []),
  ];
}

/**
 * The run's last line when it did less than asked on any target (undefined when it did all): what was
 * left out, and whether that fails the run.
 * @example incompleteLine(reports, false) // 'INCOMPLETE: http://…/v1: 15 checks left out by the budget (…) (--require-complete makes this exit 1)'
 */
export function incompleteLine(
  reports: ReadonlyArray<{ target: { label: string }; incomplete: readonly string[] }>,
  requireComplete: boolean,
): string | undefined {
  const incomplete = reports.filter((run) => run.incomplete.length > 0);
  if (incomplete.length === 0) return undefined;
  const what = incomplete.map(({ target, incomplete: left }) => `${target.label}: ${left.join('; ')}`).join(' | ');
  return `INCOMPLETE: ${what}${requireComplete ? ' (exit 1: --require-complete)' : ' (--require-complete makes this exit 1)'}`;
}
