import fc from 'fast-check';
import { CheckFailure, isCheckFailure, isSkip, type CheckContext } from './check.js';
import { evidenceFacets } from '../generate/evidence.js';

/** Requests a failing property may spend looking for a smaller counterexample; past it, the smallest found so far is reported. */
const SHRINK_REQUESTS = 150;

/**
 * Which of a property's cases a run sends now. A run with a budget tries its evidence first: every
 * check with only its fixed cases (`evidence`: the boundaries, one case of each kind), then, with what
 * is left, the generated ones (`repetition`); without a phase a property sends both at once.
 */
export type PropertyPhase = 'evidence' | 'repetition';

/** A check's context as a run with phases hands it over (contracts/runner/run-check.ts). */
export interface PropertyContext extends CheckContext {
  phase?: PropertyPhase;
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

/**
 * Runs `predicate` (which throws a CheckFailure when the target is wrong) on the examples and on `runs`
 * cases drawn from `arbitrary` with the run's seed, and shrinks a failure to the smallest case that still
 * fails. The failure keeps the smallest case's request (for curl) and says how to replay the run.
 * Resolves with the number of cases tried.
 * @example await checkProperty(context, 'createCategory bodies', validBodies, async (body) => { ... });
 */
export async function checkProperty<T>(
  context: CheckContext,
  what: string,
  arbitrary: fc.Arbitrary<T>,
  predicate: (value: T) => Promise<void>,
  options: PropertyOptions<T> = {},
): Promise<number> {
  let shrinking = false;
  let shrinkRequests = 0;
  const { phase } = context as PropertyContext;
  // The fixed cases went in the evidence phase; the repetition phase draws generated ones only.
  const examples = phase === 'repetition' ? [] : (options.examples ?? []);
  const numRuns = (options.runs ?? context.runs) + examples.length;
  if (numRuns === 0) return 0;
  const novelty = new NoveltyStop(context);
  let cases = 0;
  let drawn = 0;
  // A budget used up (or a case not applicable) ends the property: fast-check would otherwise shrink
  // it, and every shrink would ask the spent budget again.
  let skip: Error | undefined;
  const property = fc.asyncProperty(arbitrary, async (value) => {
    if (skip) throw skip;
    if (shrinking && (shrinkRequests += 1) > SHRINK_REQUESTS) return;
    // The fixed examples (one of each kind) are always sent; past them, a case is sent while cases
    // still bring new evidence: a kind not tried yet, or an answer not seen yet.
    const example = !shrinking && (drawn += 1) <= examples.length;
    if (!shrinking && !example && novelty.stopped && !novelty.isNew(value)) return;
    cases += 1;
    try {
      await predicate(value);
    } catch (error) {
      shrinking = true;
      if (isSkip(error)) skip = error;
      throw error;
    }
    novelty.caseDone(value);
  });
  const details = await fc.check(property, {
    seed: context.seed,
    numRuns,
    examples: examples.map((example) => [example] as [T]),
  });
  const tried = shrinking ? details.numRuns : cases;
  context.note(
    `${what}: ${tried} generated cases (seed ${context.seed})${novelty.stopped ? `; stopped after ${novelty.patience} in a row showed nothing new (the key's quota is spent where coverage needs it)` : ''}`,
  );
  if (!details.failed) return tried;
  const error = details.errorInstance;
  const [counterexample] = details.counterexample ?? [];
  const found = [
    `Counterexample (${what}, after ${details.numRuns} cases, shrunk ${details.numShrinks} times): ${(options.describe ?? stringify)(counterexample as T)}`,
    `Replay with: --seed ${context.seed}`,
  ];
  if (isCheckFailure(error)) throw new CheckFailure(error.title, [...error.lines, ...found], error.exchange);
  throw notCompleted(error, what, found);
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
