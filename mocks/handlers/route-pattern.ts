// msw percent-decodes the parameters of string paths (`/pets/:petId`, `/*`) with decodeURIComponent
// before any resolver runs, and that throws on `%ZZ` or `%FF`: a client's typo became a 500. Routes
// that capture part of the path are RegExps without capturing groups instead, so msw decodes nothing,
// and the resolver decodes what it needs with `lastPathSegment`.
//
// A path names an operation only as the spec writes it (RFC 3986 §6.2.1): letter case, a trailing slash,
// an empty segment or an encoded slash make another resource. msw's string paths match case-insensitively
// with an optional trailing slash, so every pattern here is a case-sensitive RegExp anchored at both ends.

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/**
 * An msw path matching `pathSource` (a RegExp source with no capturing group) right under `baseUrl`,
 * exactly: case-sensitive, no trailing slash.
 * @example http.get(underBaseUrl(context.baseUrl, '/pets/[^/]+'), resolver)
 */
export function underBaseUrl(baseUrl: string, pathSource: string): RegExp {
  return new RegExp(`^${escapeRegExp(baseUrl)}${pathSource}$`);
}

/**
 * The last segment of a path, percent-decoded; undefined when its percent-encoding is malformed.
 * @example lastPathSegment('/pets/%31') // '1'
 */
export function lastPathSegment(path: string): string | undefined {
  const raw = path.split('/').pop() ?? '';
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}
