import fc from 'fast-check';
import { CheckFailure, isCheckFailure, isSkip, type CheckContext } from './check.js';
import { evidenceFacets } from '../generate/evidence.js';
import { caseSize, shrinkValue } from '../generate/shrink-value.js';
import type { BrokenPromise } from '../model/broken-promise.js';
import type { Exchange } from '../core/exchange.js';
import { QUOTA_PROMISES } from '../model/quota-model.js';

/**
 * Requests a failing property may spend looking for a smaller counterexample, against the target; past
 * it, the smallest found so far is reported (and the report says the budget ran out).
 */
export const SHRINK_REQUESTS = 150;

/** The exchanges of smallest cases a property shrank to: the runner's shrink of model findings (runner/shrink-findings.ts) leaves their findings. */
export const smallestExchanges = new WeakSet<Exchange>();

/**
 * Which of a property's cases a run sends now. A run with a budget tries its evidence first: every
 * check with only its fixed cases (`evidence`: the boundaries, one case of each kind), then, with what
 * is left, the generated ones (`repetition`); without a phase a property sends both at once.
 */
export type PropertyPhase = 'evidence' | 'repetition';

/** A check's context as a run with phases hands it over (contracts/runner/run-check.ts). */
export interface PropertyContext extends CheckContext {
  phase?: PropertyPhase;
  /** Requests the check has sent so far: what a shrink spends is counted in requests. */
  requestsSent?: () => number;
}

/** Options of {@link checkProperty}. */
export interface PropertyOptions<T> {
  /** Cases always tried first, whatever the seed: the boundaries. */
  examples?: T[];
  /** The case as a person reads it in a failure. */
  describe?: (value: T) => string;
  /** Random cases beyond the examples; default the run's `runs`. */
  runs?: number;
}

function stringify(value: unknown): string {
  const text = fc.stringify(value);
  return text.length > 400 ? `${text.slice(0, 400)}…` : text;
}

/** What one case did: what it threw (a failure, a skip), and the promises the model found its exchanges broke. */
interface CaseOutcome {
  error?: unknown;
  broken: BrokenPromise[];
}

/**
 * How a case failed, as one key: the model's first broken promise with its status, else the check's
 * failure title with its status. A smaller case counts only if it fails the same way: a body shrunk into
 * one the service accepts fails differently (a 201 where a 400 was wanted), and proves nothing.
 */
function failureKey({ error, broken }: CaseOutcome): string | undefined {
  const [first] = broken;
  if (first) return `promise ${first.promise} ${first.exchange.status}`;
  if (isCheckFailure(error)) return `check ${error.title} ${error.exchange?.status ?? ''}`;
  return undefined;
}

/**
 * Runs `predicate` (which throws a CheckFailure when the target is wrong) on the examples and on `runs`
 * cases drawn from `arbitrary` with the run's seed. A case fails when the predicate throws a
 * CheckFailure or when the run's model of promises finds one of its exchanges broke a promise (a 500
 * to a valid body: `no_server_error`); either way the case is then shrunk against the target
 * (generate/shrink-value.ts) to the smallest that fails the same way, within `SHRINK_REQUESTS` (150)
 * requests. The failure (or the model's finding) then holds the smallest case's request (for curl),
 * opens with the shrunk case, and says how to replay the run. Resolves with the number of cases tried.
 * @example await checkProperty(context, 'createCategory bodies', validBodies, async (body) => { ... });
 */
export async function checkProperty<T>(
  context: CheckContext,
  what: string,
  arbitrary: fc.Arbitrary<T>,
  predicate: (value: T) => Promise<void>,
  options: PropertyOptions<T> = {},
): Promise<number> {
  const { phase } = context as PropertyContext;
  // The fixed cases went in the evidence phase; the repetition phase draws generated ones only.
  const examples = phase === 'repetition' ? [] : (options.examples ?? []);
  const numRuns = (options.runs ?? context.runs) + examples.length;
  if (numRuns === 0) return 0;
  const novelty = new NoveltyStop(context);
  const runCase = async (value: T): Promise<CaseOutcome> => {
    // The model's findings of this case alone: what came before is set aside and handed back.
    const earlier = context.takeBrokenPromises();
    let error: unknown;
    try {
      await predicate(value);
    } catch (thrown) {
      error = thrown;
    }
    const taken = context.takeBrokenPromises();
    // A finding of the key's windows or of a burst depends on what came before, not on the case: it
    // stays the check's, and the case is not shrunk for it (every resend would cost the key again).
    const ofTheCase = (found: BrokenPromise) => !QUOTA_PROMISES.has(found.promise) && found.involved === undefined;
    for (const found of [...earlier, ...taken.filter((found) => !ofTheCase(found))]) context.report(found);
    return { ...(error !== undefined && { error }), broken: taken.filter(ofTheCase) };
  };
  let cases = 0;
  let drawn = 0;
  let failing: { value: T; outcome: CaseOutcome } | undefined;
  // A budget used up (or a case not applicable) ends the property: fast-check must not go on drawing.
  let skip: Error | undefined;
  const property = fc.asyncProperty(arbitrary, async (value) => {
    if (skip) throw skip;
    // The fixed examples (one of each kind) are always sent; past them, a case is sent while cases
    // still bring new evidence: a kind not tried yet, or an answer not seen yet.
    const example = (drawn += 1) <= examples.length;
    if (!example && novelty.stopped && !novelty.isNew(value)) return;
    cases += 1;
    const outcome = await runCase(value);
    if (isSkip(outcome.error)) {
      for (const found of outcome.broken) context.report(found);
      throw (skip = outcome.error);
    }
    if (outcome.error !== undefined || outcome.broken.length > 0) {
      failing = { value, outcome };
      throw outcome.error ?? new Error('the model found a broken promise');
    }
    novelty.caseDone(value);
  });
  // fast-check's own shrinking is off: each of its steps would be a request, and the shrink below keeps
  // to what the case fails on (the same finding, the same status) within a stated request budget.
  const details = await fc.check(property, {
    seed: context.seed,
    numRuns,
    endOnFailure: true,
    examples: examples.map((example) => [example] as [T]),
  });
  context.note(
    `${what}: ${cases} generated cases (seed ${context.seed})${novelty.stopped ? `; stopped after ${novelty.patience} in a row showed nothing new (the key's quota is spent where coverage needs it)` : ''}`,
  );
  if (!details.failed) return cases;
  if (!failing) throw notCompleted(details.errorInstance, what);
  const key = failureKey(failing.outcome);
  // Not a verdict on the target (the connection dropped, the check's own code threw): nothing to shrink.
  if (key === undefined) {
    for (const found of failing.outcome.broken) context.report(found);
    throw notCompleted(failing.outcome.error, what, [`Replay with: --seed ${context.seed}`]);
  }
  return shrinkAndThrow(context, what, failing, key, runCase, options.describe ?? stringify);
}

/** Shrinks a failing case against the target, reports the model's findings of the smallest first, and throws its failure. */
async function shrinkAndThrow<T>(
  context: CheckContext,
  what: string,
  failing: { value: T; outcome: CaseOutcome },
  key: string,
  runCase: (value: T) => Promise<CaseOutcome>,
  describe: (value: T) => string,
): Promise<never> {
  const requestsSent = (context as PropertyContext).requestsSent;
  const startedAt = requestsSent?.() ?? 0;
  // What the check found before this case stays first; what the windows show during the shrink comes after its finding.
  const beforeShrink = context.takeBrokenPromises();
  for (const finding of beforeShrink) context.report(finding);
  let smallest = failing;
  // Findings of other kinds met on the way are the target's too: kept, after the shrunk one.
  const metOnTheWay: BrokenPromise[] = [];
  let stoppedBy: Error | undefined;
  const shrunk = await shrinkValue(
    failing.value,
    async (candidate) => {
      const outcome = await runCase(candidate);
      if (isSkip(outcome.error)) throw (stoppedBy = outcome.error);
      const same = failureKey(outcome) === key;
      if (same) smallest = { value: candidate, outcome };
      else metOnTheWay.push(...outcome.broken);
      return same;
    },
    { budget: SHRINK_REQUESTS, ...(requestsSent && { spent: () => requestsSent() - startedAt }) },
  ).catch((error: unknown) => {
    // A run budget used up mid-shrink: the smallest so far is the counterexample.
    if (error !== stoppedBy) throw error;
    return { steps: -1, attempts: -1, exhausted: true };
  });
  const spent = requestsSent ? `${requestsSent() - startedAt} requests` : `${shrunk.attempts} cases`;
  const counterexample = [
    `Counterexample (${what}, shrunk from ${caseSize(failing.value)} to ${caseSize(smallest.value)} characters in ${spent} of a ${SHRINK_REQUESTS}-request budget${shrunk.exhausted ? `; ${stoppedBy ? stoppedBy.message : 'the budget ran out'}, it may shrink further` : ''}): ${describe(smallest.value)}`,
  ];
  const replay = `Replay with: --seed ${context.seed}`;
  const { error, broken } = smallest.outcome;
  const during = context.takeBrokenPromises();
  for (const finding of during.slice(0, beforeShrink.length)) context.report(finding);
  // Each of the model's findings of the smallest case stands on its exchange, the shrunk case first.
  const shown = broken.map((finding) => ({ ...finding, lines: [...counterexample, ...finding.lines, replay] }));
  for (const finding of shown) {
    smallestExchanges.add(finding.exchange);
    context.report(finding);
  }
  const promises = new Set(broken.map(({ promise }) => promise));
  const earlierOthers = failing.outcome.broken.filter(({ promise }) => !promises.has(promise));
  for (const other of [...earlierOthers, ...during.slice(beforeShrink.length)]) context.report(other);
  reportNew(context, metOnTheWay, new Set([...promises, ...earlierOthers.map(({ promise }) => promise)]));
  // The check's own failure names a rule the model did not (a member name in another letter case, refused
  // by neither): a finding of its own, so the model's verdict on the same answer does not hide that rule.
  if (shown.length > 0 && isCheckFailure(error) && error.broke && error.exchange && !promises.has(error.broke))
    context.report({
      promise: error.broke,
      title: error.title,
      lines: [...counterexample, ...error.lines, replay],
      exchange: error.exchange,
    });
  const [cause] = shown;
  if (cause) throw new CheckFailure(cause.title, cause.lines, cause.exchange, undefined, cause.promise);
  const failure = error as CheckFailure;
  if (failure.exchange) smallestExchanges.add(failure.exchange);
  throw new CheckFailure(
    failure.title,
    [...counterexample, ...failure.lines, replay],
    failure.exchange,
    failure.sequence,
    failure.broke,
  );
}

/** Reports the findings met while shrinking whose promise is not among `shown` (one of each: the rest repeat it). */
function reportNew(context: CheckContext, met: readonly BrokenPromise[], shown: Set<string>): void {
  for (const found of met) {
    if (shown.has(found.promise)) continue;
    shown.add(found.promise);
    context.report(found);
  }
}

/**
 * What a generated run that threw (rather than finding the target wrong) ends its check with: a skip as
 * it is (a budget used up, a case not applicable), anything else as a failure saying it could not complete.
 */
export function notCompleted(error: unknown, what: string, lines: string[] = []): Error {
  if (isSkip(error)) return error;
  return new CheckFailure(
    `Check could not complete (${what}): ${error instanceof Error ? error.message : String(error)}`,
    lines,
  );
}

/**
 * When generated cases stop being worth their requests: after `context.patience()` cases in a row whose
 * answers showed nothing this check had not seen. The fixed examples come first, so the boundaries are
 * the cases tried. Never stops where the context sets no patience (a target whose quota is no constraint).
 * @example const novelty = new NoveltyStop(context); for (const c of cases) { if (novelty.stopped) break; await send(c); novelty.caseDone(); }
 */
export class NoveltyStop {
  readonly #context: CheckContext;
  readonly patience: number | undefined;
  #seen: number;
  #quiet = 0;

  constructor(context: CheckContext) {
    this.#context = context;
    this.patience = context.patience();
    this.#seen = context.evidence();
  }

  get stopped(): boolean {
    return this.patience !== undefined && this.#quiet >= this.patience;
  }

  /** Whether a case brings a facet (what it breaks, a class of what it holds) the run has not tried. */
  isNew(value: unknown): boolean {
    return evidenceFacets(value).some((facet) => !this.#context.triedKind(facet, false));
  }

  /** Counts one case that was sent: new evidence when one of its facets or its answer is new to the run. */
  caseDone(value?: unknown): void {
    // Every facet is recorded (no short-circuit): each is tried once this case is sent.
    const fresh =
      value === undefined ? [] : evidenceFacets(value).filter((facet) => !this.#context.triedKind(facet, true));
    const newKind = fresh.length > 0;
    const seen = this.#context.evidence();
    this.#quiet = seen > this.#seen || newKind ? 0 : this.#quiet + 1;
    this.#seen = seen;
  }
}
