/** Moves a target's clock; only targets with the `clock` capability have one. */
export interface TargetClock {
  /** Sets the clock to an epoch second; resolves with the target's new time. */
  setEpochSeconds(epochSeconds: number): Promise<number>;
  /** Moves the target's clock (the fake's `/__admin/clock`) and resolves with its epoch second after the move. */
  advanceSeconds(seconds: number): Promise<number>;
}
