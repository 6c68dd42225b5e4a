// msw percent-decodes the parameters of string paths (`/pets/:petId`, `/*`) with decodeURIComponent
// before any resolver runs, and that throws on `%ZZ` or `%FF`: a client's typo became a 500. Routes
// that capture part of the path are RegExps without capturing groups instead, so msw decodes nothing,
// and the resolver decodes what it needs with `lastPathSegment`.

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/**
 * An msw path matching `pathSource` (a RegExp source with no capturing group) right under `baseUrl`.
 * Case-insensitive, like msw's string paths.
 * @example http.get(underBaseUrl(context.baseUrl, '/pets/[^/]+/?'), resolver)
 */
export function underBaseUrl(baseUrl: string, pathSource: string): RegExp {
  return new RegExp(`^${escapeRegExp(baseUrl)}${pathSource}$`, 'i');
}

/**
 * The last segment of a path (a trailing slash ignored), percent-decoded; undefined when its
 * percent-encoding is malformed.
 * @example lastPathSegment('/pets/%31') // '1'
 */
export function lastPathSegment(path: string): string | undefined {
  const raw = path.replace(/\/$/, '').split('/').pop() ?? '';
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}
