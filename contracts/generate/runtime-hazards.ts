import { resolveSchema, type JsonSchema } from '../core/spec-document.js';
import type { EvidenceEntry } from './schema-evidence.js';
import { holdsRefusableCharacter } from './unicode.js';

/**
 * JSON that RFC 8259 allows and a server's runtime may not take as it is: member names that name its own
 * objects' internals, strings no Unicode text holds, nesting and numbers its parser or validator may not
 * survive. Each is an entry of the evidence catalogue of its own (a budget never drops one).
 */
export interface RuntimeHazard {
  /** Its catalogue entry: `json hazard: member __proto__`. */
  id: string;
  /** Why it tempts a runtime, for the report. */
  why: string;
  /**
   * The JSON text of a body built on `valid` (a valid body of the schema, its string members marked to be
   * found again): each hazard is written as JSON text, since a JavaScript object cannot hold every one.
   */
  body(valid: Record<string, unknown>): string;
  /**
   * What the spec lets the service answer: `refused` (the body breaks the schema: 400, nothing stored),
   * `stored-or-refused` (a string holding a character the spec lets it refuse), `stored` (any other
   * string: stored exactly as sent).
   */
  answer: 'refused' | 'stored-or-refused' | 'stored';
  /** For a string hazard: the string member it changed and the value it sent (as JSON decodes it). */
  sent?(valid: Record<string, unknown>): { member: string; value: string };
}

/** The prefix of every hazard's entry in the catalogue. */
export const HAZARD_ENTRY = 'json hazard: ';

/**
 * Names that mean something to the server's own objects: JavaScript's prototype chain (`__proto__` set
 * through `Object.assign` or a merge changes an object's prototype), Python's object model, and a
 * document store's query operators.
 */
const INTERNAL_NAMES = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '__class__',
  '__dict__',
  '$where',
];

/**
 * Strings JSON's `\u` escapes can write that are no Unicode text (RFC 8259 §8.2: "the behavior of software
 * that receives JSON texts containing such values is unpredictable"), and code points runtimes treat
 * specially: NUL (C strings end there), noncharacters, the byte-order mark (JavaScript's `\s` is true of
 * it, Python's is not), JavaScript's line terminators and a bidirectional override.
 */
const ODD_CODE_UNITS: ReadonlyArray<{ name: string; escaped: string; value: string }> = [
  { name: 'a lone high surrogate', escaped: '\\ud800', value: '\ud800' },
  { name: 'a lone low surrogate', escaped: '\\udfff', value: '\udfff' },
  { name: 'a surrogate pair reversed', escaped: '\\udc00\\ud800', value: '\udc00\ud800' },
  { name: 'NUL', escaped: '\\u0000', value: '\u0000' },
  { name: 'a noncharacter (U+FFFF)', escaped: '\\uffff', value: '\uffff' },
  { name: 'a byte-order mark', escaped: '\\ufeff', value: '\ufeff' },
  { name: 'a line separator (U+2028)', escaped: '\\u2028', value: '\u2028' },
  { name: 'a right-to-left override', escaped: '\\u202e', value: '\u202e' },
];

/** Nesting a recursive parser or validator may not survive (Python's default limit is 1,000), inside 16 KiB. */
const DEEP = { arrays: 3_000, objects: 2_000 };

/** The valid body's JSON text with more members, written as given. */
function withMembers(valid: Record<string, unknown>, members: string): string {
  const text = JSON.stringify(valid);
  return text === '{}' ? `{${members}}` : `${text.slice(0, -1)},${members}}`;
}

/** The body's JSON text with one member's value written as given. */
function withValue(valid: Record<string, unknown>, member: string, valueText: string): string {
  return `{${Object.entries({ ...valid, [member]: null })
    .map(([name, value]) => `${JSON.stringify(name)}:${name === member ? valueText : JSON.stringify(value)}`)
    .join(',')}}`;
}

/** The schema's first required string member (where a stored value shows), if any. */
export function stringMember(schema: JsonSchema): string | undefined {
  const resolved = resolveSchema(schema);
  const properties = (resolved.properties ?? {}) as Record<string, JsonSchema>;
  const required = (resolved.required ?? []) as string[];
  return [...required, ...Object.keys(properties)].find((name) => resolveSchema(properties[name]!).type === 'string');
}

/**
 * The hazards for one request body schema, derived from it: every internal name as a member it does not
 * name (and `__proto__` carrying the required members, which a merge would read through the prototype),
 * every odd code unit inside its first string member, deep nesting and numbers past binary64 as that
 * member's value.
 * @example runtimeHazards(newCategorySchema).map(({ id }) => id) // ['json hazard: member __proto__', ...]
 */
export function runtimeHazards(schema: JsonSchema): RuntimeHazard[] {
  const member = stringMember(schema);
  const hazards: RuntimeHazard[] = INTERNAL_NAMES.map((name) => ({
    id: `${HAZARD_ENTRY}member ${name}`,
    why: `a member named ${name}, which names an internal of the server's objects`,
    answer: 'refused',
    body: (valid) => withMembers(valid, `${JSON.stringify(name)}:{"polluted":"by ${name}"}`),
  }));
  hazards.push({
    id: `${HAZARD_ENTRY}required members only through __proto__`,
    why: 'the required members only inside __proto__: Object.assign or a merge reads them through the prototype',
    answer: 'refused',
    body: (valid) => `{"__proto__":${JSON.stringify(valid)}}`,
  });
  if (member === undefined) return hazards;
  for (const { name, escaped, value } of ODD_CODE_UNITS)
    hazards.push({
      id: `${HAZARD_ENTRY}${name} in a string`,
      why: `${name} inside ${member}, as a JSON escape`,
      answer: holdsRefusableCharacter(value) ? 'stored-or-refused' : 'stored',
      body: (valid) =>
        withValue(valid, member, `${JSON.stringify(`${String(valid[member])}x`).slice(0, -1)}${escaped}y"`),
      sent: (valid) => ({ member, value: `${String(valid[member])}x${value}y` }),
    });
  hazards.push(
    {
      id: `${HAZARD_ENTRY}arrays nested ${DEEP.arrays} deep`,
      why: `${member} as arrays nested ${DEEP.arrays} deep`,
      answer: 'refused',
      body: (valid) => withValue(valid, member, `${'['.repeat(DEEP.arrays)}${']'.repeat(DEEP.arrays)}`),
    },
    {
      id: `${HAZARD_ENTRY}objects nested ${DEEP.objects} deep`,
      why: `${member} as objects nested ${DEEP.objects} deep`,
      answer: 'refused',
      body: (valid) => withValue(valid, member, `${'{"a":'.repeat(DEEP.objects)}1${'}'.repeat(DEEP.objects)}`),
    },
    {
      id: `${HAZARD_ENTRY}a number past binary64`,
      why: `${member} as 1e400, which a binary64 parser reads as Infinity`,
      answer: 'refused',
      body: (valid) => withValue(valid, member, '1e400'),
    },
    {
      id: `${HAZARD_ENTRY}an integer of 40 digits`,
      why: `${member} as an integer no 64-bit type holds`,
      answer: 'refused',
      body: (valid) => withValue(valid, member, '1234567890123456789012345678901234567890'),
    },
  );
  return hazards;
}

/** The catalogue's entries for the hazards of one operation's body. */
export function hazardEvidence(schema: JsonSchema, operationId: string): EvidenceEntry[] {
  return runtimeHazards(schema).map(({ id }) => ({ id, kind: 'hazard', needs: ['writes'], operationId }));
}
