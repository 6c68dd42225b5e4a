import type { Check } from '../checks/check.js';
import type { TargetDescriptor } from '../targets/target.js';
import type { CheckResult } from './check-result.js';
import { planEvidence } from './evidence-plan.js';
import { INTERRUPTED } from './run-bounds.js';
import { runCheckInPhase, sessionOf, type RunCheckOptions } from './run-check.js';
import type { SuiteSettings } from './suite-settings.js';

/** Options of {@link runChecks}: {@link RunCheckOptions} for every check, told which check speaks. */
export interface RunChecksOptions {
  /** Seed, runs and request budget of the run. */
  settings?: SuiteSettings;
  /** Called with each note a check prints while it runs (a wait, a retry), and the check's name. */
  onNote?: (check: string, message: string) => void;
  /** Called with each result as soon as its check ends (its evidence in), and again if its repetition failed it. */
  onResult?: (result: CheckResult) => void;
  /** Called once a budgeted run has planned its evidence, before its first request. */
  onPlan?: (message: string) => void;
}

/** A check the signal stopped before it began: reported as not run, so the reports are still written. */
const notRun = (check: Check): CheckResult => ({
  check: check.name,
  verifies: check.verifies,
  outcome: 'skipped',
  reason: `${INTERRUPTED}: the run was stopped before this check`,
  notes: [],
  durationMs: 0,
  requests: 0,
  observed: [],
});

/** A check's result after its repetition: one result, the requests of both, failed if the repetition failed. */
function withRepetition(evidence: CheckResult, repetition: CheckResult): CheckResult {
  const warnings = [...(evidence.warnings ?? []), ...(repetition.warnings ?? [])];
  const merged: CheckResult = {
    ...evidence,
    notes: [...evidence.notes, ...repetition.notes],
    durationMs: evidence.durationMs + repetition.durationMs,
    requests: evidence.requests + repetition.requests,
    observed: [...new Set([...evidence.observed, ...repetition.observed])].sort(),
    ...(warnings.length > 0 && { warnings }),
  };
  // The repetition's failure with its own findings: the evidence run's (none, or other ones) would file
  // this failure under no cause, or under another's.
  if (repetition.outcome === 'failed')
    return {
      ...merged,
      outcome: 'failed',
      failure: repetition.failure!,
      ...(repetition.findings ? { findings: repetition.findings } : { findings: undefined }),
    };
  // A budget that ran out while repeating drops repetition, never the evidence the check already holds.
  if (repetition.outcome === 'skipped') merged.notes.push(`repetition stopped: ${repetition.reason}`);
  return merged;
}

/**
 * Runs checks one after another (they share the key's quota, so never in parallel); results come back
 * in the order given. Under a budget (`maxRequests`, `maxMinutes`) evidence comes first: the checks
 * that together try every entry of the evidence catalogue (`planEvidence` rehearses them) run with their fixed
 * cases only, then the checks that only repeat the catalogue, then, with what is left, the checks
 * that draw generated cases run again to draw them. A budget used up late drops repetition, never an
 * untried entry.
 * @example const results = await runChecks(CHECKS, target.descriptor, { onResult: print });
 */
export async function runChecks(
  checks: readonly Check[],
  descriptor: TargetDescriptor,
  options: RunChecksOptions = {},
): Promise<CheckResult[]> {
  const { settings, onNote, onResult } = options;
  const budgeted = settings !== undefined && (settings.maxRequests !== undefined || settings.maxMinutes !== undefined);
  const optionsOf = (check: Check): RunCheckOptions => ({
    ...(settings && { settings }),
    ...(onNote && { onNote: (message: string) => onNote(check.name, message) }),
  });
  const order = checks.map((_, index) => index);
  if (budgeted) {
    const plan = await planEvidence(checks, descriptor, settings);
    sessionOf(descriptor, settings).evidencePlan = plan;
    const position = new Map(plan.order.map((name, index) => [name, index]));
    order.sort((a, b) => position.get(checks[a]!.name)! - position.get(checks[b]!.name)!);
    options.onPlan?.(
      `Evidence first: ${plan.evidence.size} checks try the ${plan.entries} entries of the evidence catalogue a rehearsal on an in-process fake reached (${plan.requests} requests there); the other ${checks.length - plan.evidence.size} only repeat them and come after (the ${plan.newAnswers} that reach documented answers the first do not, first), then generated cases with what is left`,
    );
  }
  const results: CheckResult[] = Array.from({ length: checks.length });
  const repeating: number[] = [];
  for (const index of order) {
    const check = checks[index]!;
    if (settings?.signal?.aborted) {
      results[index] = notRun(check);
      onResult?.(results[index]);
      continue;
    }
    const { result, repeats } = await runCheckInPhase(
      check,
      descriptor,
      optionsOf(check),
      budgeted ? 'evidence' : undefined,
    );
    if (budgeted && repeats && result.outcome === 'passed') repeating.push(index);
    results[index] = result;
    onResult?.(result);
  }
  for (const index of repeating.sort((a, b) => a - b)) {
    if (settings?.signal?.aborted) break;
    const check = checks[index]!;
    const { result } = await runCheckInPhase(check, descriptor, optionsOf(check), 'repetition');
    results[index] = withRepetition(results[index]!, result);
    if (result.outcome === 'failed') onResult?.(results[index]);
    else
      onNote?.(
        check.name,
        result.outcome === 'passed'
          ? `repetition: ${result.requests} more requests, nothing broken`
          : `repetition stopped: ${result.reason}`,
      );
  }
  return results;
}
