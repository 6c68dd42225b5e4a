// One normal form of a request path, for the fake (which routes by it) and the suite (which looks the
// spec's operation up by it): two copies of this would let the suite agree with a fake that is wrong.

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/**
 * The path with every percent-encoded unreserved character decoded (RFC 3986 §6.2.2.2: `%70ets` is
 * `pets`); every other escape, `%2F` included, stays as sent, so an encoded slash never splits a segment,
 * and the letter case is kept (a path names an operation only as the spec writes it).
 * @example normalizedPath('/p%65ts/%31') // '/pets/1'
 */
export function normalizedPath(path: string): string {
  // Nearly every path has no escape; it is asked several times per request.
  if (!path.includes('%')) return path;
  return path.replace(/%([0-9A-Fa-f]{2})/g, (escape, hex: string) => {
    const character = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(character) ? character : escape;
  });
}
