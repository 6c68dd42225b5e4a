import type { RequestHandler } from 'express';
import { SUNSET_HTTP_DATE, SUNSET_MS } from './deprecation.js';
import { excerpt, sendError } from './errors.js';
import type { Store } from './store.js';

/** `#/components/schemas/Id`: an integer from 1 to 9223372036854775807 (int64). */
const MAX_ID = 9_223_372_036_854_775_807n;

/** The canonical decimal form of a valid `Id`, or undefined. */
export function parseId(raw: string): string | undefined {
  if (!/^[0-9]{1,32}$/.test(raw)) return undefined;
  const id = BigInt(raw);
  return id >= 1n && id <= MAX_ID ? id.toString() : undefined;
}

/** getPetById (deprecated; its headers are set by `deprecationHeaders` before authentication). */
export function getPetById(store: Store, now: () => number): RequestHandler<{ petId: string }> {
  return (req, res) => {
    // "After the sunset date (2027-07-01) the operation answers 410 `gone`": the operation no
    // longer exists, so its parameter is not validated any more.
    if (now() >= SUNSET_MS) {
      sendError(res, 410, 'gone', `GET /pets/{petId} was retired on ${SUNSET_HTTP_DATE}.`);
      return;
    }
    const raw = req.params.petId;
    const id = parseId(raw);
    if (id === undefined) {
      sendError(
        res,
        400,
        'invalid_request',
        `path: petId must be a positive integer, got ${JSON.stringify(excerpt(raw))}`,
      );
      return;
    }
    const pet = store.findPet(id);
    if (pet === undefined) {
      sendError(res, 404, 'not_found', `No pet has id ${excerpt(id)}.`);
      return;
    }
    res.json(pet);
  };
}
