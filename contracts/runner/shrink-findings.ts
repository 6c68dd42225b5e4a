import { SHRINK_REQUESTS, smallestExchanges } from '../checks/property.js';
import type { ContractRequest } from '../core/exchange.js';
import { caseSize, shrinkValue } from '../generate/shrink-value.js';
import type { BrokenPromise } from '../model/broken-promise.js';
import { QUOTA_PROMISES } from '../model/quota-model.js';
import type { CheckTally, TargetSession } from './target-session.js';

/**
 * Whether one request alone shows the finding again: not a quota promise (the answer depends on the
 * window earlier requests used), not a burst (the other requests are part of it), not a 429, and its
 * request carried a JSON body to shrink.
 */
function shrinkable(found: BrokenPromise, request: ContractRequest | undefined): request is ContractRequest {
  return (
    request !== undefined &&
    request.json !== undefined &&
    request.rawBody === undefined &&
    typeof request.json === 'object' &&
    request.json !== null &&
    found.involved === undefined &&
    found.exchange.status !== 429 &&
    !QUOTA_PROMISES.has(found.promise) &&
    !smallestExchanges.has(found.exchange)
  );
}

/**
 * Shrinks the body of each finding the model made of a check's exchanges (the first of each promise),
 * as a property's cases are shrunk (checks/property.ts, generate/shrink-value.ts): the same request
 * with a smaller JSON body is sent again through the session, and a candidate counts while the model
 * finds the same promise broken with the same status. The finding then stands on the smallest
 * request, its lines opening with the shrunk case; `budget` requests in all for the check.
 * @example await shrinkFindingsOf(session, tally);
 */
export async function shrinkFindingsOf(
  session: TargetSession,
  tally: CheckTally,
  budget = SHRINK_REQUESTS,
): Promise<void> {
  const startedAt = tally.requests;
  const spent = () => tally.requests - startedAt;
  for (const found of [...tally.broken]) {
    const request = session.requestOf(found.exchange);
    if (!shrinkable(found, request) || spent() >= budget) continue;
    smallestExchanges.add(found.exchange);
    // What the smallest request broke: every promise, the first one (found) with the same status among them.
    let smallest = { json: request.json, broken: tally.broken.filter(({ exchange }) => exchange === found.exchange) };
    const metOnTheWay: BrokenPromise[] = [];
    const shrunk = await shrinkValue(
      request.json,
      async (json) => {
        const before = tally.broken.length;
        const exchange = await session.send({ ...request, json });
        const broken = tally.broken.splice(before);
        const same =
          exchange.status === found.exchange.status &&
          broken.some((candidate) => candidate.promise === found.promise && candidate.exchange === exchange);
        if (same) smallest = { json, broken: broken.filter((candidate) => candidate.exchange === exchange) };
        else metOnTheWay.push(...broken);
        return same;
      },
      { budget, spent },
    ).catch((error: unknown) => ({
      // The run's budget ran out, or the target stopped answering, mid-shrink: the smallest so far stands.
      exhausted: true,
      why: error instanceof Error ? error.message : String(error),
    }));
    const stopped =
      'why' in shrunk
        ? `; ${shrunk.why}, it may shrink further`
        : shrunk.exhausted
          ? '; the budget ran out, it may shrink further'
          : '';
    const line = `Counterexample (${found.promise}, shrunk from ${caseSize(request.json)} to ${caseSize(smallest.json)} characters of body in ${spent()} requests of a ${budget}-request budget${stopped}): ${JSON.stringify(smallest.json)}`;
    // Each finding of the original request now stands on the smallest one that still shows it.
    tally.broken.forEach((original, index) => {
      if (original.exchange !== found.exchange) return;
      const replacement = smallest.broken.find(({ promise }) => promise === original.promise) ?? original;
      smallestExchanges.add(replacement.exchange);
      tally.broken[index] = { ...replacement, lines: [line, ...replacement.lines] };
    });
    // Other findings met on the way are the target's too; one of a promise already shown adds nothing.
    const present = new Set(tally.broken.map(({ promise }) => promise));
    for (const other of metOnTheWay)
      if (!present.has(other.promise)) {
        present.add(other.promise);
        tally.broken.push(other);
      }
  }
}
