import { specDocument } from '../../spec/spec-artifacts.js';

/** Where the one OpenAPI document lives; everything the suite expects is read from it. */
export { SPEC_PATH } from '../../spec/spec-artifacts.js';

/** A JSON Schema as it appears in the document (still holding `#/components/schemas/...` refs). */
export type JsonSchema = Record<string, unknown>;

/** A response header the spec documents for one status of one operation. */
export interface DocumentedHeader {
  name: string;
  required: boolean;
  schema: JsonSchema;
  /** The header's `example`, if the spec gives one. */
  example?: unknown;
}

/** One documented status of one operation. */
export interface DocumentedResponse {
  status: string;
  headers: DocumentedHeader[];
  /** Media type (e.g. `application/json`) to its body schema. */
  content: Record<string, JsonSchema>;
  /** `x-order-by`: the field a list answer is sorted on, ascending ("in ascending id order"). */
  orderedBy?: string;
  /** `x-paginated: false`: a list answer holds every record ("Not paginated"). */
  complete?: boolean;
}

/** A parameter of an operation (path, query or header), `$ref` resolved. */
export interface DocumentedParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema: JsonSchema;
  /** The parameter's `example`, else its schema's first `examples` entry. */
  example?: unknown;
}

/** The request body of an operation: media type to schema, and examples to build valid requests from. */
export interface DocumentedRequestBody {
  required: boolean;
  /** `x-max-body-bytes`: a larger body is refused with 413 ("Bodies over 16 KiB are refused"). */
  maxBytes?: number;
  content: Record<string, JsonSchema>;
  examples: unknown[];
}

/** One operation of the spec, with its `$ref`s to responses and headers resolved. */
export interface DocumentedOperation {
  operationId: string;
  method: string;
  /** The path template without the base address, e.g. `/pets/{petId}`. */
  path: string;
  deprecated: boolean;
  /** The `x-sunset` instant (ISO 8601) of a deprecated operation. */
  sunset?: string;
  parameters: DocumentedParameter[];
  requestBody?: DocumentedRequestBody;
  responses: Record<string, DocumentedResponse>;
  /** `x-operation-kind` (read, create, replace, delete): what the operation does, where its method cannot say. */
  declaredKind?: string;
}

/** The parts of the document the suite reads: its operations with every `$ref` resolved. */
export interface SpecDocument {
  operations: Record<string, DocumentedOperation>;
  schemas: Record<string, JsonSchema>;
}

type Node = Record<string, unknown>;

function resolveRef(root: Node, node: Node): Node {
  const ref = node.$ref;
  if (typeof ref !== 'string') return node;
  const target = ref
    .replace(/^#\//, '')
    .split('/')
    .reduce<unknown>((at, key) => (at as Node | undefined)?.[key], root);
  if (typeof target !== 'object' || target === null) throw new Error(`spec: unresolved $ref ${ref}`);
  return resolveRef(root, target as Node);
}

function documentedResponse(root: Node, status: string, raw: Node): DocumentedResponse {
  const response = resolveRef(root, raw);
  const headers = Object.entries((response.headers ?? {}) as Record<string, Node>).map(([name, header]) => {
    const resolved = resolveRef(root, header);
    return {
      name,
      required: resolved.required === true,
      schema: (resolved.schema ?? {}) as JsonSchema,
      ...(resolved.example !== undefined && { example: resolved.example }),
    };
  });
  const content = Object.fromEntries(
    Object.entries((response.content ?? {}) as Record<string, Node>).map(([media, entry]) => [
      media,
      (entry.schema ?? {}) as JsonSchema,
    ]),
  );
  return {
    status,
    headers,
    content,
    ...(typeof response['x-order-by'] === 'string' && { orderedBy: response['x-order-by'] }),
    ...(response['x-paginated'] === false && { complete: true }),
  };
}

function documentedParameters(root: Node, raw: unknown[]): DocumentedParameter[] {
  return raw.map((entry) => {
    const parameter = resolveRef(root, entry as Node);
    const schema = (parameter.schema ?? {}) as JsonSchema;
    const resolvedSchema = resolveRef(root, schema);
    const example =
      parameter.example ?? (Array.isArray(resolvedSchema.examples) ? resolvedSchema.examples[0] : undefined);
    return {
      name: String(parameter.name),
      in: parameter.in as DocumentedParameter['in'],
      required: parameter.required === true,
      schema,
      ...(example !== undefined && { example }),
    };
  });
}

function documentedRequestBody(root: Node, raw: Node | undefined): DocumentedRequestBody | undefined {
  if (!raw) return undefined;
  const body = resolveRef(root, raw);
  const entries = Object.entries((body.content ?? {}) as Record<string, Node>);
  return {
    required: body.required === true,
    ...(typeof body['x-max-body-bytes'] === 'number' && { maxBytes: body['x-max-body-bytes'] }),
    content: Object.fromEntries(entries.map(([media, entry]) => [media, (entry.schema ?? {}) as JsonSchema])),
    examples: entries.flatMap(([, entry]) => [
      ...(entry.example !== undefined ? [entry.example] : []),
      ...Object.values((entry.examples ?? {}) as Record<string, Node>).map(
        (example) => resolveRef(root, example).value,
      ),
    ]),
  };
}

/**
 * Reads an OpenAPI document's operations and schemas, every `$ref` resolved.
 * @example readSpecDocument(parse(readFileSync('openapi.yaml', 'utf8')))
 */
export function readSpecDocument(document: object): SpecDocument {
  const root = document as Node;
  const operations: Record<string, DocumentedOperation> = {};
  for (const [path, item] of Object.entries(root.paths as Record<string, Node>)) {
    const pathParameters = (item.parameters ?? []) as unknown[];
    for (const [method, raw] of Object.entries(item)) {
      const operation = raw as Node;
      if (typeof operation !== 'object' || typeof operation.operationId !== 'string') continue;
      const requestBody = documentedRequestBody(root, operation.requestBody as Node | undefined);
      const responses = Object.fromEntries(
        Object.entries(operation.responses as Record<string, Node>).map(([status, response]) => [
          status,
          documentedResponse(root, status, response),
        ]),
      );
      operations[operation.operationId] = {
        operationId: operation.operationId,
        method: method.toUpperCase(),
        path,
        deprecated: operation.deprecated === true,
        ...(typeof operation['x-sunset'] === 'string' ? { sunset: operation['x-sunset'] } : {}),
        ...(typeof operation['x-operation-kind'] === 'string' && { declaredKind: operation['x-operation-kind'] }),
        parameters: documentedParameters(root, [...pathParameters, ...((operation.parameters ?? []) as unknown[])]),
        ...(requestBody && { requestBody }),
        responses,
      };
    }
  }
  const schemas = ((root.components as Node).schemas ?? {}) as Record<string, JsonSchema>;
  return { operations, schemas };
}

let loaded: SpecDocument | undefined;

/**
 * The spec's operations and schemas as the suite reads them, built once per process from the document
 * `spec/spec-artifacts.ts` provides.
 * @example documentedSpec().operations.listCategories.responses['200']
 */
export function documentedSpec(): SpecDocument {
  loaded ??= readSpecDocument(specDocument());
  return loaded;
}

/**
 * The operation, or an error naming the ids that exist (a typo in a check must fail loudly).
 * @example documentedOperation('createCategory').method // 'POST'
 */
export function documentedOperation(operationId: string): DocumentedOperation {
  const operation = documentedSpec().operations[operationId];
  if (!operation) {
    const known = Object.keys(documentedSpec().operations).join(', ');
    throw new Error(`spec: no operation "${operationId}"; the spec has ${known}`);
  }
  return operation;
}

/**
 * A schema with its `$ref` to `#/components/schemas/...` followed (the target may hold refs deeper down).
 * @example resolveSchema({ $ref: '#/components/schemas/CategoryName' }).maxLength // 100
 */
export function resolveSchema(schema: JsonSchema): JsonSchema {
  const ref = schema.$ref;
  if (typeof ref !== 'string') return schema;
  const target = documentedSpec().schemas[ref.replace('#/components/schemas/', '')];
  if (!target) throw new Error(`spec: unresolved $ref ${ref}`);
  return resolveSchema(target);
}
