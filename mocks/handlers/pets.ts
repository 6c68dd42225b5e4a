import { deprecationHeaders, isPastSunset } from '../domain/deprecation.js';
import { apiError } from '../domain/errors.js';
import { errorAnswer, jsonAnswer, type Answer } from './api-call.js';
import type { FakeContext } from './context.js';
import { afterStep, type Planner } from './operation-plan.js';
import type { Operation } from './operation.js';
import { lastPathSegment } from './route-pattern.js';

const INT64_MAX = 2n ** 63n - 1n;
const POSITIVE_INTEGER = /^[1-9][0-9]{0,18}$/;

/** `getPetById`: deprecated, so every response carries `Deprecation`, `Sunset` and `Link`. */
export function petOperations(context: Pick<FakeContext, 'clock' | 'petsDeprecation'>): Operation[] {
  const policy = context.petsDeprecation;

  // Retirement is judged after admission, on the clock admission read (another instance may have moved it).
  const retired = (): Answer | undefined => {
    if (!isPastSunset(policy, context.clock.now())) return undefined;
    const sunset = new Date(policy.sunsetAtEpochSeconds * 1000).toUTCString();
    return errorAnswer(apiError('gone', `GET /pets/{petId} was retired on ${sunset}.`));
  };
  const getPetById: Planner = (call) => {
    const raw = lastPathSegment(call.path);
    if (raw === undefined || !POSITIVE_INTEGER.test(raw) || BigInt(raw) > INT64_MAX) {
      const got = raw === undefined ? 'malformed percent-encoding' : JSON.stringify(raw.slice(0, 40));
      return {
        answer: () =>
          retired() ??
          errorAnswer(apiError('invalid_request', `path: petId must be a positive 64-bit integer, got ${got}.`)),
      };
    }
    const id = Number(raw);
    const notFound = () => errorAnswer(apiError('not_found', `No pet has id ${raw}.`));
    // An id past 2^53 names no stored pet: no step to take.
    if (!Number.isSafeInteger(id)) return { answer: () => retired() ?? notFound() };
    return afterStep({ kind: 'findPet', id }, (pet) => retired() ?? (pet ? jsonAnswer(pet) : notFound()));
  };

  // A RegExp segment, not `:petId`: see route-pattern.ts for why msw must not decode it.
  return [
    {
      operationId: 'getPetById',
      method: 'GET',
      path: '/pets/[^/]+',
      specPath: '/pets/{petId}',
      plan: getPetById,
      headers: deprecationHeaders(policy),
    },
  ];
}
