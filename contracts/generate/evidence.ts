/**
 * What evidence a generated case brings, as facets, so a budget stops on repetition, never on something
 * not yet tried: a case that names what it breaks (`name: maxLength`) is that one facet; any other value
 * is one facet per thing it holds: each member present or absent, each class of character in each
 * string, each length boundary, each class of number. A case is new evidence when one of its facets is.
 * @example evidenceFacets({ name: 'é' }) // ['$: {name}', '$.name: latin-1', '$.name: length 1']
 */
export function evidenceFacets(value: unknown): string[] {
  if (typeof value === 'object' && value !== null && typeof (value as { breaks?: unknown }).breaks === 'string')
    return [`breaks ${(value as { breaks: string }).breaks}`];
  return [...new Set(facetsOf(value, '$'))];
}

/** Character classes a string can hold, as the generators know them (contracts/generate/unicode.ts). */
const CHARACTER_CLASSES: Array<[string, RegExp]> = [
  ['ascii-letter', /[A-Za-z]/],
  ['digit', /[0-9]/],
  ['space', /[ \t\n\r]/],
  ['punctuation', /[!-/:-@[-`{-~]/],
  // eslint-disable-next-line no-control-regex -- exactly the control characters a string can hold
  ['control', /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/],
  ['latin-1', /[\u00a0-\u00ff]/],
  ['combining', /\p{M}/u],
  ['right-to-left', /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]/],
  ['bidi-control', /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/],
  ['zero-width', /[\u200b-\u200d\u2060\ufeff]/],
  ['other-space', /[\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/],
  ['cjk', /[\u3040-\u9fff\uac00-\ud7af]/],
  ['astral', /[\u{10000}-\u{10ffff}]/u],
  ['lone-surrogate', /\p{Cs}/u],
];

function lengthClass(length: number): string {
  // Exact where boundaries live (empty, one, the spec's bounds and just past them), bucketed elsewhere.
  if (length <= 2 || (length >= 99 && length <= 101) || (length >= 499 && length <= 501)) return String(length);
  return length < 99 ? 'short' : length < 499 ? 'long' : 'longer';
}

function facetsOf(value: unknown, at: string): string[] {
  if (value === null) return [`${at}: null`];
  if (typeof value === 'string') {
    const classes = CHARACTER_CLASSES.filter(([, pattern]) => pattern.test(value)).map(([name]) => `${at}: ${name}`);
    return [
      ...classes,
      `${at}: length ${lengthClass([...value].length)}`,
      ...(value.trim() === '' ? [`${at}: blank`] : []),
    ];
  }
  if (typeof value === 'number' || typeof value === 'bigint') {
    const number = Number(value);
    const sign = number < 0 ? 'negative' : number === 0 ? 'zero' : 'positive';
    const size = Math.abs(number) > Number.MAX_SAFE_INTEGER ? 'past 2^53' : 'safe';
    return [`${at}: ${sign}`, `${at}: ${Number.isInteger(number) ? 'integer' : 'fraction'}`, `${at}: ${size}`];
  }
  if (Array.isArray(value))
    return [
      `${at}: array of ${lengthClass(value.length)}`,
      ...value.slice(0, 3).flatMap((item) => facetsOf(item, `${at}[]`)),
    ];
  if (typeof value === 'object')
    return [
      `${at}: {${Object.keys(value).sort().join(', ')}}`,
      ...Object.entries(value).flatMap(([key, member]) => facetsOf(member, `${at}.${key}`)),
    ];
  return [`${at}: ${typeof value}`];
}
