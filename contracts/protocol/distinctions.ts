import { operationsOnPath, unknownChildOf } from '../core/spec-operations.js';

/** One way a path can come close to a spec path and still name another resource. */
export interface Distinction {
  name: string;
  /** Where it is written. */
  basis: string;
  rule: string;
  /** The near misses of one of the spec's paths (already filled in, e.g. `/pets/1`); none when the rule cannot apply. */
  nearMisses(path: string): string[];
}

const segmentsOf = (path: string) => path.split('/').slice(1);
const joined = (segments: readonly string[]) => `/${segments.join('/')}`;
const hasLetters = (segment: string) => /[a-z]/.test(segment);

/** Each segment with letters changed by `change` (parameter values such as `1` have none and stay). */
function lettersChanged(path: string, change: (segment: string) => string, onlyLast = false): string {
  const segments = segmentsOf(path);
  const last = segments.findLastIndex(hasLetters);
  return joined(
    segments.map((segment, index) =>
      hasLetters(segment) && (!onlyLast || index === last) ? change(segment) : segment,
    ),
  );
}

/**
 * The other side of the equivalence table: spellings that are **not** the same resource. The suite derives
 * each near miss from every path of the spec and requires `404 not_found` for it; the docs' table is
 * this one (a test compares them).
 */
export const DISTINCTIONS: readonly Distinction[] = [
  {
    name: 'path-letter-case',
    basis: 'RFC 3986 §6.2.2.1',
    rule: 'a path is case-sensitive: `/Categories` and `/PETS/1` are not `/categories` and `/pets/1`',
    nearMisses: (path) => [
      lettersChanged(path, (segment) => segment.charAt(0).toUpperCase() + segment.slice(1), true),
      lettersChanged(path, (segment) => segment.toUpperCase()),
    ],
  },
  {
    name: 'trailing-slash',
    basis: 'RFC 3986 §3.3, §6.2.3',
    rule: 'a trailing slash adds an empty last segment: `/categories/` is not `/categories`',
    nearMisses: (path) => [`${path}/`],
  },
  {
    name: 'empty-segment',
    basis: 'RFC 3986 §3.3',
    rule: 'an empty segment is a segment: `/store//orders` and `//categories` are other paths',
    nearMisses: (path) => {
      const segments = segmentsOf(path);
      return [joined([...segments.slice(0, -1), '', segments[segments.length - 1]!])];
    },
  },
  {
    name: 'encoded-slash',
    basis: 'RFC 3986 §2.2, §6.2.2.2',
    rule: 'a percent-encoded reserved character is not its delimiter: `/store%2Forders` is one segment, not `/store/orders`',
    nearMisses: (path) => {
      const cut = path.lastIndexOf('/');
      return [cut > 0 ? `${path.slice(0, cut)}%2F${path.slice(cut + 1)}` : `${path}%2F`];
    },
  },
  {
    name: 'extra-segment',
    basis: "the spec's paths",
    rule: 'a segment the spec does not declare makes an unknown path: `/categories/1/x`',
    nearMisses: (path) => [unknownChildOf(path)],
  },
];

/**
 * Every near miss of a path, each with the distinction it comes from.
 * @example nearMissesOf('/store/orders') // [{ distinction: 'path-letter-case', path: '/store/Orders' }, ...]
 */
export function nearMissesOf(path: string): Array<{ distinction: Distinction; path: string }> {
  return DISTINCTIONS.flatMap((distinction) =>
    distinction
      .nearMisses(path)
      // A miss that another template of the spec routes is no miss (`/categories/1` beside `/categories/{id}`).
      .filter((miss) => miss !== path && operationsOnPath(miss) === undefined)
      .map((miss) => ({ distinction, path: miss })),
  );
}
