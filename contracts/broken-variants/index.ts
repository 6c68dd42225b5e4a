import { AUTH_AND_ERROR_VARIANTS } from './auth-and-error-variants.js';
import { BODY_AND_STATE_VARIANTS } from './body-and-state-variants.js';
import { RATE_LIMIT_AND_DEPRECATION_VARIANTS } from './rate-limit-and-deprecation-variants.js';
import { INPUT_HANDLING_VARIANTS } from './input-handling-variants.js';
import { PROMISE_MODEL_VARIANTS } from './promise-model-variants.js';
import { PROTOCOL_VARIANTS } from './protocol-variants.js';
import { PROTOCOL_RULE_VARIANTS } from './protocol-rule-variants.js';
import { RATE_LIMIT_PROMISE_VARIANTS } from './rate-limit-promise-variants.js';
import type { BrokenVariant } from './variant.js';

/** Deliberately broken fakes, each breaking one rule; the suite must fail each with the named checks. */
export const BROKEN_VARIANTS: readonly BrokenVariant[] = [
  ...AUTH_AND_ERROR_VARIANTS,
  ...BODY_AND_STATE_VARIANTS,
  ...RATE_LIMIT_AND_DEPRECATION_VARIANTS,
  ...INPUT_HANDLING_VARIANTS,
  ...PROTOCOL_VARIANTS,
  ...RATE_LIMIT_PROMISE_VARIANTS,
  ...PROMISE_MODEL_VARIANTS,
  ...PROTOCOL_RULE_VARIANTS,
];

export type { BrokenVariant, Intercept } from './variant.js';
