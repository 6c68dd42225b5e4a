import { readFileSync } from 'node:fs';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { parse } from 'yaml';
import { excerpt } from './errors.js';
import type { NewCategory } from './store.js';

// ajv-formats is CommonJS whose `module.exports` is the plugin itself.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/** The interface specification, the single source of the request-body schema. */
const SPEC_URL = new URL('../../../spec/openapi.yaml', import.meta.url);
const COMPONENT_REF = '#/components/schemas/';

/** Points the spec's `#/components/schemas/X` references at `#/$defs/X`. */
function toDefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toDefs);
  if (typeof node !== 'object' || node === null) return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) =>
      key === '$ref' && typeof value === 'string' && value.startsWith(COMPONENT_REF)
        ? [key, `#/$defs/${value.slice(COMPONENT_REF.length)}`]
        : [key, toDefs(value)],
    ),
  );
}

let validateNewCategory: ValidateFunction<NewCategory> | undefined;

/**
 * The validator of `#/components/schemas/NewCategory`, compiled once from the spec (OpenAPI 3.1
 * schemas are JSON Schema 2020-12). The spec's component schemas become `$defs` of one schema so
 * that their references resolve; Ajv's strict mode and defaults are kept.
 */
export function newCategoryValidator(): ValidateFunction<NewCategory> {
  if (validateNewCategory === undefined) {
    const spec = parse(readFileSync(SPEC_URL, 'utf8')) as {
      components: { schemas: Record<string, unknown> };
    };
    const ajv = new Ajv2020();
    addFormats(ajv);
    validateNewCategory = ajv.compile<NewCategory>({
      $defs: toDefs(spec.components.schemas),
      $ref: '#/$defs/NewCategory',
    });
  }
  return validateNewCategory;
}

/** Names the field and what is wrong with it, e.g. "body: name is required". */
export function describeBodyError(error: ErrorObject | undefined): string {
  if (error === undefined) return 'body: is not a valid NewCategory';
  const path = error.instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
  const field = (name: string): string => excerpt(path === '' ? name : `${path}.${name}`);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `body: ${field(String(params.missingProperty))} is required`;
    case 'additionalProperties':
      return `body: ${field(String(params.additionalProperty))} is not an allowed property`;
    case 'pattern':
      if (params.pattern === '\\S') {
        return `body: ${path} must contain a character other than whitespace`;
      }
      break;
    case 'type':
      return `body: ${subject(path)}must be ${withArticle(String(params.type))}`;
  }
  return `body: ${subject(path)}${error.message ?? 'is not valid'}`;
}

function subject(path: string): string {
  return path === '' ? '' : `${path} `;
}

function withArticle(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}
