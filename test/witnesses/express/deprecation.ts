import type { RequestHandler } from 'express';

/** `x-sunset` of getPetById: after it "the operation answers 410 `gone`". */
export const SUNSET_MS = Date.parse('2027-07-01T00:00:00Z');

/**
 * When getPetById was deprecated. The spec gives no date of its own, only the example of the
 * `Deprecation` header, `@1782864000` (2026-07-01T00:00:00Z), which is used here.
 */
export const DEPRECATED_MS = Date.parse('2026-07-01T00:00:00Z');

/** RFC 8594 §3: the Sunset value is an HTTP-date (IMF-fixdate), e.g. "Thu, 01 Jul 2027 00:00:00 GMT". */
export const SUNSET_HTTP_DATE = new Date(SUNSET_MS).toUTCString();

const DEPRECATION_HEADERS = {
  // RFC 9745 §2.1: "@" followed by a Unix epoch second.
  Deprecation: `@${Math.floor(DEPRECATED_MS / 1000)}`,
  Sunset: SUNSET_HTTP_DATE,
  // RFC 9745 §3 (rel="deprecation") and RFC 8594 §6 (rel="sunset").
  Link: [
    '<https://api.petstore.example.com/docs/deprecations#get-pet>; rel="deprecation"; type="text/html"',
    '<https://api.petstore.example.com/docs/deprecations#sunset-policy>; rel="sunset"; type="text/html"',
  ].join(', '),
};

/**
 * The deprecated resource, `/v1/pets/{petId}`, matched as Express matches the route: case-insensitive
 * and with an optional trailing slash. A plain RegExp test (no path parameters) so that a malformed
 * percent-encoding cannot fail here, before authentication.
 */
const PET_PATH = /^\/v1\/pets\/[^/]+\/?$/i;

/**
 * "Every response carries `Deprecation`, `Sunset` and `Link` headers", including the 401 and 429
 * answered before routing, so this runs first. RFC 9745 and RFC 8594 describe the resource, so every
 * response for that URI carries them, whatever its method.
 */
export const deprecationHeaders: RequestHandler = (req, res, next) => {
  if (PET_PATH.test(req.path)) res.set(DEPRECATION_HEADERS);
  next();
};
