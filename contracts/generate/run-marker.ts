import { resolveSchema, type JsonSchema } from '../core/spec-document.js';
import type { ValidateFunction } from 'ajv';
import { specValidators } from '../conformance/spec-validators.js';

type Body = Record<string, unknown>;

/**
 * The mark a run leaves on every record it creates on a target it cannot reset (staging has no
 * delete): `ct` and the run's seed, so `--seed` and the mark name the same run.
 * @example runMarker(5) // 'ct5-'
 */
export function runMarker(seed: number): string {
  return `ct${seed}-`;
}

const codePoints = (text: string) => [...text];

/** Whether a body carries the marker at the start of one of its string fields. */
export function carriesMarker(body: unknown, marker: string): boolean {
  return (
    typeof body === 'object' &&
    body !== null &&
    Object.values(body).some((value) => typeof value === 'string' && value.startsWith(marker))
  );
}

/** What a validator says of a body, as a set: the same verdict means refused (or accepted) for the same reasons. */
function verdictOf(validate: ValidateFunction, body: unknown): string {
  validate(body);
  return [...new Set((validate.errors ?? []).map((error) => `${error.instancePath} ${error.keyword}`))]
    .sort()
    .join('; ');
}

/**
 * The body with the marker at the start of one of its string fields, and the schema's verdict on it
 * unchanged: a valid body stays valid, an invalid one is refused for the same reasons (a service that
 * wrongly accepts it leaves a marked record too). Lengths are kept where possible: a field long enough
 * gets its first characters replaced (a length boundary stays one); else an absent optional field
 * carries the marker alone; else a field with room gets it as a prefix. A body with no field that can
 * carry it (not an object, or every change alters the verdict) is returned as it is.
 * @example markedBody({ $ref: '#/components/schemas/NewCategory' }, { name: 'x' }, 'ct5-') // { name: 'x', description: 'ct5-' }
 */
export function markedBody(schema: JsonSchema, body: unknown, marker: string): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || carriesMarker(body, marker)) return body;
  const validate = specValidators().schema(schema);
  const verdict = verdictOf(validate, body);
  const target = resolveSchema(schema);
  const properties = (target.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((target.required ?? []) as string[]);
  const fields = Object.keys(properties)
    .filter((name) => {
      const property = resolveSchema(properties[name]!);
      return property.type === 'string' && property.format === undefined;
    })
    .sort((a, b) => Number(required.has(b)) - Number(required.has(a)));
  const record = body as Body;
  const markLength = codePoints(marker).length;
  const text = (name: string) => (typeof record[name] === 'string' ? (record[name] as string) : undefined);
  const attempts: Array<[string, string]> = [
    ...fields.flatMap((name): Array<[string, string]> => {
      const value = text(name);
      return value !== undefined && codePoints(value).length >= markLength
        ? [[name, marker + codePoints(value).slice(markLength).join('')]]
        : [];
    }),
    ...fields.filter((name) => !(name in record)).map((name): [string, string] => [name, marker]),
    ...fields.flatMap((name): Array<[string, string]> => {
      const value = text(name);
      return value !== undefined ? [[name, marker + value]] : [];
    }),
  ];
  for (const [name, value] of attempts) {
    const marked = { ...record, [name]: value };
    if (verdictOf(validate, marked) === verdict) return marked;
  }
  return body;
}
