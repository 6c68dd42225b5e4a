import { headerOf, type Exchange } from './exchange.js';
import type { HeaderProblem } from './header-value.js';
import { documentedOperation } from './spec-document.js';

/** Documented headers owned by this verdict and `deprecation_headers`, not by conformance (Prism cannot send a valid Deprecation value). */
export const DEPRECATION_HEADERS = ['Deprecation', 'Sunset', 'Link'] as const;

// RFC 9745: `@` and an epoch second.
const DEPRECATION_VALUE = /^@-?\d+$/;
// RFC 9110 IMF-fixdate, the only HTTP-date form a sender may generate.
const IMF_FIXDATE =
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/** The verdict on an answer's deprecation headers: the sunset they announce, or the first problem found. */
export type DeprecationVerdict = { ok: true; sunsetEpochSeconds: number } | { ok: false; problem: HeaderProblem };

function linkRelations(link: string): string[] {
  return [...link.matchAll(/rel\s*=\s*"?([^";,]+)"?/gi)].map((match) => match[1]!.toLowerCase());
}

function problem(title: string, lines: string[]): DeprecationVerdict {
  return { ok: false, problem: { title, lines } };
}

/**
 * Whether an answer carries a valid Deprecation, a Sunset not before it (the spec's `x-sunset` when it
 * has one) and a Link to both notices. Pure: a check throws the problem, the run's model records it.
 * @example deprecationVerdict(exchange, 'getPetById 404').ok
 */
export function deprecationVerdict(exchange: Exchange, context: string): DeprecationVerdict {
  const deprecation = headerOf(exchange, 'deprecation');
  const sunset = headerOf(exchange, 'sunset');
  const link = headerOf(exchange, 'link');
  if (deprecation === undefined || !DEPRECATION_VALUE.test(deprecation)) {
    return problem(`Invalid or missing Deprecation (${context})`, [
      `Received: Deprecation: ${deprecation ?? '(none)'} / Expected: @<epoch seconds> (RFC 9745)`,
    ]);
  }
  if (sunset === undefined || !IMF_FIXDATE.test(sunset)) {
    return problem(`Invalid or missing Sunset (${context})`, [
      `Received: Sunset: ${sunset ?? '(none)'} / Expected: an HTTP-date such as Thu, 01 Jul 2027 00:00:00 GMT`,
    ]);
  }
  const sunsetEpochSeconds = Date.parse(sunset) / 1000;
  const deprecatedEpochSeconds = Number(deprecation.slice(1));
  if (sunsetEpochSeconds < deprecatedEpochSeconds) {
    return problem(`Sunset is before Deprecation (${context})`, [
      `Received: Sunset ${sunset}, Deprecation ${deprecation} / Expected: Sunset not before ${new Date(deprecatedEpochSeconds * 1000).toUTCString()}`,
    ]);
  }
  const documentedSunset = documentedOperation('getPetById').sunset;
  if (documentedSunset !== undefined) {
    const expected = new Date(documentedSunset).toUTCString();
    if (sunset !== expected) {
      return problem(`Sunset differs from the spec's x-sunset (${context})`, [
        `Received: ${sunset} / Expected: ${expected}`,
      ]);
    }
  }
  const relations = linkRelations(link ?? '');
  const missing = ['deprecation', 'sunset'].filter((relation) => !relations.includes(relation));
  if (missing.length > 0) {
    return problem(`Link lacks rel="${missing.join('", rel="')}" (${context})`, [
      `Received: Link: ${link ?? '(none)'}`,
    ]);
  }
  return { ok: true, sunsetEpochSeconds };
}
