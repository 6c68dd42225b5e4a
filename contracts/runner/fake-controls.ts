import type { TargetClock } from '../core/target-clock.js';
import { fakeClock, resetFake } from '../targets/fake-admin.js';
import type { Waiter } from '../transport/paced-sender.js';

/**
 * The fake's scenario controls as a run uses them: its clock (tracked, so the target's now stays
 * known between moves), a key's quota, and the reset back to the seed that puts the clock back too.
 */
export class FakeControls {
  readonly #adminUrl: string;
  readonly #apiKey: string;
  /** The fake's clock minus this machine's, in seconds, as its last move answered. */
  #clockOffset = 0;
  /** The fake's clock (a target with the `clock` capability); moving it keeps {@link now} true. */
  readonly clock: TargetClock | undefined;

  constructor(adminUrl: string, apiKey: string, hasClock: boolean) {
    this.#adminUrl = adminUrl;
    this.#apiKey = apiKey;
    this.clock = hasClock ? this.#tracked(fakeClock(adminUrl)) : undefined;
  }

  /** The fake's now in epoch seconds (its clock as last moved); undefined without a clock. */
  now(): number | undefined {
    return this.clock ? Date.now() / 1000 + this.#clockOffset : undefined;
  }

  /** The fake's time as the pacer waits it: moving its clock, at no cost, however long the window. */
  waiter(): Waiter | undefined {
    const { clock } = this;
    if (!clock) return undefined;
    return {
      now: () => clock.advanceSeconds(0),
      wait: async (seconds) => {
        await clock.advanceSeconds(seconds);
      },
      longestProactiveWaitSeconds: Number.POSITIVE_INFINITY,
      say: (seconds) => `moving the fake's clock ${seconds} s`,
    };
  }

  /** Sets what the key has left in its minute and/or day window (`PUT /__admin/keys/{key}/quota`). */
  async setRemaining(remaining: { minuteRemaining?: number; dayRemaining?: number }): Promise<void> {
    const response = await fetch(`${this.#adminUrl}/__admin/keys/${encodeURIComponent(this.#apiKey)}/quota`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(remaining),
    });
    if (!response.ok)
      throw new Error(`PUT /__admin/keys/.../quota answered ${response.status}: ${await response.text()}`);
  }

  /** Back to the seed: records, counters, bans and the clock. */
  async reset(): Promise<void> {
    await resetFake(this.#adminUrl);
    this.#clockOffset = 0;
  }

  #tracked(clock: TargetClock): TargetClock {
    const moved = (epochSeconds: number) => {
      this.#clockOffset = epochSeconds - Date.now() / 1000;
      return epochSeconds;
    };
    return {
      setEpochSeconds: async (epochSeconds) => moved(await clock.setEpochSeconds(epochSeconds)),
      advanceSeconds: async (seconds) => moved(await clock.advanceSeconds(seconds)),
    };
  }
}
