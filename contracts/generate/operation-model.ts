import fc from 'fast-check';
import {
  documentedSpec,
  resolveSchema,
  type DocumentedOperation,
  type DocumentedParameter,
  type JsonSchema,
  type SpecDocument,
} from '../core/spec-document.js';
import type { ContractRequest } from '../core/exchange.js';
import { boundaryValues, validValues } from './valid-values.js';

/**
 * What an operation does to the records of its collection: reads them, creates one, replaces one, or
 * deletes one. Read from the method (RFC 9110 §9.3: GET and HEAD read, POST creates, PUT and PATCH
 * replace, DELETE deletes); `x-operation-kind` says it where the method cannot (a POST that searches).
 */
export type OperationKind = 'read' | 'create' | 'replace' | 'delete';

const OPERATION_KINDS: readonly OperationKind[] = ['read', 'create', 'replace', 'delete'];

const KIND_OF_METHOD: Readonly<Record<string, OperationKind>> = {
  GET: 'read',
  HEAD: 'read',
  POST: 'create',
  PUT: 'replace',
  PATCH: 'replace',
  DELETE: 'delete',
};

/**
 * The kind of an operation: its `x-operation-kind`, else its method's.
 * @example kindOf(documentedOperation('createCategory')) // 'create'
 */
export function kindOf(operation: DocumentedOperation): OperationKind {
  const declared = operation.declaredKind;
  if (declared !== undefined && !(OPERATION_KINDS as readonly string[]).includes(declared))
    throw new Error(
      `spec: ${operation.operationId} has x-operation-kind "${declared}"; it must be one of ${OPERATION_KINDS.join(', ')}`,
    );
  const kind = (declared as OperationKind | undefined) ?? KIND_OF_METHOD[operation.method];
  if (!kind)
    throw new Error(
      `spec: ${operation.operationId} is a ${operation.method}, whose kind the suite cannot tell: add x-operation-kind (${OPERATION_KINDS.join(', ')})`,
    );
  return kind;
}

/** What the generated checks know of one operation, all of it read from the spec. */
export interface OperationModel {
  operation: DocumentedOperation;
  /** What it does to its collection's records. */
  kind: OperationKind;
  /** A read: a request changes nothing, so any target may take it. */
  safe: boolean;
  pathParameters: DocumentedParameter[];
  /** The `application/json` request body's schema, when the operation takes one. */
  bodySchema?: JsonSchema;
  /** The first documented 2xx. */
  successStatus: number;
  /**
   * The list of the collection the operation acts on, a GET answering a JSON array: on the same path for a
   * create (of the schema it answers), on the path one `{parameter}` up for an operation on one record.
   */
  listedBy?: DocumentedOperation;
}

const JSON_MEDIA = 'application/json';

export function successOf(operation: DocumentedOperation): string | undefined {
  return Object.keys(operation.responses).find((status) => /^2\d\d$/.test(status));
}

function schemaName(schema: JsonSchema | undefined): string | undefined {
  return typeof schema?.$ref === 'string' ? schema.$ref : undefined;
}

/** The path of the collection an operation on one record acts on: `/categories` for `/categories/{categoryId}`. */
const collectionPath = (path: string) => /^(.+)\/\{[^}/]+\}$/.exec(path)?.[1];

function listOperationFor(
  operation: DocumentedOperation,
  kind: OperationKind,
  operations: DocumentedOperation[],
): DocumentedOperation | undefined {
  const onRecord = kind !== 'create' && collectionPath(operation.path);
  const path = onRecord || operation.path;
  // Whatever holds the record an operation answers is a list of that schema; a delete answers none.
  const answered = schemaName(operation.responses[successOf(operation) ?? '']?.content[JSON_MEDIA]);
  return operations.find((candidate) => {
    if (candidate.method !== 'GET' || candidate.path !== path || candidate === operation) return false;
    const items = candidate.responses[successOf(candidate) ?? '']?.content[JSON_MEDIA];
    return items?.type === 'array' && (answered === undefined || schemaName(items.items as JsonSchema) === answered);
  });
}

/**
 * Every operation of the spec as the generated checks see it: an operation added to the spec is
 * covered without new code.
 * @example operationModels().filter((model) => model.safe)
 */
export function operationModels(spec: SpecDocument = documentedSpec()): OperationModel[] {
  const operations = Object.values(spec.operations);
  return operations.flatMap((operation) => {
    const success = successOf(operation);
    if (!success) return [];
    const kind = kindOf(operation);
    const bodySchema = operation.requestBody?.content[JSON_MEDIA];
    const listedBy = listOperationFor(operation, kind, operations);
    return [
      {
        operation,
        kind,
        safe: kind === 'read',
        pathParameters: operation.parameters.filter((parameter) => parameter.in === 'path'),
        ...(bodySchema && { bodySchema }),
        successStatus: Number(success),
        ...(listedBy && { listedBy }),
      },
    ];
  });
}

/** A path parameter's value as it goes in the URL: integers exactly (int64 is past a double), the rest encoded. */
export function pathValue(value: unknown): string {
  return typeof value === 'bigint' || typeof value === 'number' ? String(value) : encodeURIComponent(String(value));
}

/** The path with each `{name}` replaced by the (already URL-ready) value given, else the parameter's example. */
export function pathOf(model: OperationModel, values: Record<string, string> = {}): string {
  return model.operation.path.replace(/\{([^}]+)\}/g, (_whole, name: string) => {
    if (values[name] !== undefined) return values[name];
    const parameter = model.pathParameters.find((candidate) => candidate.name === name);
    return pathValue(parameter?.example ?? boundaryValues(parameter?.schema ?? {})[0] ?? 1);
  });
}

/** A valid request for the operation: the parameters' examples and the body's first documented example. */
export function exampleRequest(model: OperationModel, changes: Partial<ContractRequest> = {}): ContractRequest {
  const body =
    model.operation.requestBody?.examples[0] ??
    (model.bodySchema ? fc.sample(validValues(model.bodySchema), { numRuns: 1, seed: 0 })[0] : undefined);
  return { method: model.operation.method, path: pathOf(model), ...(body !== undefined && { json: body }), ...changes };
}

/** Generated values and the fixed examples always tried first. */
export interface GeneratedValues<T> {
  any: fc.Arbitrary<T>;
  examples: T[];
}

function integerRange(parameter: DocumentedParameter): { min: bigint; max: bigint } | undefined {
  const schema = resolveSchema(parameter.schema);
  if (schema.type !== 'integer') return undefined;
  const min = BigInt(typeof schema.minimum === 'number' ? schema.minimum : Number.MIN_SAFE_INTEGER);
  // The spec's int64 maximum is written in full; read from the document it is a double, so use the format's.
  const max =
    schema.format === 'int64'
      ? 2n ** 63n - 1n
      : BigInt(typeof schema.maximum === 'number' ? schema.maximum : Number.MAX_SAFE_INTEGER);
  return { min, max };
}

/** Valid path parameter values, as text: integers across the whole documented range (int64 included, exactly), the ends first. */
export function validPathValues(parameter: DocumentedParameter): GeneratedValues<string> {
  const range = integerRange(parameter);
  if (!range) return { any: validValues(parameter.schema).map(pathValue), examples: [] };
  const { min, max } = range;
  return {
    any: fc.oneof(fc.bigInt({ min, max: min + 1000n }), fc.bigInt({ min, max })).map(String),
    examples: [String(min), String(max)],
  };
}

// Integers as lenient parsers read them, and other scripts' digits (Python's int() takes them all).
const NOT_INTEGERS = [
  '1.5',
  '0x10',
  '1e3',
  '1_000',
  '%201',
  '1%20',
  '%D9%A1',
  '%EF%BC%91',
  'NaN',
  'null',
  'true',
  '1abc',
];

/**
 * Path parameter values the schema refuses, as URL-ready text: below the minimum, past int64, fractions,
 * hexadecimal and exponents, padded, digits of other scripts, and arbitrary text. Never empty, `.` or `..`
 * (those change which route the request takes).
 */
export function invalidPathValues(parameter: DocumentedParameter): GeneratedValues<{ breaks: string; value: string }> {
  const range = integerRange(parameter);
  if (!range) return { any: fc.constant({ breaks: 'a value of another type', value: '%7B%7D' }), examples: [] };
  const { min, max } = range;
  const text = fc
    .string({ minLength: 1, maxLength: 12, unit: 'grapheme' })
    .filter((value) => value !== '.' && value !== '..' && !/^\d+$/.test(value));
  return {
    any: fc.oneof(
      fc
        .bigInt({ min: min - 10n ** 20n, max: min - 1n })
        .map((value) => ({ breaks: `minimum ${min}`, value: String(value) })),
      fc
        .bigInt({ min: max + 1n, max: max + 10n ** 20n })
        .map((value) => ({ breaks: `maximum ${max}`, value: String(value) })),
      text.map((value) => ({ breaks: 'not an integer', value: encodeURIComponent(value) })),
    ),
    examples: [
      { breaks: `minimum ${min}`, value: String(min - 1n) },
      { breaks: `maximum ${max}`, value: String(max + 1n) },
      ...NOT_INTEGERS.map((value) => ({ breaks: 'not an integer', value })),
    ],
  };
}
