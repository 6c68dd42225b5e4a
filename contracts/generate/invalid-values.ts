import fc from 'fast-check';
import { resolveSchema, type JsonSchema } from '../core/spec-document.js';
import { specValidators } from '../conformance/spec-validators.js';
import { codePoint, EDGE_WHITESPACE } from './unicode.js';
import { integerBounds, validValues } from './valid-values.js';

/** A way to break a schema, and values that break it (every one refused by the spec's validator). */
export interface InvalidCase<T = unknown> {
  breaks: string;
  values: fc.Arbitrary<T>;
  /**
   * The rule of the table this way of breaking the schema tries, when one names it: a refusal's failure
   * names it. Written as the rule's id, since the rule table sits in a layer above the generators.
   */
  rule?: 'property_names_exact';
}

// Values of each JSON type, for "wrong type" cases.
const OF_TYPE: Record<string, fc.Arbitrary<unknown>> = {
  string: fc.string({ maxLength: 8 }),
  integer: fc.integer(),
  number: fc.double({ noNaN: true, noDefaultInfinity: true }).filter((value) => !Number.isInteger(value)),
  boolean: fc.boolean(),
  null: fc.constant(null),
  array: fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
  object: fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
};

// The longest string a "far past maxLength" case sends, in code points: at most 8 KiB of JSON even when
// every one is escaped, well within the 16 KiB body limit of the fake and of most services.
const FAR_PAST_MAX_LENGTH = 1_300;

// Characters to find a pattern's complement with: what it refuses is what a broken value is made of.
const PROBE_CHARACTERS = [
  ...EDGE_WHITESPACE,
  '\r',
  '\v',
  '\f',
  '\u1680',
  '\u2000',
  '\u202f',
  '\u205f',
  'a',
  'Z',
  '0',
  '-',
  '_',
  '.',
  '!',
  '~',
  '/',
  'é',
  '🐾',
];

function typesOf(schema: JsonSchema): string[] {
  if (Array.isArray(schema.type)) return schema.type as string[];
  return typeof schema.type === 'string' ? [schema.type] : [];
}

function stringCases(schema: JsonSchema): InvalidCase[] {
  const cases: InvalidCase[] = [];
  const { minLength, maxLength, pattern } = schema;
  if (typeof minLength === 'number' && minLength > 0) {
    cases.push({ breaks: `minLength ${minLength}`, values: fc.string({ unit: codePoint, maxLength: minLength - 1 }) });
  }
  if (typeof maxLength === 'number') {
    // Past the maximum in code points: combining marks make fewer graphemes, astral ones more UTF-16 units.
    cases.push({
      breaks: `maxLength ${maxLength}`,
      values: fc.string({ unit: codePoint, minLength: maxLength + 1, maxLength: maxLength + 8, size: 'max' }),
    });
    // Far past it too: a service that checks the limit but stores into a narrower column (or crashes on
    // what it did not expect) fails only there. Capped so the body stays under any size limit.
    const far = { minLength: Math.max(2 * maxLength, maxLength + 100), maxLength: FAR_PAST_MAX_LENGTH };
    if (far.minLength <= far.maxLength)
      cases.push({ breaks: `maxLength ${maxLength}, far past it`, values: fc.string({ unit: codePoint, ...far }) });
  }
  if (typeof pattern === 'string') {
    const regex = new RegExp(pattern, 'u');
    const refused = PROBE_CHARACTERS.filter((character) => !regex.test(character));
    if (refused.length > 0) {
      const length = {
        minLength: Math.max(1, typeof minLength === 'number' ? minLength : 1),
        maxLength: Math.min(typeof maxLength === 'number' ? maxLength : 12, 12),
      };
      cases.push({
        breaks: `pattern ${pattern}`,
        values: fc.string({ unit: fc.constantFrom(...refused), ...length }).filter((value) => !regex.test(value)),
      });
    }
  }
  if (Array.isArray(schema.enum)) {
    const allowed = new Set(schema.enum);
    cases.push({
      breaks: `enum ${schema.enum.join('|')}`,
      values: fc.string({ maxLength: 12 }).filter((value) => !allowed.has(value)),
    });
  }
  if (schema.format === 'date-time' || schema.format === 'uri') {
    cases.push({
      breaks: `format ${schema.format}`,
      values: fc.constantFrom('next tuesday', '2026-13-45', 'not a uri', ''),
    });
  }
  return cases;
}

function numberCases(schema: JsonSchema, type: string): InvalidCase[] {
  const { min, max } = integerBounds(schema);
  const cases: InvalidCase[] = [];
  if (typeof schema.minimum === 'number' && min > Number.MIN_SAFE_INTEGER)
    cases.push({
      breaks: `minimum ${schema.minimum}`,
      values: fc.integer({ min: Math.max(min - 1_000_000, Number.MIN_SAFE_INTEGER), max: min - 1 }),
    });
  if (typeof schema.maximum === 'number' && max < Number.MAX_SAFE_INTEGER)
    cases.push({
      breaks: `maximum ${schema.maximum}`,
      values: fc.integer({ min: max + 1, max: Math.min(max + 1_000_000, Number.MAX_SAFE_INTEGER) }),
    });
  if (type === 'integer')
    cases.push({
      breaks: 'type integer, given a fraction',
      values: fc.integer({ min: Math.max(min, -1e6), max: Math.min(max, 1e6) - 1 }).map((value) => value + 0.5),
    });
  return cases;
}

/**
 * Every way to break a value's schema on its own: each other JSON type, and each constraint (length in
 * code points, pattern, enum, format, range). Objects are handled by {@link invalidObjectCases}.
 * @example invalidValueCases({ $ref: '#/components/schemas/CategoryName' }).map((c) => c.breaks)
 */
export function invalidValueCases(schema: JsonSchema): InvalidCase[] {
  const target = resolveSchema(schema);
  const types = typesOf(target);
  if (types.length === 0) return [];
  const wrongTypes = Object.entries(OF_TYPE)
    .filter(([type]) => !types.includes(type) && !(type === 'integer' && types.includes('number')))
    .map(([type, values]) => ({ breaks: `type ${types.join('|')}, given ${type}`, values }));
  const type = types[0]!;
  const own =
    type === 'string' ? stringCases(target) : type === 'integer' || type === 'number' ? numberCases(target, type) : [];
  const validate = specValidators().schema(target);
  return [...wrongTypes, ...own].map(({ breaks, values }) => ({
    breaks,
    values: values.filter((value) => !validate(value)),
  }));
}

/**
 * Objects that each break one constraint of an object schema, the rest valid: not an object, a required
 * property missing, an unknown property (when closed), and every constraint of every property. `valid`
 * gives the rest (default: any valid object; a constant, e.g. the spec's example, keeps cases readable).
 * @example invalidObjectCases({ $ref: '#/components/schemas/NewCategory' })
 */
export function invalidObjectCases(
  schema: JsonSchema,
  valid: fc.Arbitrary<Record<string, unknown>> = validValues(schema) as fc.Arbitrary<Record<string, unknown>>,
): Array<InvalidCase<unknown>> {
  const target = resolveSchema(schema);
  const properties = (target.properties ?? {}) as Record<string, JsonSchema>;
  const required = (target.required ?? []) as string[];
  const cases: InvalidCase[] = Object.entries(OF_TYPE)
    .filter(([type]) => type !== 'object')
    .map(([type, values]) => ({ breaks: `type object, given ${type}`, values }));
  for (const name of required) {
    cases.push({ breaks: `required ${name}`, values: valid.map(({ [name]: _omitted, ...rest }) => rest) });
  }
  if (target.additionalProperties === false) {
    const unknownName = fc
      .oneof(fc.constantFrom('id', '__proto__', 'constructor', 'name '), fc.string({ minLength: 1, maxLength: 10 }))
      .filter((name) => !(name in properties));
    cases.push({
      breaks: 'additionalProperties false',
      values: fc
        .tuple(valid, unknownName, fc.jsonValue({ maxDepth: 1 }))
        .map(([body, name, value]) => ({ ...body, [name]: value })),
    });
    // A member name is compared exactly (RFC 8259 §8.3): each declared name in other letter cases, in
    // place of the declared one, is an unknown property, never that property.
    for (const [name, property] of Object.entries(properties)) {
      const spellings = otherCases(name).filter((spelling) => !(spelling in properties));
      if (spellings.length === 0) continue;
      cases.push({
        breaks: `the property name ${name} in another letter case`,
        rule: 'property_names_exact',
        values: fc
          .tuple(valid, fc.constantFrom(...spellings), validValues(property))
          .map(([{ [name]: sent, ...rest }, spelling, value]) => ({ ...rest, [spelling]: sent ?? value })),
      });
    }
  }
  for (const [name, property] of Object.entries(properties)) {
    for (const invalid of invalidValueCases(property)) {
      cases.push({
        breaks: `${name}: ${invalid.breaks}`,
        values: fc.tuple(valid, invalid.values).map(([body, value]) => ({ ...body, [name]: value })),
      });
    }
  }
  const validate = specValidators().schema(target);
  return cases.map(({ values, ...named }) => ({ ...named, values: values.filter((value) => !validate(value)) }));
}

/** A name in the letter cases a case-folding parser would take for it: `Name`, `NAME`, `nAME`. */
function otherCases(name: string): string[] {
  const swapped = [...name]
    .map((char) => (char === char.toLowerCase() ? char.toUpperCase() : char.toLowerCase()))
    .join('');
  const capitalised = name.charAt(0).toUpperCase() + name.slice(1);
  return [...new Set([capitalised, name.toUpperCase(), swapped])].filter((spelling) => spelling !== name);
}
