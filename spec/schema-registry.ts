import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS; under NodeNext its default export arrives wrapped.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/** The parts of an OpenAPI document this project reads. */
export interface OpenApiDocument {
  openapi: string;
  info: { version: string };
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, unknown>; [section: string]: unknown };
  [key: string]: unknown;
}

const REGISTRY_ID = 'https://petstore.example.com/openapi.json';
const COMPONENT_REF = /^#\/components\/schemas\//;

/** Rewrites `#/components/schemas/X` refs to `<prefix>X`, so ajv can hold every component in one schema. */
function rewriteRefs(node: unknown, prefix: string): unknown {
  if (Array.isArray(node)) return node.map((item) => rewriteRefs(item, prefix));
  if (typeof node !== 'object' || node === null) return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [
      key,
      key === '$ref' && typeof value === 'string' ? value.replace(COMPONENT_REF, prefix) : rewriteRefs(value, prefix),
    ]),
  );
}

/**
 * The spec's component schemas compiled by one ajv (JSON Schema 2020-12, ajv-formats with int32/int64).
 * Validators are compiled once per schema and cached.
 * @example new SchemaRegistry(document).validator('NewCategory')(body)
 */
export class SchemaRegistry {
  readonly ajv: Ajv2020;
  readonly #validators = new Map<string, ValidateFunction>();

  constructor(document: OpenApiDocument) {
    // validateSchema off: checking the document against the 2020-12 meta-schema first costs a third of
    // the fake's start-up, and `npm test` already validates the whole document against the OpenAPI 3.1
    // schema; strict mode still refuses any keyword ajv does not know.
    this.ajv = new Ajv2020({ allErrors: true, strict: true, validateSchema: false });
    addFormats(this.ajv);
    this.ajv.addSchema({ $id: REGISTRY_ID, $defs: rewriteRefs(document.components.schemas, '#/$defs/') });
  }

  /** The validator of `components/schemas/<name>`. */
  validator(name: string): ValidateFunction {
    let validate = this.#validators.get(name);
    if (!validate) {
      validate = this.ajv.getSchema(`${REGISTRY_ID}#/$defs/${name}`);
      if (!validate) throw new Error(`[petstore] spec/openapi.yaml has no schema components/schemas/${name}`);
      this.#validators.set(name, validate);
    }
    return validate;
  }

  /** Compiles a schema taken from elsewhere in the document (a response's, a parameter's); cache the result. */
  compile(schema: unknown): ValidateFunction {
    return this.ajv.compile(rewriteRefs(schema, `${REGISTRY_ID}#/$defs/`) as object);
  }
}

/**
 * One line naming every problem ajv found, with the field path, e.g. `body: name is required`.
 * @example describeSchemaErrors(validate.errors, 'body')
 */
export function describeSchemaErrors(errors: readonly ErrorObject[] | null | undefined, subject: string): string {
  if (!errors || errors.length === 0) return `${subject}: invalid`;
  // A hostile body can break a rule thousands of times; the first few name the problem well enough.
  const named = errors.slice(0, MAX_NAMED_ERRORS).map((error) => describeSchemaError(error, subject));
  const more = errors.length - named.length;
  return named.join('; ') + (more > 0 ? `; and ${more} more` : '');
}

const MAX_NAMED_ERRORS = 5;

function describeSchemaError(error: ErrorObject, subject: string): string {
  const field = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const at = field ? `${field} ` : '';
  switch (error.keyword) {
    case 'required':
      return `${subject}: ${field ? `${field}.` : ''}${(error.params as { missingProperty: string }).missingProperty} is required`;
    case 'additionalProperties':
      return `${subject}: ${field ? `${field}.` : ''}${(error.params as { additionalProperty: string }).additionalProperty} is not an allowed field`;
    case 'pattern': {
      const { pattern } = error.params as { pattern: string };
      // `\S` is how the spec says "not only whitespace"; say it in words.
      return `${subject}: ${at}${pattern === '\\S' ? 'must not be blank' : `must match ${pattern}`}`;
    }
    default:
      return `${subject}: ${at}${error.message ?? 'is invalid'}`;
  }
}
