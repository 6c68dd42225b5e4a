import type { CheckName } from '../core/contract-ids.js';
import type { CheckFinding } from './check-finding.js';

/** What one check concluded against one target: a typed value that reports are built from. */
export interface CheckResult {
  check: CheckName;
  verifies: string;
  outcome: 'passed' | 'failed' | 'skipped';
  /** Why the check did not run (skipped only). */
  reason?: string;
  failure?: {
    title: string;
    lines: string[];
    /** The request that showed the failure, as `curl`, key redacted. */
    curl?: string;
    /** The status that request was answered with: what running the `curl` must show again. */
    status?: number;
  };
  /** Every distinct thing the check found broken (failed only), as data: `failure` is its first, rendered. */
  findings?: CheckFinding[];
  /** SHOULDs of the rule table the target broke (a failure with --strict), one line each: `rule: title; Received ...`. */
  warnings?: string[];
  /** Things the person watching should know, e.g. waits for Retry-After. */
  notes: string[];
  durationMs: number;
  /** Requests the check sent (retries after a 429 included). */
  requests: number;
  /** Coverage items its answers exercised (`getPetById 404 Deprecation`); see coverage/coverage.ts. */
  observed: string[];
}

/** Counts of a run, for summaries and exit codes. */
export interface SuiteSummary {
  passed: number;
  failed: number;
  skipped: number;
}

/** Tallies results by outcome. */
export function summarise(results: readonly CheckResult[]): SuiteSummary {
  return {
    passed: results.filter((result) => result.outcome === 'passed').length,
    failed: results.filter((result) => result.outcome === 'failed').length,
    skipped: results.filter((result) => result.outcome === 'skipped').length,
  };
}
