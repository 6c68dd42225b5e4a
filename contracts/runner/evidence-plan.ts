import type { Check } from '../checks/check.js';
import { RULES } from '../rules/rule-table.js';
import { startFakeTarget } from '../targets/fake-target.js';
import { skipReason, type TargetDescriptor } from '../targets/target.js';
import { evidenceCatalogue, type EvidencePlan } from './evidence-catalogue.js';
import { runCheckInPhase, sessionOf } from './run-check.js';
import { WINDOW_DRIVING_CHECKS } from './run-cost.js';
import { suiteSettings, type SuiteSettings } from './suite-settings.js';

/** What a rehearsal measured of one check: the entries its fixed cases tried, and the requests they took. */
export interface Rehearsed {
  check: string;
  requests: number;
  tried: ReadonlySet<string>;
  /** The documented answers (operation x status x header) its requests reached. */
  observed?: ReadonlySet<string>;
  /** Records its requests created. */
  records?: number;
}

/** The checks that reach the most of `what` not yet `covered` per request, one after the other, until none adds any. */
function cheapestCover(
  rehearsed: readonly Rehearsed[],
  what: (rehearsal: Rehearsed) => ReadonlySet<string>,
  covered: Set<string> = new Set(),
): string[] {
  const order: string[] = [];
  for (;;) {
    let best: { rehearsal: Rehearsed; gain: number } | undefined;
    for (const rehearsal of rehearsed) {
      if (order.includes(rehearsal.check)) continue;
      const fresh = [...what(rehearsal)].filter((entry) => !covered.has(entry)).length;
      const gain = fresh / Math.max(1, rehearsal.requests);
      if (fresh > 0 && (!best || gain > best.gain)) best = { rehearsal, gain };
    }
    if (!best) return order;
    order.push(best.rehearsal.check);
    for (const entry of what(best.rehearsal)) covered.add(entry);
  }
}

/**
 * The fewest requests that try every entry the rehearsed checks tried (greedy set cover: the check
 * with the most untried entries per request, again and again), plus, for each rule of the table, one
 * of the checks it names if none is chosen yet (a check that drives a window is not rehearsed: it
 * costs a window, and counts as the dearest).
 * @example chooseEvidenceChecks([{ check: 'a', requests: 9, tried: new Set(['x', 'y']) }, { check: 'b', requests: 1, tried: new Set(['x']) }], []) // Set { 'b', 'a' }
 */
export function chooseEvidenceChecks(rehearsed: readonly Rehearsed[], unrehearsed: readonly string[]): Set<string> {
  const chosen = new Set(cheapestCover(rehearsed, ({ tried }) => tried));
  // A rule is put to the test by a check the table names for it, not by whatever answer happened to
  // apply it in the rehearsal (a 429 a fake scenario provoked): one of them runs, the cheapest.
  const cost = (check: string) => rehearsed.find((candidate) => candidate.check === check)?.requests ?? Infinity;
  for (const { checks } of Object.values(RULES)) {
    const named = (checks as readonly string[]).filter(
      (check) => unrehearsed.includes(check) || rehearsed.some((candidate) => candidate.check === check),
    );
    if (named.length === 0 || named.some((check) => chosen.has(check))) continue;
    chosen.add(named.reduce((cheapest, check) => (cost(check) < cost(cheapest) ? check : cheapest)));
  }
  return chosen;
}

/**
 * Plans a budgeted run before its first request: each check the target can run is rehearsed with its
 * fixed cases against a fake started in this process (a second or two, no request to the target), and
 * the cheapest set of checks that tries every entry the rehearsal reached runs first. What a check
 * tries is read from its requests, so the plan follows the spec and the checks with no list to keep.
 */
export async function planEvidence(
  checks: readonly Check[],
  descriptor: Pick<TargetDescriptor, 'capabilities' | 'lacking'>,
  settings: SuiteSettings,
): Promise<EvidencePlan> {
  const runnable = checks.filter((check) => skipReason(check.needs, descriptor) === undefined);
  const catalogue = new Set(evidenceCatalogue().map(({ id }) => id));
  const stage = await startFakeTarget();
  const rehearsed: Rehearsed[] = [];
  try {
    const rehearsal = suiteSettings({
      live: false,
      seed: settings.seed,
      runs: settings.runs,
      ...(settings.maxConcurrency !== undefined && { maxConcurrency: settings.maxConcurrency }),
    });
    for (const check of runnable) {
      const { result, tried } = await runCheckInPhase(check, stage.descriptor, { settings: rehearsal }, 'evidence');
      rehearsed.push({
        check: check.name,
        requests: result.requests,
        tried: new Set(tried.filter((entry) => catalogue.has(entry))),
        observed: new Set(result.observed),
        // The stage is reset before each check: what its model holds is what this check created.
        records: sessionOf(stage.descriptor).model.created().length,
      });
    }
  } finally {
    await stage.close();
  }
  // A window-driving check is cheap on the fake (its scenario sets the window) and costs a whole window
  // on a URL: it runs first only for a rule no other check holds.
  const windowDriving = (name: string) => WINDOW_DRIVING_CHECKS.has(name);
  const evidence = chooseEvidenceChecks(
    rehearsed.filter(({ check }) => !windowDriving(check)),
    runnable.filter(({ name }) => windowDriving(name)).map(({ name }) => name),
  );
  const chosen = rehearsed.filter(({ check }) => evidence.has(check));
  // Then the checks that reach documented answers the first do not (a 429 of each operation), most
  // per request first; then the rest, which only repeat, in the registry's order.
  const answers = cheapestCover(
    rehearsed.filter(({ check }) => !evidence.has(check)),
    ({ observed }) => observed ?? new Set(),
    new Set(chosen.flatMap(({ observed }) => [...(observed ?? [])])),
  );
  const order = [
    ...runnable.filter(({ name }) => evidence.has(name)).map(({ name }) => name),
    ...answers,
    ...checks.map(({ name }) => name).filter((name) => !evidence.has(name) && !answers.includes(name)),
  ];
  const triedBy = new Map<string, string[]>();
  for (const { check, tried } of rehearsed)
    for (const entry of tried) triedBy.set(entry, [...(triedBy.get(entry) ?? []), check]);
  return {
    evidence,
    order,
    newAnswers: answers.length,
    requests: chosen.reduce((sum, { requests }) => sum + requests, 0),
    entries: triedBy.size,
    triedBy,
    rehearsal: order.flatMap((check) => {
      const rehearsal = rehearsed.find((candidate) => candidate.check === check);
      return rehearsal ? [{ check, requests: rehearsal.requests, records: rehearsal.records ?? 0 }] : [];
    }),
  };
}
