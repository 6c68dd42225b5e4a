import { documentedOperation } from '../core/spec-document.js';
import { headerOf, type Exchange } from '../core/exchange.js';
import type { Check } from './check.js';
import { expectConforms, expectErrorBody, expectStatus, expectThat } from './expectations.js';

// RFC 9745: `@` and an epoch second.
const DEPRECATION_VALUE = /^@-?\d+$/;
// RFC 9110 IMF-fixdate, the only HTTP-date form a sender may generate.
const IMF_FIXDATE =
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;

function linkRelations(link: string): string[] {
  return [...link.matchAll(/rel\s*=\s*"?([^";,]+)"?/gi)].map((match) => match[1]!.toLowerCase());
}

/** Fails unless the answer carries a valid Deprecation, a Sunset not before it and a Link to both notices. */
export function expectDeprecationHeaders(exchange: Exchange, context: string): { sunsetEpochSeconds: number } {
  const deprecation = headerOf(exchange, 'deprecation');
  const sunset = headerOf(exchange, 'sunset');
  const link = headerOf(exchange, 'link');
  expectThat(
    deprecation !== undefined && DEPRECATION_VALUE.test(deprecation),
    `Invalid or missing Deprecation (${context})`,
    [`Received: Deprecation: ${deprecation ?? '(none)'} / Expected: @<epoch seconds> (RFC 9745)`],
    exchange,
  );
  expectThat(
    sunset !== undefined && IMF_FIXDATE.test(sunset),
    `Invalid or missing Sunset (${context})`,
    [`Received: Sunset: ${sunset ?? '(none)'} / Expected: an HTTP-date such as Thu, 01 Jul 2027 00:00:00 GMT`],
    exchange,
  );
  const sunsetEpochSeconds = Date.parse(sunset) / 1000;
  const deprecatedEpochSeconds = Number(deprecation.slice(1));
  expectThat(
    sunsetEpochSeconds >= deprecatedEpochSeconds,
    `Sunset is before Deprecation (${context})`,
    [
      `Received: Sunset ${sunset}, Deprecation ${deprecation} / Expected: Sunset not before ${new Date(deprecatedEpochSeconds * 1000).toUTCString()}`,
    ],
    exchange,
  );
  const documentedSunset = documentedOperation('getPetById').sunset;
  if (documentedSunset !== undefined) {
    const expected = new Date(documentedSunset).toUTCString();
    expectThat(
      sunset === expected,
      `Sunset differs from the spec's x-sunset (${context})`,
      [`Received: ${sunset} / Expected: ${expected}`],
      exchange,
    );
  }
  const relations = linkRelations(link ?? '');
  const missing = ['deprecation', 'sunset'].filter((relation) => !relations.includes(relation));
  expectThat(
    missing.length === 0,
    `Link lacks rel="${missing.join('", rel="')}" (${context})`,
    [`Received: Link: ${link ?? '(none)'}`],
    exchange,
  );
  return { sunsetEpochSeconds };
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
