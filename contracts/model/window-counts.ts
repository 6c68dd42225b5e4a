import { DAY, MINUTE } from '../core/quota-windows.js';

/** The two fixed windows of a key (spec: "two fixed UTC windows: one minute and one day"). */
export type WindowKind = 'minute' | 'day';

/** The admitted requests the model saw counted in the latest window of one kind: when it began, and how many. */
interface SeenCount {
  start: number;
  count: number;
}

/**
 * What the model saw counted in each kind of window: a floor under each window's count, so its limit
 * less that count is the most the window can have left. Requests the suite does not see (before the
 * run, another client of a shared key, a request whose answer never came) only add to a count, so the
 * bound holds whatever the model missed.
 */
export type SeenCounts = Partial<Record<WindowKind, SeenCount>>;

/**
 * The windows an answer's request counted in that its Reset names for certain: the window it describes,
 * and for a minute the UTC day that minute lies in (a day is a whole number of minutes). A day's Reset
 * does not say which minute: the target's now is known only to a slack, so no minute is named.
 * @example windowStartsOf('minute', 1767225660) // { minute: 1767225600, day: 1767225600 }
 */
export function windowStartsOf(kind: WindowKind, reset: number): Partial<Record<WindowKind, number>> {
  if (kind === 'day') return { day: reset - DAY };
  const minute = reset - MINUTE;
  return { minute, day: Math.floor(minute / DAY) * DAY };
}

/** How many admitted requests the model saw counted in the window of `kind` that began at `start`. */
export function seenIn(seen: SeenCounts, kind: WindowKind, start: number | undefined): number {
  const tally = seen[kind];
  return start !== undefined && tally?.start === start ? tally.count : 0;
}

/** Counts one admitted request in the windows its answer names ({@link windowStartsOf}); a later window replaces an earlier one. */
export function countSeen(seen: SeenCounts, kind: WindowKind, reset: number): void {
  for (const [which, start] of Object.entries(windowStartsOf(kind, reset)) as Array<[WindowKind, number]>) {
    const tally = seen[which];
    if (!tally || start > tally.start) seen[which] = { start, count: 1 };
    else if (start === tally.start) tally.count += 1;
  }
}

/** A copy to judge a burst against: what was seen before any of its requests. */
export function copySeen(seen: SeenCounts | undefined): SeenCounts {
  const copy: SeenCounts = {};
  for (const kind of ['minute', 'day'] as const) if (seen?.[kind]) copy[kind] = { ...seen[kind]! };
  return copy;
}

/** What the model knows of the window an answer does not describe: the most it can have left after the request, and why. */
export interface OtherWindowBound {
  atMost: number;
  why: string;
}

/**
 * Whether the headers describe the window the spec names, given the most the other window can have
 * left: the lower remaining, on a tie the day ("on a tie, the day window").
 * @example describesTheLower('minute', 59, 59) // false: a tie is the day's
 */
export function describesTheLower(kind: WindowKind, remaining: number, otherLeft: number): boolean {
  return kind === 'minute' ? otherLeft > remaining : otherLeft >= remaining;
}

/** A window's limit and where the model has it from (the plan, or answers describing that window). */
export interface KnownLimit {
  limit: number;
  source: string;
}

/**
 * The most the window an answer does not describe can have left after its request, from what the model
 * knows: what earlier answers implied of it (`earlier`: at most that many before this request), and its
 * limit less the admitted requests seen counted in it (`seen` before this one, which counts too when
 * `admitted`). Undefined when it knows neither.
 * @example otherWindowBound({ known: { limit: 60, source: "the plan's" }, seen: 0, admitted: true }) // { atMost: 59, why: ... }
 */
export function otherWindowBound({
  earlier,
  known,
  seen,
  admitted,
}: {
  earlier?: { atMost: number } | undefined;
  known?: KnownLimit | undefined;
  seen: number;
  admitted: boolean;
}): OtherWindowBound | undefined {
  const spent = admitted ? 1 : 0;
  const bounds: OtherWindowBound[] = [];
  if (earlier) bounds.push({ atMost: earlier.atMost - spent, why: 'as earlier answers imply' });
  if (known) {
    const counted = seen + spent;
    bounds.push({
      atMost: known.limit - counted,
      why: `its limit ${known.limit}, ${known.source}, less the ${counted} admitted request${counted === 1 ? '' : 's'} seen counted in it`,
    });
  }
  let lowest: OtherWindowBound | undefined;
  for (const bound of bounds) if (!lowest || bound.atMost < lowest.atMost) lowest = bound;
  return lowest;
}

/**
 * What keeps the model from knowing that an answer describes the lower window, when it does not fail
 * it: the other window's limit unknown (`bound` undefined), or requests the suite did not see, which
 * may have left the other window lower. `floor` is the fewest the other window had left before this
 * request, where the suite sees all of the key's traffic: enough, it settles the question. A reason
 * names what is unknown, so a run says each once.
 */
export function whatIsNotKnown(
  kind: WindowKind,
  remaining: number,
  bound: OtherWindowBound | undefined,
  floor: number | undefined,
  { admitted, sharedKey }: { admitted: boolean; sharedKey: boolean },
): { reason: string; text: string } | undefined {
  const other: WindowKind = kind === 'minute' ? 'day' : 'minute';
  if (!bound)
    return {
      reason: `limit ${other}`,
      text: `which window is the lower one is not judged while the ${other} window's limit is unknown (no plan is given and no answer has described that window); answers describing the ${kind} are held to it once one does`,
    };
  if (floor !== undefined && describesTheLower(kind, remaining, floor - (admitted ? 1 : 0))) return undefined;
  return {
    reason: `count ${other}`,
    text: `the ${other} window's count is not all seen (${sharedKey ? 'others use the key' : 'requests before the run count in it'}), so that it has ${kind === 'minute' ? 'more' : 'at least as many'} left than the ${kind} window the headers describe is not known: an answer fails only where the ${other} window's limit, less the requests seen counted in it, or earlier answers prove it the lower one`,
  };
}
