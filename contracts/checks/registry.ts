import { createRequiresApiKey, invalidApiKeyRejected, missingApiKeyRejected } from './auth-checks.js';
import {
  invalidBodyNotStored,
  invalidBodyRejected,
  malformedJsonRejected,
  payloadTooLargeRejected,
  unsupportedMediaTypeRejected,
  validBodiesStoredAsSent,
} from './body-checks.js';
import type { Check } from './check.js';
import {
  createCategoryConforms,
  declaredFailureConforms,
  getPetConforms,
  listCategoriesConforms,
  listOrdersConforms,
} from './conformance-checks.js';
import { deprecationHeaders, sunsetAnswersGone } from './deprecation-checks.js';
import {
  errorBodyConformance,
  methodNotAllowed,
  nearMissPathsNotFound,
  rateLimitHeadersOnEveryResponse,
  unknownPathNotFound,
} from './error-checks.js';
import { banAfterRepeatedRejections, quotaWindowRollsOver, rateLimitExceededAnswer } from './quota-checks.js';
import { rateLimitRemainingDecreases, rateLimitResetInWindow } from './rate-limit-checks.js';
import { writesReadBack } from './state-checks.js';
import { equivalentReadsAnsweredAlike, equivalentWritesAnsweredAlike } from './equivalence-checks.js';
import { evaluationOrderReads, evaluationOrderWrites } from './evaluation-order-checks.js';
import { invalidParametersRejected, unknownQueryIgnored, validParametersAccepted } from './generated-read-checks.js';
import { rateLimitPromisesKept } from './rate-limit-promise-checks.js';
import { concurrentClientsSerialisable } from './concurrent-clients-check.js';
import { everyOutcomeCharged } from './outcome-charge-checks.js';
import { unchargedRequestsCostNothing } from './uncharged-checks.js';
import { runtimeHazardsAnswered } from './hazard-checks.js';
import { undeclaredSurroundingsIgnored } from './surrounding-checks.js';
import { limitsHoldUnderEveryFraming } from './framing-checks.js';
import { connectionRulesKept, hostFieldRequiredOnce } from './connection-checks.js';
import { everyMethodRouted, malformedCredentialsRefused } from './protocol-checks.js';
import { conditionalRequestsHonoured } from './conditional-checks.js';
import { answersKeepTheProtocol, answersLeakNothing } from './security-checks.js';
import { repeatedMembersHandled } from './json-member-checks.js';
import { bothQuotaWindowsHeld } from './quota-window-checks.js';
import { errorMessagesNameTheField } from './error-message-checks.js';
import { undeclaredRoutesRefused } from './inventory-checks.js';
import { keyGuessingThrottled } from './guessing-checks.js';
import { serverFieldsNotAssignable } from './assignment-checks.js';

/**
 * Every check, in the order they run. Checks that exhaust the key's quota come last, so that on a live
 * target nothing else has to wait for the window they used up.
 */
export const CHECKS: readonly Check[] = [
  listCategoriesConforms,
  listOrdersConforms,
  getPetConforms,
  createCategoryConforms,
  declaredFailureConforms,
  errorBodyConformance,
  missingApiKeyRejected,
  invalidApiKeyRejected,
  createRequiresApiKey,
  // The rules under the spec early: few requests each, and every rule of the table is tried on every
  // target before the generated properties spend a live key's quota.
  answersKeepTheProtocol,
  everyMethodRouted,
  malformedCredentialsRefused,
  conditionalRequestsHonoured,
  repeatedMembersHandled,
  answersLeakNothing,
  undeclaredRoutesRefused,
  validParametersAccepted,
  invalidParametersRejected,
  unknownQueryIgnored,
  undeclaredSurroundingsIgnored,
  connectionRulesKept,
  hostFieldRequiredOnce,
  limitsHoldUnderEveryFraming,
  equivalentReadsAnsweredAlike,
  validBodiesStoredAsSent,
  invalidBodyRejected,
  invalidBodyNotStored,
  runtimeHazardsAnswered,
  serverFieldsNotAssignable,
  errorMessagesNameTheField,
  malformedJsonRejected,
  unsupportedMediaTypeRejected,
  payloadTooLargeRejected,
  equivalentWritesAnsweredAlike,
  writesReadBack,
  unknownPathNotFound,
  nearMissPathsNotFound,
  methodNotAllowed,
  evaluationOrderReads,
  evaluationOrderWrites,
  rateLimitHeadersOnEveryResponse,
  rateLimitRemainingDecreases,
  rateLimitResetInWindow,
  everyOutcomeCharged,
  unchargedRequestsCostNothing,
  deprecationHeaders,
  sunsetAnswersGone,
  rateLimitExceededAnswer,
  keyGuessingThrottled,
  rateLimitPromisesKept,
  concurrentClientsSerialisable,
  quotaWindowRollsOver,
  bothQuotaWindowsHeld,
  banAfterRepeatedRejections,
];

/** The check with this name; throws naming the known ones (a misspelt name must not pass silently). */
export function checkNamed(name: string): Check {
  const check = CHECKS.find((candidate) => candidate.name === name);
  if (!check)
    throw new Error(`contract: no check "${name}"; known: ${CHECKS.map(({ name: known }) => known).join(', ')}`);
  return check;
}
