import fc from 'fast-check';

/**
 * Whitespace at the edges of a value that services trim, normalise or refuse: ASCII, no-break,
 * ideographic, zero-width, line separator, byte-order mark.
 */
export const EDGE_WHITESPACE = [' ', '\t', '\n', '\u00a0', '\u2003', '\u3000', '\u200b', '\u2028', '\ufeff'] as const;

const fromRange = (min: number, max: number) =>
  fc.integer({ min, max }).map((codePoint) => String.fromCodePoint(codePoint));

/**
 * One Unicode code point (never half a surrogate pair), weighted towards what services get wrong:
 * astral characters (two UTF-16 units), combining marks (fewer graphemes than code points),
 * right-to-left text and overrides, edge whitespace, control characters, and anything at all.
 * Strings built from it count their length in code points, as JSON Schema does.
 */
// From integer ranges, not fast-check's 'binary' unit: that one maps all 1.1 million code points when
// it is built (most of a second at every start).
export const codePoint: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fromRange(0x20, 0x7e) },
  { weight: 2, arbitrary: fromRange(0x1f300, 0x1faff) },
  { weight: 1, arbitrary: fromRange(0x10000, 0x10ffff) },
  { weight: 2, arbitrary: fromRange(0x0300, 0x036f) },
  {
    weight: 1,
    arbitrary: fc.oneof(
      fromRange(0x05d0, 0x05ea),
      fromRange(0x0627, 0x064a),
      fc.constantFrom('\u200f', '\u202e', '\u2067'),
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom(...EDGE_WHITESPACE) },
  { weight: 1, arbitrary: fromRange(0x00, 0x1f) },
  { weight: 2, arbitrary: fc.oneof(fromRange(0x00, 0xd7ff), fromRange(0xe000, 0x10ffff)) },
);

/** Length in code points, as JSON Schema's `minLength` and `maxLength` count (and ajv with `unicode`). */
export function codePointLength(value: string): number {
  let length = 0;
  for (const _ of value) length += 1;
  return length;
}

/**
 * Fixed strings of exactly `length` code points that stress a store: all astral, decomposed accents,
 * right-to-left with an override, and edge whitespace around text.
 * @example edgeStrings(100)[0] // 100 × '🐾'
 */
export function edgeStrings(length: number): string[] {
  if (length === 0) return [''];
  const fill = (unit: string, per: number) => unit.repeat(Math.floor(length / per)) + 'x'.repeat(length % per);
  const framed = length >= 3 ? `\u3000${'y'.repeat(length - 2)} ` : 'y'.repeat(length);
  return [fill('🐾', 1), fill('e\u0301', 2), fill('\u202eשלום', 5), framed];
}
