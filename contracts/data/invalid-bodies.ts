import { documentedSpec, type JsonSchema } from '../spec/spec-document.js';

/** A request body that breaks its schema, and which constraint it breaks. */
export interface InvalidBody {
  breaks: string;
  body: unknown;
}

const VALUES_BY_TYPE: Record<string, unknown> = {
  string: 'text',
  integer: 42,
  boolean: true,
  null: null,
  array: [],
  object: {},
};

// Candidates for a string that a `pattern` refuses; whitespace first because `\S` is the usual rule.
const PATTERN_CANDIDATES = [' ', '   ', '\t', '\n', '-', '_', '0', 'a', 'A', '!', '~'];

function resolved(schema: JsonSchema): JsonSchema {
  const ref = schema.$ref;
  if (typeof ref !== 'string') return schema;
  const name = ref.replace('#/components/schemas/', '');
  const target = documentedSpec().schemas[name];
  if (!target) throw new Error(`spec: unresolved $ref ${ref}`);
  return resolved(target);
}

function withinLength(value: string, schema: JsonSchema): boolean {
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
  return value.length >= min && value.length <= max;
}

/** A value the (string, integer, ...) schema accepts: its first example, else the shortest that fits. */
function validValue(schema: JsonSchema): unknown {
  const target = resolved(schema);
  if (Array.isArray(target.examples) && target.examples.length > 0) return target.examples[0];
  if (target.type === 'string') return 'x'.repeat(typeof target.minLength === 'number' ? Math.max(target.minLength, 1) : 1);
  if (target.type === 'integer' || target.type === 'number') return typeof target.minimum === 'number' ? target.minimum : 1;
  return VALUES_BY_TYPE[String(target.type)];
}

/** Values that break one constraint each of a scalar schema. */
function invalidValues(schema: JsonSchema): InvalidBody[] {
  const target = resolved(schema);
  const type = String(target.type);
  const cases: InvalidBody[] = Object.entries(VALUES_BY_TYPE)
    .filter(([other]) => other !== type && !(type === 'number' && other === 'integer'))
    .map(([other, value]) => ({ breaks: `type ${type}, given ${other}`, body: value }));
  if (type === 'string') {
    if (typeof target.minLength === 'number' && target.minLength > 0) {
      cases.push({ breaks: `minLength ${target.minLength}`, body: 'x'.repeat(target.minLength - 1) });
    }
    if (typeof target.maxLength === 'number') {
      cases.push({ breaks: `maxLength ${target.maxLength}`, body: 'x'.repeat(target.maxLength + 1) });
    }
    if (typeof target.pattern === 'string') {
      const pattern = new RegExp(target.pattern, 'u');
      const refused = PATTERN_CANDIDATES.find((candidate) => !pattern.test(candidate) && withinLength(candidate, target));
      if (refused !== undefined) cases.push({ breaks: `pattern ${target.pattern}, given ${JSON.stringify(refused)}`, body: refused });
    }
    if (Array.isArray(target.enum)) cases.push({ breaks: `enum ${target.enum.join('|')}`, body: 'not-in-the-enum' });
  }
  if (type === 'integer' || type === 'number') {
    if (type === 'integer') cases.push({ breaks: 'type integer, given a fraction', body: 1.5 });
    if (typeof target.minimum === 'number') cases.push({ breaks: `minimum ${target.minimum}`, body: target.minimum - 1 });
  }
  return cases;
}

/**
 * Bodies that each break one constraint of an object schema of the spec: not an object, a required
 * property missing, an unknown property, and every constraint of every property. Derived from the
 * schema, so a constraint added to the spec is probed without touching the suite.
 * `validValues` replaces the examples used for the properties not under test (so a wrongly stored
 * body is recognisable).
 * @example invalidBodiesFor('NewCategory').find((c) => c.breaks === 'name: maxLength 100')
 */
export function invalidBodiesFor(schemaName: string, validValues: Record<string, unknown> = {}): InvalidBody[] {
  const schema = resolved({ $ref: `#/components/schemas/${schemaName}` });
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = (schema.required ?? []) as string[];
  const minimal = Object.fromEntries(required.map((name) => [name, validValues[name] ?? validValue(properties[name] ?? {})]));
  const cases: InvalidBody[] = Object.entries(VALUES_BY_TYPE)
    .filter(([type]) => type !== 'object')
    .map(([type, value]) => ({ breaks: `type object, given ${type}`, body: value }));
  for (const name of required) {
    const { [name]: _omitted, ...rest } = minimal;
    cases.push({ breaks: `required ${name}`, body: rest });
  }
  if (schema.additionalProperties === false) {
    cases.push({ breaks: 'additionalProperties false, given "unexpected"', body: { ...minimal, unexpected: 'x' } });
  }
  for (const [name, property] of Object.entries(properties)) {
    for (const invalid of invalidValues(property)) {
      cases.push({ breaks: `${name}: ${invalid.breaks}`, body: { ...minimal, [name]: invalid.body } });
    }
  }
  return cases;
}
