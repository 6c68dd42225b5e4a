import { http, HttpResponse } from 'msw';
import { deprecationHeaders, isPastSunset } from '../domain/deprecation.js';
import { apiError } from '../domain/errors.js';
import type { FakeContext } from './context.js';
import { guarded } from './guarded.js';
import { errorResponse } from './responses.js';
import { lastPathSegment, underBaseUrl } from './route-pattern.js';

const INT64_MAX = 2n ** 63n - 1n;
const POSITIVE_INTEGER = /^[1-9][0-9]{0,18}$/;

/** `getPetById`: deprecated, so every response carries `Deprecation`, `Sunset` and `Link`. */
export function petHandlers(context: FakeContext) {
  const policy = context.petsDeprecation;

  const getPetById = guarded(
    context,
    ({ request }) => {
      if (isPastSunset(policy, context.clock.now())) {
        const sunset = new Date(policy.sunsetAtEpochSeconds * 1000).toUTCString();
        return errorResponse(apiError('gone', `GET /pets/{petId} was retired on ${sunset}.`));
      }
      const raw = lastPathSegment(request.url);
      if (raw === undefined || !POSITIVE_INTEGER.test(raw) || BigInt(raw) > INT64_MAX) {
        const got = raw === undefined ? 'malformed percent-encoding' : JSON.stringify(raw.slice(0, 40));
        return errorResponse(apiError('invalid_request', `path: petId must be a positive 64-bit integer, got ${got}.`));
      }
      const id = Number(raw);
      const pet = Number.isSafeInteger(id) ? context.store.findPet(id) : undefined;
      return pet ? HttpResponse.json(pet) : errorResponse(apiError('not_found', `No pet has id ${raw}.`));
    },
    { headers: deprecationHeaders(policy) },
  );

  return [http.get(underBaseUrl(context.baseUrl, '/pets/[^/]+/?'), getPetById)];
}
