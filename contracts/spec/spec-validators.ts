import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { documentedOperation, loadSpecDocument, type DocumentedResponse, type JsonSchema } from './spec-document.js';

// ajv-formats is CommonJS; under NodeNext its default import is the module object.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

const COMPONENTS_ID = 'https://petstore.example.com/contract/components.json';
// JSON numbers arrive as doubles: 2^63 - 1 itself parses as 2^63, so the bounds are the doubles' ones.
const INT64_MIN = -(2 ** 63);
const INT64_MAX = 2 ** 63;

// The spec refers to `#/components/schemas/X`; the schemas are registered once under their own $id.
function withComponentRefs(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withComponentRefs);
  if (typeof schema !== 'object' || schema === null) return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) =>
      key === '$ref' && typeof value === 'string'
        ? [key, value.replace('#/components/schemas/', `${COMPONENTS_ID}#/$defs/`)]
        : [key, withComponentRefs(value)],
    ),
  );
}

function integerFormat(min: number, max: number) {
  return {
    type: 'number' as const,
    validate: (value: number) => Number.isInteger(value) && value >= min && value <= max,
  };
}

function createAjv(schemas: Record<string, JsonSchema>): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  addFormats(ajv);
  ajv.addFormat('int64', integerFormat(INT64_MIN, INT64_MAX));
  ajv.addFormat('int32', integerFormat(-(2 ** 31), 2 ** 31 - 1));
  ajv.addSchema({ $id: COMPONENTS_ID, $defs: withComponentRefs(schemas) });
  return ajv;
}

/** One violation of a schema, as a line a person reads: `/0/id must be integer`. */
export function describeSchemaErrors(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((error) => {
    const at = error.instancePath === '' ? 'body' : error.instancePath;
    const extra = error.keyword === 'additionalProperties' ? ` (${String(error.params.additionalProperty)})` : '';
    return `${at} ${error.message ?? error.keyword}${extra}`;
  });
}

/**
 * Validators compiled from the spec, once per operation + status + media type (or header) and cached.
 * @example specValidators().body('listCategories', '200', 'application/json')?.(json)
 */
export class SpecValidators {
  readonly #ajv = createAjv(loadSpecDocument().schemas);
  readonly #cache = new Map<string, ValidateFunction>();

  #compiled(key: string, schema: JsonSchema): ValidateFunction {
    let validate = this.#cache.get(key);
    if (!validate) {
      validate = this.#ajv.compile(withComponentRefs(schema) as JsonSchema);
      this.#cache.set(key, validate);
    }
    return validate;
  }

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
    return this.#compiled(`${operationId} ${response.status} ${mediaType}`, schema);
  }

  /** A named component schema's validator, e.g. `NewCategory` or `Error`. */
  component(name: string): ValidateFunction {
    const schema = loadSpecDocument().schemas[name];
    if (!schema) throw new Error(`spec: no component schema "${name}"`);
    return this.#compiled(`component ${name}`, { $ref: `#/components/schemas/${name}` });
  }

  /** The validator of one documented header's (already parsed) value. */
  header(operationId: string, status: string, name: string, schema: JsonSchema): ValidateFunction {
    return this.#compiled(`${operationId} ${status} header ${name}`, schema);
  }
}

let shared: SpecValidators | undefined;

/** The process-wide validators: the spec is compiled once, whatever the number of checks or targets. */
export function specValidators(): SpecValidators {
  shared ??= new SpecValidators();
  return shared;
}
