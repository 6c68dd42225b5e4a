import fc from 'fast-check';
import { resolveSchema, type JsonSchema } from '../core/spec-document.js';
import { specValidators } from '../conformance/spec-validators.js';
import { CHARACTER_CLASSES, classStrings, codePoint, edgeStrings } from './unicode.js';

// Lengths and numbers the generators reach for when the schema sets no bound.
const UNBOUNDED_STRING = 40;
const UNBOUNDED_ITEMS = 3;
const SAMPLE = { numRuns: 20, seed: 1 };

type Bounds = { min: number; max: number };

function stringBounds(schema: JsonSchema): Bounds {
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  return { min, max: typeof schema.maxLength === 'number' ? schema.maxLength : Math.max(min, UNBOUNDED_STRING) };
}

/** Integer bounds, clamped to what a JSON number carries exactly (int64 limits are not doubles). */
export function integerBounds(schema: JsonSchema): Bounds {
  const exclusiveMin = typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + 1 : -Infinity;
  const exclusiveMax = typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum - 1 : Infinity;
  const min = Math.max(
    typeof schema.minimum === 'number' ? schema.minimum : -Infinity,
    exclusiveMin,
    Number.MIN_SAFE_INTEGER,
  );
  const max = Math.min(
    typeof schema.maximum === 'number' ? schema.maximum : Infinity,
    exclusiveMax,
    Number.MAX_SAFE_INTEGER,
  );
  return { min, max };
}

/** Keeps what the spec's own validator accepts: the generators never disagree with the schema. */
function acceptedBy(schema: JsonSchema): (value: unknown) => boolean {
  const validate = specValidators().schema(schema);
  return (value) => validate(value) === true;
}

function patternedStrings(schema: JsonSchema, bounds: Bounds): fc.Arbitrary<string> {
  const strings = fc.string({ unit: codePoint, minLength: bounds.min, maxLength: bounds.max, size: 'max' });
  if (typeof schema.pattern !== 'string') return strings;
  const pattern = new RegExp(schema.pattern, 'u');
  // A permissive pattern (`\S`) keeps almost every string; a strict one is generated from the pattern.
  if (fc.sample(strings, SAMPLE).filter((value) => pattern.test(value)).length >= SAMPLE.numRuns / 2)
    return strings.filter((value) => pattern.test(value));
  return fc
    .stringMatching(pattern)
    .filter((value) => [...value].length >= bounds.min && [...value].length <= bounds.max);
}

function formattedStrings(format: unknown): fc.Arbitrary<string> | undefined {
  if (format === 'date-time')
    return fc
      .date({ min: new Date(0), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true })
      .map((date) => date.toISOString());
  if (format === 'uri') return fc.webUrl();
  return undefined;
}

/**
 * Any value the schema accepts: strings of any Unicode from the minimum to the maximum length (in code
 * points), integers across their whole range, objects with each optional property present or absent.
 * @example fc.sample(validValues({ $ref: '#/components/schemas/NewCategory' }), 3)
 */
export function validValues(schema: JsonSchema): fc.Arbitrary<unknown> {
  const target = resolveSchema(schema);
  if ('const' in target) return fc.constant(target.const);
  if (Array.isArray(target.enum)) return fc.constantFrom(...(target.enum as unknown[]));
  switch (target.type) {
    case 'string':
      return (formattedStrings(target.format) ?? patternedStrings(target, stringBounds(target))).filter(
        acceptedBy(target),
      );
    case 'integer':
      return fc.integer(integerBounds(target));
    case 'number':
      return fc.double({ ...integerBounds(target), noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const min = typeof target.minItems === 'number' ? target.minItems : 0;
      const max = typeof target.maxItems === 'number' ? target.maxItems : min + UNBOUNDED_ITEMS;
      return fc.array(validValues((target.items ?? {}) as JsonSchema), {
        minLength: min,
        maxLength: Math.min(max, min + UNBOUNDED_ITEMS),
      });
    }
    case 'object': {
      const properties = (target.properties ?? {}) as Record<string, JsonSchema>;
      const record = Object.fromEntries(
        Object.entries(properties).map(([name, property]) => [name, validValues(property)]),
      );
      return fc.record(record, { requiredKeys: (target.required ?? []) as string[] }).filter(acceptedBy(target));
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Values at the edge of each constraint: the shortest and longest strings (in stressing Unicode), the smallest and largest numbers. */
export function boundaryValues(schema: JsonSchema): unknown[] {
  const target = resolveSchema(schema);
  if (Array.isArray(target.enum)) return target.enum as unknown[];
  let candidates: unknown[];
  if (target.type === 'string' && target.format === undefined) {
    const { min, max } = stringBounds(target);
    candidates = [...new Set([min, Math.max(min, 1), max])].flatMap(edgeStrings);
  } else if (target.type === 'integer' || target.type === 'number') {
    const { min, max } = integerBounds(target);
    candidates = [min, max];
  } else {
    candidates = fc.sample(validValues(target), { numRuns: 1, seed: 0 });
  }
  return candidates.filter(acceptedBy(target));
}

/**
 * A short string of each class of character the generators know, for each class the string schema
 * takes (a pattern or a length may refuse one): every class tried once, whatever the seed.
 * @example characterClassValues({ type: 'string', pattern: '\\S' }).map(({ name }) => name) // ['ascii-letter', 'digit', 'space', ...]
 */
export function characterClassValues(schema: JsonSchema): Array<{ name: string; value: string }> {
  const target = resolveSchema(schema);
  const { min, max } = stringBounds(target);
  const accepts = acceptedBy(target);
  const values = classStrings(Math.min(max, Math.max(min, 3)));
  return CHARACTER_CLASSES.flatMap(({ name }, index) => {
    const value = values[index];
    return value !== undefined && accepts(value) ? [{ name, value }] : [];
  });
}

/**
 * Objects at the edges: the required properties alone, every property present, each property at each
 * of its boundary values with the others minimal, and one object per class of character with every
 * string property that takes the class holding it (one request tries the class on each). Every one
 * is valid against the schema.
 */
export function boundaryObjects(schema: JsonSchema): Array<Record<string, unknown>> {
  const target = resolveSchema(schema);
  const properties = (target.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((target.required ?? []) as string[]);
  const first = (name: string) => boundaryValues(properties[name]!)[0];
  const minimal = Object.fromEntries([...required].map((name) => [name, first(name)]));
  const complete = Object.fromEntries(Object.keys(properties).map((name) => [name, first(name)]));
  const edges = Object.keys(properties).flatMap((name) =>
    boundaryValues(properties[name]!).map((value) => ({ ...minimal, [name]: value })),
  );
  const classes = Object.entries(properties).map(([name, property]) =>
    resolveSchema(property).type === 'string' ? { name, values: characterClassValues(property) } : undefined,
  );
  const ofClass = CHARACTER_CLASSES.map(({ name: className }) => {
    const holding = classes.flatMap((strings) => {
      const value = strings?.values.find(({ name }) => name === className)?.value;
      return value === undefined ? [] : [[strings!.name, value] as const];
    });
    return holding.length === 0 ? undefined : { ...minimal, ...Object.fromEntries(holding) };
  }).filter((object) => object !== undefined);
  return [minimal, complete, ...edges, ...ofClass].filter(acceptedBy(target));
}
