import type { Exchange } from '../core/exchange.js';
import type { PromiseName } from './promise-rules.js';

/** An exchange (or a set of concurrent ones) that contradicts the model: the promise, what came, what the model expected. */
export interface BrokenPromise {
  promise: PromiseName;
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
