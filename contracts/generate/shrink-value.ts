/**
 * Shrinking a failing case to the smallest one that still fails the same way, against a live target:
 * every attempt is a request (or a few), so the search is greedy and bounded. A case is plain data (a
 * JSON body, or a property's value holding one); it shrinks part by part, each part to its own minimum
 * with the others held: an object loses each member it can lose, then each member shrinks; a string
 * loses runs of characters, halves first and single characters last, so what is left is the offending
 * characters; each character that is left is then tried as a plain `a` (what stays unusual is the cause);
 * a number goes to 0 or halves towards it; an array loses items; bytes lose runs as a string does.
 * A case's `breaks` (the kind of case it is, see evidence.ts) is kept as it is: shrinking keeps the kind.
 */

/** Whether a smaller case still fails the same way (one or more requests to the target). */
export type StillFails<T> = (candidate: T) => Promise<boolean>;

/** What a shrink did: the smallest failing case found, the steps taken, the attempts spent. */
export interface Shrunk<T> {
  value: T;
  /** Attempts that failed the same way (each a step to a smaller case). */
  steps: number;
  /** Attempts made, each costing the predicate's requests. */
  attempts: number;
  /** The budget ran out before every smaller candidate was tried: the case may shrink further. */
  exhausted: boolean;
}

/** The kind of a case (what it breaks), never shrunk. */
const KIND_MEMBER = 'breaks';
/** The plain character a remaining character is tried as. */
const PLAIN = 'a';

class BudgetSpent extends Error {}

/** How much a shrink may spend: `budget` attempts, or, with `spent`, `budget` of what it counts (requests). */
export interface ShrinkBudget {
  budget: number;
  /** What the shrink has spent so far, when an attempt costs more than one (a case that sends two requests). */
  spent?: () => number;
}

/**
 * Shrinks `value` while `stillFails` says a smaller candidate fails the same way, within `limit`.
 * Resolves with the smallest failing case found (the value itself when none is smaller).
 * @example await shrinkValue({ name: 'xx\u0000yy' }, async (body) => (await send(body)).status === 500, { budget: 60 }) // { value: { name: '\u0000' }, ... }
 */
export async function shrinkValue<T>(value: T, stillFails: StillFails<T>, limit: ShrinkBudget): Promise<Shrunk<T>> {
  const state = { steps: 0, attempts: 0 };
  // Every attempt is of the whole case: the last that failed is the smallest so far, whatever part was shrinking.
  let best: unknown = value;
  let current: unknown = value;
  const spent = limit.spent ?? (() => state.attempts);
  // A candidate already seen not to fail (removing a run can repeat an earlier case) costs no request.
  const passed = new Set<string>();
  const attempt = async (candidate: unknown): Promise<boolean> => {
    const key = keyOf(candidate);
    if (passed.has(key)) return false;
    if (spent() >= limit.budget) throw new BudgetSpent();
    state.attempts += 1;
    const fails = await stillFails(candidate as T);
    if (fails) {
      state.steps += 1;
      best = candidate;
    } else passed.add(key);
    return fails;
  };
  try {
    // A part shrunk alone may let an earlier part shrink further: passes until one changes nothing.
    for (let pass = 0; pass < 3; pass += 1) {
      const before = state.steps;
      current = await shrinkPart(current, attempt);
      if (state.steps === before) break;
    }
    return { value: current as T, ...state, exhausted: false };
  } catch (error) {
    if (!(error instanceof BudgetSpent)) throw error;
    return { value: best as T, ...state, exhausted: true };
  }
}

type Attempt = (candidate: unknown) => Promise<boolean>;

/**
 * How big a case is, as a person reads the shrink: the characters of its JSON text, a byte counting one.
 * @example caseSize({ name: 'ab' }) // 13
 */
export function caseSize(value: unknown): number {
  const text = JSON.stringify(value, (_name, part: unknown) =>
    part instanceof Uint8Array ? 'b'.repeat(part.length) : part,
  );
  return text === undefined ? 0 : [...text].length;
}

/** A candidate as a key (bytes as their numbers): two candidates with one key send the same request. */
const keyOf = (candidate: unknown): string =>
  JSON.stringify(candidate, (_name, value: unknown) => (value instanceof Uint8Array ? [...value] : value)) ??
  'undefined';

/**
 * The part at its smallest, given `attempt` (which sends the whole case with this part replaced). The
 * current part is kept up to date as steps succeed, so a budget spent midway leaves the best found.
 */
async function shrinkPart(part: unknown, attempt: Attempt): Promise<unknown> {
  if (typeof part === 'string') return shrinkString(part, attempt);
  if (typeof part === 'number') return shrinkNumber(part, attempt);
  if (typeof part === 'boolean') return part && (await attempt(false)) ? false : part;
  if (part instanceof Uint8Array) return shrinkBytes(part, attempt);
  if (Array.isArray(part)) return shrinkArray(part, attempt);
  if (typeof part === 'object' && part !== null && Object.getPrototypeOf(part) === Object.prototype)
    return shrinkObject(part as Record<string, unknown>, attempt);
  return part;
}

async function shrinkObject(object: Record<string, unknown>, attempt: Attempt): Promise<Record<string, unknown>> {
  let current = object;
  for (const key of Object.keys(object)) {
    if (key === KIND_MEMBER) continue;
    const { [key]: _dropped, ...without } = current;
    if (await attempt(without)) current = without;
  }
  for (const key of Object.keys(current)) {
    if (key === KIND_MEMBER) continue;
    const held = current;
    const shrunk = await shrinkPart(held[key], (candidate) => attempt({ ...held, [key]: candidate }));
    current = { ...held, [key]: shrunk };
  }
  return current;
}

/** Removes runs of `length - 1` items down to single ones, halves first (delta debugging's order). */
async function removeRuns<T>(items: T[], attempt: (kept: T[]) => Promise<boolean>): Promise<T[]> {
  let current = items;
  if (current.length > 0 && (await attempt([]))) return [];
  for (let run = Math.ceil(current.length / 2); run >= 1; run = run === 1 ? 0 : Math.ceil(run / 2)) {
    for (let start = 0; start < current.length;) {
      const kept = [...current.slice(0, start), ...current.slice(start + run)];
      if (kept.length < current.length && (await attempt(kept))) current = kept;
      else start += run;
    }
  }
  return current;
}

const isPlain = (unit: string) => /^[A-Za-z0-9]$/.test(unit);

async function shrinkString(text: string, attempt: Attempt): Promise<string> {
  // All plain first, when that still fails: a failure of length alone then shrinks in a few requests
  // (every run removed from a plain string is the same candidate, sent once).
  const plainText = PLAIN.repeat([...text].length);
  const start = plainText !== text && (await attempt(plainText)) ? plainText : text;
  const units = await removeRuns([...start], (kept) => attempt(kept.join('')));
  // What is left and is not plain is tried as plain letters, runs of it at once (all, halves, ... one),
  // so a long string that must stay long costs a few requests, and only the characters that cause it stay unusual.
  const plainAt = (indices: readonly number[]) => {
    const plain = [...units];
    for (const index of indices) plain[index] = PLAIN;
    return plain;
  };
  let unusual = units.flatMap((unit, index) => (isPlain(unit) ? [] : [index]));
  for (let run = unusual.length; run >= 1; run = run === 1 ? 0 : Math.ceil(run / 2)) {
    for (let start = 0; start < unusual.length;) {
      const chosen = unusual.slice(start, start + run);
      const plain = plainAt(chosen);
      if (await attempt(plain.join(''))) {
        for (const index of chosen) units[index] = PLAIN;
        unusual = unusual.filter((index) => !chosen.includes(index));
      } else start += run;
    }
  }
  return units.join('');
}

async function shrinkBytes(bytes: Uint8Array, attempt: Attempt): Promise<Uint8Array> {
  const kept = await removeRuns([...bytes], (candidate) => attempt(Uint8Array.from(candidate)));
  return Uint8Array.from(kept);
}

async function shrinkArray(items: unknown[], attempt: Attempt): Promise<unknown[]> {
  const current = await removeRuns(items, attempt);
  for (let index = 0; index < current.length; index += 1) {
    const held = [...current];
    current[index] = await shrinkPart(held[index], (candidate) =>
      attempt(held.map((item, at) => (at === index ? candidate : item))),
    );
  }
  return current;
}

async function shrinkNumber(number: number, attempt: Attempt): Promise<number> {
  if (number === 0 || !Number.isFinite(number)) return number;
  if (await attempt(0)) return 0;
  // Halving towards 0 while it still fails; integers stay integers.
  let current = number;
  for (;;) {
    const half = Number.isInteger(current) ? Math.trunc(current / 2) : current / 2;
    if (half === current || half === 0 || !(await attempt(half))) return current;
    current = half;
  }
}
