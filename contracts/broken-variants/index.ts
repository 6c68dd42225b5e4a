import { ANSWER_RULE_VARIANTS } from './answer-rule-variants.js';
import { AUTH_AND_ERROR_VARIANTS } from './auth-and-error-variants.js';
import { BODY_AND_STATE_VARIANTS } from './body-and-state-variants.js';
import { DERIVED_SURROUNDING_VARIANTS } from './derived-surrounding-variants.js';
import { FAILURE_VARIANTS } from './failure-variants.js';
import { FRAMING_VARIANTS } from './framing-variants.js';
import { RATE_LIMIT_AND_DEPRECATION_VARIANTS } from './rate-limit-and-deprecation-variants.js';
import { INPUT_HANDLING_VARIANTS } from './input-handling-variants.js';
import { PROMISE_MODEL_VARIANTS } from './promise-model-variants.js';
import { PROTOCOL_VARIANTS } from './protocol-variants.js';
import { PROTOCOL_RULE_VARIANTS } from './protocol-rule-variants.js';
import { RATE_LIMIT_PROMISE_VARIANTS } from './rate-limit-promise-variants.js';
import { RED_TEAM_VARIANTS } from './red-team-variants.js';
import { RUNTIME_HAZARD_VARIANTS } from './runtime-hazard-variants.js';
import { SURROUNDING_VARIANTS } from './surrounding-variants.js';
import type { BrokenVariant } from './variant.js';

/**
 * Deliberately broken fakes, each breaking one rule through the fake's own options; the suite must fail
 * each with the named checks. Test material of this repository, not part of the public `contracts` entry.
 *
 * To add one: `{ name, breaks, does, caughtBy, fake }` (`breaks`: the id of the rule, promise or check it breaks) in a `*-variants.ts` file whose array is spread below.
 * `fake` is `FakeOptions` (keys, ban, clock, faults, overrides...); most breaks are one override:
 * `{ overrides: [override.get('/categories', async ({ next }) => withJson(await next(), edit))] }` for an
 * operation's answer after auth, or `wrapping(async (request, next) => ...)` for every request in front
 * of auth and quota (`next(changes)` changes the request; the helpers in variant.ts edit an answer).
 * broken-variants.test.ts then proves the named checks fail on it.
 */
export const BROKEN_VARIANTS: readonly BrokenVariant[] = [
  ...AUTH_AND_ERROR_VARIANTS,
  ...BODY_AND_STATE_VARIANTS,
  ...RATE_LIMIT_AND_DEPRECATION_VARIANTS,
  ...INPUT_HANDLING_VARIANTS,
  ...PROTOCOL_VARIANTS,
  ...RATE_LIMIT_PROMISE_VARIANTS,
  ...PROMISE_MODEL_VARIANTS,
  ...PROTOCOL_RULE_VARIANTS,
  ...FAILURE_VARIANTS,
  ...RED_TEAM_VARIANTS,
  ...RUNTIME_HAZARD_VARIANTS,
  ...SURROUNDING_VARIANTS,
  ...DERIVED_SURROUNDING_VARIANTS,
  ...FRAMING_VARIANTS,
  ...ANSWER_RULE_VARIANTS,
];

/** The variant of this name; throws naming it when there is none, so a renamed variant fails the test that used it. */
export function brokenVariant(name: string): BrokenVariant {
  const variant = BROKEN_VARIANTS.find((each) => each.name === name);
  if (!variant) throw new Error(`no broken variant is named ${JSON.stringify(name)}`);
  return variant;
}

export type { BrokenConfiguration, BrokenVariant } from './variant.js';
