/** The deprecation of an operation: when it was announced, when it goes, where it is documented. */
export interface DeprecationPolicy {
  deprecatedAtEpochSeconds: number;
  sunsetAtEpochSeconds: number;
  documentationUrl: string;
}

/** `GET /pets/{petId}`: deprecated 2026-07-01, sunset 2027-07-01 (docs/explanation/design.md section 3). */
export const GET_PET_DEPRECATION: DeprecationPolicy = {
  deprecatedAtEpochSeconds: Date.UTC(2026, 6, 1) / 1000,
  sunsetAtEpochSeconds: Date.UTC(2027, 6, 1) / 1000,
  documentationUrl: 'https://api.petstore.example.com/docs/deprecations#get-pet',
};

/**
 * The `Deprecation` (RFC 9745), `Sunset` (RFC 8594) and `Link` headers every response of the operation carries.
 * @example deprecationHeaders(GET_PET_DEPRECATION).Sunset // 'Thu, 01 Jul 2027 00:00:00 GMT'
 */
export function deprecationHeaders(policy: DeprecationPolicy): Record<string, string> {
  const link = `<${policy.documentationUrl}>`;
  return {
    Deprecation: `@${policy.deprecatedAtEpochSeconds}`,
    Sunset: new Date(policy.sunsetAtEpochSeconds * 1000).toUTCString(),
    Link: `${link}; rel="deprecation", ${link}; rel="sunset"`,
  };
}

/** Whether the operation is gone at this instant. */
export function isPastSunset(policy: DeprecationPolicy, nowMs: number): boolean {
  return nowMs >= policy.sunsetAtEpochSeconds * 1000;
}
