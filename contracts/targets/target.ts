import type { Capability } from '../core/capabilities.js';
import type { PlanLimits } from '../core/plan-limits.js';

/** Which kind of target: the in-process fake, a spawned Prism, or a base URL. */
export type TargetKind = 'fake' | 'prism' | 'url';

/**
 * What the suite knows of a target: where it is, which key to use, and what it supports. Plain data,
 * so the CLI can hand it to the jest process that runs the checks.
 */
export interface TargetDescriptor {
  kind: TargetKind;
  /** For people: `fake`, `prism`, or the base URL. */
  label: string;
  /** The base address requests are relative to (ends in `/v1`, except Prism's). */
  baseUrl: string;
  apiKey: string;
  capabilities: Capability[];
  /** Why each capability the target lacks is lacking: this becomes the skip reason. */
  lacking: Partial<Record<Capability, string>>;
  /** The key's plan limits, when known (the fake's free key). */
  plan?: PlanLimits;
  /** Origin of `/__admin` (reset between checks, clock), for the fake only. */
  adminUrl?: string;
  /** Live targets: wait out `Retry-After` and exhausted windows instead of hammering. */
  paced: boolean;
  /** A URL target: what its first answers showed it to be, in one line. */
  diagnosis?: string;
}

/** A target the suite started or connected to; `close` stops what was started (idempotent). */
export interface RunningTarget {
  descriptor: TargetDescriptor;
  /** Stops what was started for the target; idempotent. */
  close(): Promise<void>;
}

/**
 * Why a check cannot run on this target (the first capability it needs that the target lacks), or
 * undefined when it can.
 * @example skipReason(['writes', 'stateful'], prism.descriptor) // 'Prism keeps no state: ...'
 */
export function skipReason(
  needs: readonly Capability[],
  descriptor: Pick<TargetDescriptor, 'capabilities' | 'lacking'>,
): string | undefined {
  const missing = needs.find((capability) => !descriptor.capabilities.includes(capability));
  if (missing === undefined) return undefined;
  return descriptor.lacking[missing] ?? `the target lacks the "${missing}" capability`;
}
