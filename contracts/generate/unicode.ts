import fc from 'fast-check';

/**
 * Whitespace at the edges of a value that services trim, normalise or refuse: ASCII, no-break,
 * ideographic, zero-width, line separator, byte-order mark.
 */
export const EDGE_WHITESPACE = [' ', '\t', '\n', '\u00a0', '\u2003', '\u3000', '\u200b', '\u2028', '\ufeff'] as const;

const fromRange = (min: number, max: number) =>
  fc.integer({ min, max }).map((codePoint) => String.fromCodePoint(codePoint));

/**
 * Characters the spec lets a service refuse in a request's string instead of storing it ("One that holds
 * NUL, a lone surrogate or a noncharacter ... may instead be answered `400`"): a generated valid string
 * holds none of them (valid under every reading the spec allows), and a hazard that holds one may be
 * refused. One definition for both.
 */
// eslint-disable-next-line no-control-regex -- NUL is one of the characters the spec names
const REFUSABLE = /[\u0000\ud800-\udfff]|\p{Noncharacter_Code_Point}/u;

/** Whether a string holds a character the spec lets a service refuse rather than store (see {@link REFUSABLE}). */
export function holdsRefusableCharacter(value: string): boolean {
  return REFUSABLE.test(value);
}

/**
 * One Unicode code point (never half a surrogate pair, never one the spec lets a service refuse), weighted towards what services get wrong:
 * astral characters (two UTF-16 units), combining marks (fewer graphemes than code points),
 * right-to-left text and overrides, edge whitespace, control characters, and anything at all.
 * Strings built from it count their length in code points, as JSON Schema does.
 */
// From integer ranges, not fast-check's 'binary' unit: that one maps all 1.1 million code points when
// it is built (most of a second at every start).
export const codePoint: fc.Arbitrary<string> = fc
  .oneof(
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
  )
  .filter((character) => !holdsRefusableCharacter(character));

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

/** A class of character a string can hold, how to recognise it, and one character of it to send. */
export interface CharacterClass {
  name: string;
  test: RegExp;
  /** A character (or a base and its mark) of the class, as a generated case sends it. */
  sample: string;
}

/**
 * The classes of character the generators know ({@link codePoint} draws from each): what a service
 * stores, compares or counts differently. Lone surrogates are left out: the generators never draw
 * them (a JSON string can escape one, but not every JSON parser takes it).
 */
export const CHARACTER_CLASSES: readonly CharacterClass[] = [
  { name: 'ascii-letter', test: /[A-Za-z]/, sample: 'a' },
  { name: 'digit', test: /[0-9]/, sample: '7' },
  { name: 'space', test: /[ \t\n\r]/, sample: ' ' },
  { name: 'punctuation', test: /[!-/:-@[-`{-~]/, sample: '!' },
  // eslint-disable-next-line no-control-regex -- exactly the control characters a string can hold
  { name: 'control', test: /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/, sample: '\u0001' },
  { name: 'latin-1', test: /[\u00a0-\u00ff]/, sample: '\u00e9' },
  { name: 'combining', test: /\p{M}/u, sample: 'e\u0301' },
  { name: 'right-to-left', test: /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]/, sample: '\u05e9' },
  { name: 'bidi-control', test: /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/, sample: '\u202e' },
  { name: 'zero-width', test: /[\u200b-\u200d\u2060\ufeff]/, sample: '\u200b' },
  { name: 'other-space', test: /[\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/, sample: '\u3000' },
  { name: 'cjk', test: /[\u3040-\u9fff\uac00-\ud7af]/, sample: '\u732b' },
  { name: 'astral', test: /[\u{10000}-\u{10ffff}]/u, sample: '\u{1f43e}' },
];

/** The names of the classes of character a string holds, in the order of {@link CHARACTER_CLASSES}. */
export function characterClassesOf(value: string): string[] {
  return CHARACTER_CLASSES.filter(({ test }) => test.test(value)).map(({ name }) => name);
}

/**
 * Strings of `length` code points holding one class of character each (its sample framed by `x`, so
 * that a class a pattern refuses alone, such as whitespace, still makes a value): the boundary cases
 * that try every class of character on every string a request carries.
 * @example classStrings(3).find((value) => value.includes('\u732b')) // 'x\u732bx'
 */
export function classStrings(length: number): string[] {
  if (length === 0) return [];
  return CHARACTER_CLASSES.map(({ sample }) => {
    const units = [...sample];
    if (units.length >= length) return units.slice(-length).join('');
    const pad = length - units.length;
    return `${'x'.repeat(Math.ceil(pad / 2))}${sample}${'x'.repeat(Math.floor(pad / 2))}`;
  });
}
