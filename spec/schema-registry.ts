import { _, Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import standaloneCodeModule from 'ajv/dist/standalone/index.js';

// ajv-formats is CommonJS; under NodeNext its default export arrives wrapped.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;
const standaloneCode = standaloneCodeModule as unknown as typeof standaloneCodeModule.default;

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

/** Validators of the spec's component schemas by name: compiled at run time or at build time. */
export interface SchemaValidators {
  /** The validator of `components/schemas/<name>`; throws naming the schema when there is none. */
  validator(name: string): ValidateFunction;
}

/**
 * The spec's component schemas compiled by one ajv (JSON Schema 2020-12, ajv-formats with int32/int64).
 * Validators are compiled once per schema and cached.
 * @example new SchemaRegistry(document).validator('NewCategory')(body)
 */
export class SchemaRegistry implements SchemaValidators {
  readonly ajv: Ajv2020;
  readonly #validators = new Map<string, ValidateFunction>();
  readonly #names: string[];

  constructor(document: OpenApiDocument, options: { standalone?: boolean } = {}) {
    // validateSchema off: checking the document against the 2020-12 meta-schema first costs a third of
    // the fake's start-up, and `npm test` already validates the whole document against the OpenAPI 3.1
    // schema; strict mode still refuses any keyword ajv does not know.
    this.ajv = new Ajv2020({
      allErrors: true,
      strict: true,
      validateSchema: false,
      // Standalone code refers to the formats by module rather than holding the functions.
      ...(options.standalone && {
        code: { source: true, esm: true, formats: _`require("ajv-formats/dist/formats").fullFormats` },
      }),
    });
    addFormats(this.ajv);
    this.#names = Object.keys(document.components.schemas);
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

  /**
   * An ES module exporting one validator per component schema, under the schema's name: what the
   * package build inlines instead of compiling at start-up. Needs `{ standalone: true }`.
   */
  standaloneModule(): string {
    const refs = Object.fromEntries(this.#names.map((name) => [name, `${REGISTRY_ID}#/$defs/${name}`]));
    return standaloneCode(this.ajv, refs);
  }

  /** Compiles a schema taken from elsewhere in the document (a response's, a parameter's); cache the result. */
  compile(schema: unknown): ValidateFunction {
    return this.ajv.compile(rewriteRefs(schema, `${REGISTRY_ID}#/$defs/`) as object);
  }
}
