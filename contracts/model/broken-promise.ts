import { RULES, type RuleName, type Strength } from '../rules/rule-table.js';
import type { Exchange } from '../core/exchange.js';
import { PROMISES, type PromiseName } from './promise-rules.js';

/** An exchange (or a set of concurrent ones) that contradicts the model: the promise, what came, what the model expected. */
export interface BrokenPromise {
  /** A promise of the spec, or a rule of the table under it (rules/rule-table.ts). */
  promise: PromiseName | RuleName;
  /** A SHOULD of the rule table outside `--strict`: reported, but the check still passes. */
  severity?: 'warning';
  title: string;
  /** `Received: ... / Expected: ...` lines, as the checks write them. */
  lines: string[];
  /** The answer that shows it, for `curl`. */
  exchange: Exchange;
  /** Every exchange involved, when the promise spans several (a burst of concurrent requests). */
  involved?: Exchange[];
}

/** One answered exchange as the model sees it: when it was sent and answered, and the target's now. */
export interface Observation {
  exchange: Exchange;
  /** Order of sending and answering within the run (a counter, not a clock): `a.answered < b.sent` means a came before b. */
  sent: number;
  answered: number;
  /** The target's now, in epoch seconds, when the answer came. */
  now: number;
}

/** What a promise or a rule holds, as a report says it (with its strength and the sentence that binds it). */
export function heldText(name: PromiseName | RuleName): string {
  if (name in PROMISES) {
    const promise = PROMISES[name as PromiseName];
    return `Promise (${promise.strength}): ${promise.promise}. The spec: "${promise.requirement.quote}"`;
  }
  const rule = RULES[name as RuleName];
  return `Rule (${rule.source}, ${rule.strength}): ${rule.says}`;
}

/** Whether a broken promise or rule fails the run or warns: a SHOULD warns unless the run is strict. */
export function strengthOf(name: PromiseName | RuleName): Strength {
  return name in PROMISES ? PROMISES[name as PromiseName].strength : RULES[name as RuleName].strength;
}

/** `Broken promise <name>` or `Broken rule <name>`: how a report heads what the model found. */
export function brokenHeading(name: PromiseName | RuleName): string {
  return `${name in PROMISES ? 'Broken promise' : 'Broken rule'} ${name}`;
}
