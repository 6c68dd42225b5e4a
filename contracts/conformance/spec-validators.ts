import type { ErrorObject, ValidateFunction } from 'ajv';
import { specDocument, specValidators as componentValidators } from '../../spec/spec-artifacts.js';
import { SchemaRegistry, type SchemaValidators } from '../../spec/schema-registry.js';
import {
  documentedOperation,
  documentedSpec,
  type DocumentedResponse,
  type JsonSchema,
} from '../core/spec-document.js';

/** Every violation of a schema, one line each as a report shows them: `/0/id must be integer`. */
export function schemaViolations(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((error) => {
    const at = error.instancePath === '' ? 'body' : error.instancePath;
    const extra = error.keyword === 'additionalProperties' ? ` (${String(error.params.additionalProperty)})` : '';
    return `${at} ${error.message ?? error.keyword}${extra}`;
  });
}

/**
 * Validators compiled from the spec, once per schema object and cached.
 * @example specValidators().body('listCategories', '200', 'application/json')?.(json)
 */
export class SpecValidators {
  // The component schemas are the fake's own validators, compiled once per process (and at build time in
  // the bundles), not a second time here; the same ajv set-up (2020-12, ajv-formats' int32/int64,
  // component refs) compiles any other schema of the document, on the fake's registry when the sources
  // run, on one of its own when the components came precompiled.
  readonly #components: SchemaValidators = componentValidators();
  #compiler: SchemaRegistry | undefined;
  // By schema object: a proxy asks for validators on every exchange, and a lookup by identity costs
  // nothing where one by a key built from the operation, status and media type would build the key first.
  readonly #bySchema = new WeakMap<JsonSchema, ValidateFunction>();

  /** The documented response for a status, falling back to the spec's `4XX`/`default` entries. */
  response(operationId: string, status: number): DocumentedResponse | undefined {
    const { responses } = documentedOperation(operationId);
    return responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default;
  }

  /** The statuses the operation documents, e.g. `['200', '401', '429']`. */
  documentedStatuses(operationId: string): string[] {
    return Object.keys(documentedOperation(operationId).responses);
  }

  /** The body validator for a documented status and media type, or undefined when none is documented. */
  body(operationId: string, status: number, mediaType: string): ValidateFunction | undefined {
    const response = this.response(operationId, status);
    const schema = response?.content[mediaType];
    if (!response || !schema) return undefined;
    return this.schema(schema);
  }

  /** A named component schema's validator, e.g. `NewCategory` or `Error`. */
  component(name: string): ValidateFunction {
    if (!documentedSpec().schemas[name]) throw new Error(`spec: no component schema "${name}"`);
    return this.#components.validator(name);
  }

  /** The validator of any schema of the document (a property's, a parameter's), compiled once per schema object. */
  schema(schema: JsonSchema): ValidateFunction {
    let validate = this.#bySchema.get(schema);
    if (!validate) {
      this.#compiler ??=
        this.#components instanceof SchemaRegistry ? this.#components : new SchemaRegistry(specDocument());
      validate = this.#compiler.compile(schema);
      this.#bySchema.set(schema, validate);
    }
    return validate;
  }
}

let shared: SpecValidators | undefined;

/** The process-wide validators: the spec is compiled once, whatever the number of checks or targets. */
export function specValidators(): SpecValidators {
  shared ??= new SpecValidators();
  return shared;
}
