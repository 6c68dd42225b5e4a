import { describe, expect, it } from '@jest/globals';
import { deprecationVerdict } from './deprecation-headers.js';
import type { Exchange } from './exchange.js';

const SPEC_SUNSET = 'Thu, 01 Jul 2027 00:00:00 GMT';
const VALID = {
  deprecation: '@1767225600',
  sunset: SPEC_SUNSET,
  link: '<https://petstore.example/deprecation>; rel="deprecation", <https://petstore.example/sunset>; rel="sunset"',
};

function answer(headers: Record<string, string>): Exchange {
  return {
    request: { method: 'GET', url: 'http://127.0.0.1/v1/pets/1', headers: {} },
    status: 200,
    headers,
    text: '',
    json: undefined,
  };
}

function titleOf(headers: Record<string, string>): string | undefined {
  const verdict = deprecationVerdict(answer(headers), 'getPetById 200');
  return verdict.ok ? undefined : verdict.problem.title;
}

describe('deprecationVerdict', () => {
  it("accepts the spec's Deprecation, Sunset and Link, and gives the sunset", () => {
    expect(deprecationVerdict(answer(VALID), 'getPetById 200')).toEqual({
      ok: true,
      sunsetEpochSeconds: 1_814_400_000,
    });
  });

  it('names the first header that is wrong', () => {
    expect(titleOf({ ...VALID, deprecation: '2026-01-01' })).toBe('Invalid or missing Deprecation (getPetById 200)');
    expect(titleOf({ sunset: VALID.sunset, link: VALID.link })).toBe('Invalid or missing Deprecation (getPetById 200)');
    expect(titleOf({ ...VALID, sunset: '2027-07-01' })).toBe('Invalid or missing Sunset (getPetById 200)');
    expect(titleOf({ ...VALID, deprecation: '@1900000000' })).toBe('Sunset is before Deprecation (getPetById 200)');
    expect(titleOf({ ...VALID, sunset: 'Fri, 02 Jul 2027 00:00:00 GMT' })).toBe(
      "Sunset differs from the spec's x-sunset (getPetById 200)",
    );
    expect(titleOf({ ...VALID, link: '<https://petstore.example/deprecation>; rel="deprecation"' })).toBe(
      'Link lacks rel="sunset" (getPetById 200)',
    );
  });

  it('says what was received against what was expected', () => {
    const verdict = deprecationVerdict(answer({ ...VALID, sunset: 'Fri, 02 Jul 2027 00:00:00 GMT' }), 'x');
    expect(verdict.ok ? [] : verdict.problem.lines).toEqual([
      `Received: Fri, 02 Jul 2027 00:00:00 GMT / Expected: ${SPEC_SUNSET}`,
    ]);
  });
});
