import { characterClassesOf } from './unicode.js';

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

function lengthClass(length: number): string {
  // Exact where boundaries live (empty, one, the spec's bounds and just past them), bucketed elsewhere.
  if (length <= 2 || (length >= 99 && length <= 101) || (length >= 499 && length <= 501)) return String(length);
  return length < 99 ? 'short' : length < 499 ? 'long' : 'longer';
}

function facetsOf(value: unknown, at: string): string[] {
  if (value === null) return [`${at}: null`];
  if (typeof value === 'string') {
    const classes = characterClassesOf(value).map((name) => `${at}: ${name}`);
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
