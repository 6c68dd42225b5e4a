import type { CheckResult, SuiteSummary } from '../runner/check-result.js';
import type { TargetDescriptor } from '../targets/target.js';

/** One run of the suite against one target: what reports are written from. Holds no key. */
export interface SuiteReport {
  target: { kind: TargetDescriptor['kind']; label: string; baseUrl: string; capabilities: TargetDescriptor['capabilities'] };
  startedAt: string;
  durationMs: number;
  summary: SuiteSummary;
  exitCode: 0 | 1;
  results: CheckResult[];
}

/**
 * The machine-readable report (`--json`): the whole {@link SuiteReport}, pretty-printed.
 * @example await writeFile('reports/contract.json', jsonReport(report));
 */
export function jsonReport(report: SuiteReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
