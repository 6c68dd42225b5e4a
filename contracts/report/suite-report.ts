import { findingsByCause } from './findings-by-cause.js';
import type { Coverage } from '../coverage/coverage.js';
import type { CreatedRecord } from '../model/record-ledger.js';
import type { CheckResult, SuiteSummary } from '../runner/check-result.js';
import type { TargetDescriptor } from '../targets/target.js';
import type { Reachability, UnansweredExchange } from '../transport/unanswered.js';
import type { WaitPastBudget, WaitRecord } from '../runner/run-bounds.js';
import type { EvidenceSummary } from '../runner/evidence-catalogue.js';
import type { BaselineVerdict } from './baseline.js';

/** One run of the suite against one target. Holds no key. */
export interface SuiteReport {
  target: {
    kind: TargetDescriptor['kind'];
    label: string;
    baseUrl: string;
    capabilities: TargetDescriptor['capabilities'];
  };
  startedAt: string;
  durationMs: number;
  summary: SuiteSummary;
  /** Generated cases per property against this target. */
  runs: number;
  /** Requests sent to the target, every check and retry included. */
  requests: number;
  coverage: Coverage;
  /** On a target the suite cannot reset: the mark the run's records carry, and every record it created there. */
  created?: { marker: string; records: CreatedRecord[] };
  /** Requests the target did not answer (refused, reset, timed out): how many, and the first in full. */
  unanswered: { count: number; requests: UnansweredExchange[] };
  /** What they decide: exit 2 when the target answered nothing, 1 when it left some unanswered. */
  reachability: Reachability;
  /** Waits the target asked for that the run's whole bound could never hold (each check not completed). */
  waitsPastBudget: WaitPastBudget[];
  /** Every real wait, waited or refused, with when it started. */
  waits: WaitRecord[];
  /** What the run tried of the evidence catalogue, entry by entry: counts, the tried set, and what was not tried and why. */
  evidence?: EvidenceSummary;
  /** The key's per-minute limit, as its answers said (X-RateLimit-Limit), when the run read it. */
  keyLimit?: number;
  /** What the run was asked to do and did not (checks its budget left out, evidence not tried); empty when complete. */
  incomplete: string[];
  exitCode: 0 | 1 | 2;
  results: CheckResult[];
}

/** A check that passed on some targets and failed on others: where a fake and a live service part ways. */
export interface Disagreement {
  check: string;
  passedOn: string[];
  failedOn: Array<{ target: string; title: string }>;
}

/** What one `npm run contract` did: the same checks and seed against every target, and where they differ. */
export interface ContractReport {
  seed: number;
  maxRequests?: number;
  /** `--max-minutes`, when given. */
  maxMinutes?: number;
  minCoverage?: number;
  exitCode: 0 | 1 | 2;
  targets: SuiteReport[];
  disagreements: Disagreement[];
  /** With `--baseline`: the failures it excused, those it did not, its entries that no longer fail or expired. */
  baseline?: BaselineVerdict;
  /** The command line as given, the key's value shown as `***`: what a report's reader needs to run it again. */
  flags?: string[];
  /** The harness's version and the spec's (`info.version`). */
  versions?: { harness: string; spec: string };
}

/**
 * Checks that passed on some targets and failed on others (skips say nothing either way).
 * @example disagreementsOf([fakeReport, stagingReport])
 */
export function disagreementsOf(reports: readonly SuiteReport[]): Disagreement[] {
  const checks = reports[0]?.results.map((result) => result.check) ?? [];
  return checks.flatMap((check) => {
    const outcomes = reports.map((report) => ({
      target: report.target.label,
      result: report.results.find((result) => result.check === check),
    }));
    const passedOn = outcomes.filter(({ result }) => result?.outcome === 'passed').map(({ target }) => target);
    const failedOn = outcomes.flatMap(({ target, result }) =>
      result?.outcome === 'failed' ? [{ target, title: result.failure?.title ?? 'failed' }] : [],
    );
    return passedOn.length > 0 && failedOn.length > 0 ? [{ check, passedOn, failedOn }] : [];
  });
}

/**
 * The machine-readable report (`--json`): the whole {@link ContractReport}, pretty-printed.
 * @example await writeFile('reports/contract.json', jsonReport(report));
 */
export function jsonReport(report: ContractReport): string {
  // Per target, the findings grouped by cause beside each result's own findings (results[].findings).
  const targets = report.targets.map((target) => ({ ...target, causes: findingsByCause(target.results) }));
  return `${JSON.stringify({ ...report, targets }, null, 2)}\n`;
}
