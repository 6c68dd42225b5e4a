import type { Exchange } from '../core/exchange.js';
import { deprecationVerdict } from '../core/deprecation-headers.js';
import { CheckFailure, type Check } from './check.js';
import { expectConforms, expectErrorBody, expectStatus } from './expectations.js';

/** Fails unless the answer carries a valid Deprecation, a Sunset not before it and a Link to both notices. */
export function expectDeprecationHeaders(exchange: Exchange, context: string): { sunsetEpochSeconds: number } {
  const verdict = deprecationVerdict(exchange, context);
  if (!verdict.ok) throw new CheckFailure(verdict.problem.title, verdict.problem.lines, exchange);
  return { sunsetEpochSeconds: verdict.sunsetEpochSeconds };
}

/** Every answer of the deprecated operation announces the deprecation and the sunset. */
export const deprecationHeaders: Check = {
  name: 'deprecation_headers',
  verifies:
    'every answer of GET /pets/{petId} (200, 400, 401, 404) carries Deprecation @epoch, Sunset (HTTP-date, the spec\'s) and Link rel="deprecation" and rel="sunset"',
  needs: ['deprecationHeaders'],
  async run({ send }) {
    const requests = [
      { path: '/pets/1', auth: 'key', what: 'GET /pets/1' },
      { path: '/pets/987654321', auth: 'key', what: 'GET /pets/987654321' },
      { path: '/pets/not-a-number', auth: 'key', what: 'GET /pets/not-a-number' },
      { path: '/pets/1', auth: 'none', what: 'GET /pets/1 without a key' },
    ] as const;
    for (const { path, auth, what } of requests) {
      const exchange = await send({ method: 'GET', path, auth });
      expectDeprecationHeaders(exchange, `${what} -> ${exchange.status}`);
    }
  },
};

/** After the sunset the operation is gone: 410 (or 404), still announcing the deprecation. */
export const sunsetAnswersGone: Check = {
  name: 'sunset_answers_gone',
  verifies:
    'with the clock past the Sunset date GET /pets/{petId} answers 410 gone (or 404), still with the deprecation headers',
  needs: ['clock'],
  async run({ send, clock }) {
    const before = await send({ method: 'GET', path: '/pets/1' });
    const { sunsetEpochSeconds } = expectDeprecationHeaders(before, 'before the sunset');
    await clock!.setEpochSeconds(sunsetEpochSeconds + 1);
    const after = await send({ method: 'GET', path: '/pets/1' });
    expectStatus(after, [410, 404], 'one second after the Sunset date');
    expectErrorBody(after, after.status === 410 ? 'gone' : 'not_found', 'after the sunset');
    expectConforms('getPetById', after, 'after the sunset');
    expectDeprecationHeaders(after, 'after the sunset');
  },
};
