import { describe, expect, it } from '@jest/globals';
import { answerWith } from '../../test/support/answers.js';
import { deprecationVerdict } from './deprecation-headers.js';

const SPEC_SUNSET = 'Thu, 01 Jul 2027 00:00:00 GMT';
const VALID = {
  deprecation: '@1767225600',
  sunset: SPEC_SUNSET,
  link: '<https://petstore.example/deprecation>; rel="deprecation", <https://petstore.example/sunset>; rel="sunset"',
};

function titleOf(headers: Record<string, string>): string | undefined {
  const verdict = deprecationVerdict(answerWith(headers), 'getPetById 200');
  return verdict.ok ? undefined : verdict.problem.title;
}

describe('deprecationVerdict', () => {
  it("accepts the spec's Deprecation, Sunset and Link, and gives the sunset", () => {
    expect(deprecationVerdict(answerWith(VALID), 'getPetById 200')).toEqual({
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
    const verdict = deprecationVerdict(answerWith({ ...VALID, sunset: 'Fri, 02 Jul 2027 00:00:00 GMT' }), 'x');
    expect(verdict.ok ? [] : verdict.problem.lines).toEqual([
      `Received: Fri, 02 Jul 2027 00:00:00 GMT / Expected: ${SPEC_SUNSET}`,
    ]);
  });
});
