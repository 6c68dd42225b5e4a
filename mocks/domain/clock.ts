/** A source of the current time in epoch milliseconds. The domain never calls `Date.now()` itself. */
export interface Clock {
  /** The current time, epoch milliseconds. */
  now(): number;
}

/** The real wall clock. */
export const systemClock: Clock = { now: () => Date.now() };

/**
 * A clock that follows another one plus an offset that tests can move (`/__admin/clock`).
 * @example const clock = new AdjustableClock(); clock.advance(60);
 */
export class AdjustableClock implements Clock {
  #offsetMs = 0;

  constructor(private readonly base: Clock = systemClock) {}

  /** The base clock plus the offset the fake was moved by, epoch milliseconds. */
  now(): number {
    return this.base.now() + this.#offsetMs;
  }

  /** Moves the clock forward (or back, with a negative number) by whole or fractional seconds. */
  advance(seconds: number): void {
    this.#offsetMs += seconds * 1000;
  }

  /** Sets the clock to an absolute epoch second. */
  setEpochSeconds(epochSeconds: number): void {
    this.#offsetMs = epochSeconds * 1000 - this.base.now();
  }

  /** How far this clock is from its base, in milliseconds (what a shared store keeps). */
  get offsetMs(): number {
    return this.#offsetMs;
  }

  /** Takes an offset another instance set (docs/explanation/design.md section 6: one clock for every instance). */
  setOffsetMs(offsetMs: number): void {
    this.#offsetMs = offsetMs;
  }

  /** Drops the offset: back to the base clock. */
  reset(): void {
    this.#offsetMs = 0;
  }
}

/** Epoch seconds of a millisecond instant, rounded up (used for every `Reset` and `Retry-After`). */
export function ceilSeconds(epochMs: number): number {
  return Math.ceil(epochMs / 1000);
}
