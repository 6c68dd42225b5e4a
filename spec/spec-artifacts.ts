import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { SchemaRegistry, type OpenApiDocument, type SchemaValidators } from './schema-registry.js';

// What the code needs from the spec, read from spec/openapi.yaml when the sources run (tests, tsx).
// The package build replaces this module with one that inlines the parsed document and the validators
// ajv compiled to code at build time (scripts/build/spec-artifacts-plugin.ts): same exports, no YAML
// parser and no schema compiler at start-up.

/**
 * Where the single source of truth lives; env `PETSTORE_SPEC` names another document (a grown copy, to
 * try the suite on operations the spec does not have yet). Read from the sources only: a build inlines the spec.
 */
// Through `../spec/` so that the path holds both from this file and from a bundle one folder below
// the package root (dist/): the spec is read where it lives, never copied.
export const SPEC_PATH = process.env.PETSTORE_SPEC
  ? resolve(process.env.PETSTORE_SPEC)
  : fileURLToPath(new URL('../spec/openapi.yaml', import.meta.url));

let document: OpenApiDocument | undefined;
let validators: SchemaValidators | undefined;

/**
 * The parsed spec, read once per process.
 * @example specDocument().paths['/categories']
 */
export function specDocument(): OpenApiDocument {
  document ??= parse(readFileSync(SPEC_PATH, 'utf8')) as OpenApiDocument;
  return document;
}

/**
 * The validators of the spec's component schemas, compiled once per process.
 * @example specValidators().validator('NewCategory')(body)
 */
export function specValidators(): SchemaValidators {
  validators ??= new SchemaRegistry(specDocument());
  return validators;
}
