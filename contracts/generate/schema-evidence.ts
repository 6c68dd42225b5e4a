import type { ErrorObject } from 'ajv';
import type { Capability } from '../core/capabilities.js';
import type { ContractRequest } from '../core/exchange.js';
import {
  documentedSpec,
  resolveSchema,
  type DocumentedOperation,
  type JsonSchema,
  type SpecDocument,
} from '../core/spec-document.js';
import { specValidators } from '../conformance/spec-validators.js';
import { characterClassesOf } from './unicode.js';
import { characterClassValues, integerBounds } from './valid-values.js';

/**
 * One thing a run must try on every target, whatever its budget: a keyword of a schema a request
 * carries broken on its own (`keyword`), a class of valid value sent (`value`: a boundary, a class of
 * character, an optional member left out), a rule of the table put to the test (`rule`), or requests
 * from several clients at once (`concurrency`).
 */
export interface EvidenceEntry {
  id: string;
  kind: 'keyword' | 'value' | 'rule' | 'concurrency' | 'method' | 'hazard' | 'surrounding';
  /** What a target must permit for the entry to be tried there (a URL without `--allow writes` takes no body). */
  needs: readonly Capability[];
  /** The operation whose requests try it, for a keyword or a value (`--operations` may leave it out). */
  operationId?: string;
  /** What it varies, for the catalogue's counts: the kind, or an element's place (`header`, `query`, `path`, `framing`). */
  axis?: string;
  /** Where it comes from: the spec, HTTP's grammar and registries, or a list the suite keeps. */
  source?: 'spec' | 'grammar' | 'listed';
}

// Keywords whose breaking is its own evidence; `type` and nullability are entries of every schema.
const STRING_KEYWORDS = ['minLength', 'maxLength', 'pattern', 'enum', 'format'] as const;
const NUMBER_KEYWORDS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'] as const;
const ARRAY_KEYWORDS = ['minItems', 'maxItems', 'uniqueItems'] as const;

function typesOf(schema: JsonSchema): string[] {
  if (Array.isArray(schema.type)) return schema.type as string[];
  return typeof schema.type === 'string' ? [schema.type] : [];
}

/** `createCategory body.name`, `getPetById path petId`: where in a request a value sits. */
const at = (where: string, instancePath: string) =>
  `${where}${instancePath
    .split('/')
    .slice(1)
    .map((part) => (/^\d+$/.test(part) ? '[]' : `.${part}`))
    .join('')}`;

/** The entries one schema (at `where`) gives: each keyword, null, and each class of valid value. */
function schemaEntries(schema: JsonSchema, where: string, needs: readonly Capability[]): EvidenceEntry[] {
  const target = resolveSchema(schema);
  const keyword = (name: string): EvidenceEntry => ({ id: `${where}: ${name}`, kind: 'keyword', needs });
  const value = (name: string): EvidenceEntry => ({ id: `${where}: ${name}`, kind: 'value', needs });
  const types = typesOf(target);
  const entries: EvidenceEntry[] = [];
  if (types.length > 0) entries.push(keyword('type'));
  // Nullability: null sent where the schema allows it, or where it must be refused.
  entries.push(keyword('null'));
  if (Array.isArray(target.enum)) entries.push(keyword('enum'));
  if (types.includes('object')) {
    const properties = (target.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((target.required ?? []) as string[]);
    for (const name of required) entries.push(keyword(`required ${name}`));
    if (target.additionalProperties === false) entries.push(keyword('additionalProperties'));
    for (const [name, property] of Object.entries(properties)) {
      if (!required.has(name)) entries.push(value(`without ${name}`));
      entries.push(...schemaEntries(property, `${where}.${name}`, needs));
    }
  }
  if (types.includes('string')) {
    for (const name of STRING_KEYWORDS)
      if (target[name] !== undefined && !(name === 'minLength' && target.minLength === 0)) entries.push(keyword(name));
    if (target.format === undefined && !Array.isArray(target.enum)) {
      const min = typeof target.minLength === 'number' ? target.minLength : 0;
      for (const length of new Set([min, typeof target.maxLength === 'number' ? target.maxLength : undefined]))
        if (length !== undefined) entries.push(value(`length ${length}`));
      // A class is an entry where the schema takes a string of it (a pattern may refuse one).
      for (const { name } of characterClassValues(target)) entries.push(value(name));
    }
  }
  if (types.includes('integer') || types.includes('number')) {
    for (const name of NUMBER_KEYWORDS) if (target[name] !== undefined) entries.push(keyword(name));
    if (target.minimum !== undefined) entries.push(value('the minimum'));
    if (target.maximum !== undefined) entries.push(value('the maximum'));
  }
  if (types.includes('array')) {
    for (const name of ARRAY_KEYWORDS) if (target[name] !== undefined) entries.push(keyword(name));
    if (target.items) entries.push(...schemaEntries(target.items as JsonSchema, `${where}[]`, needs));
  }
  return entries;
}

const JSON_MEDIA = 'application/json';

/** Reads change nothing, so any target takes them; a body is a write, which a URL takes with `--allow writes`. */
function needsOf(operation: DocumentedOperation): readonly Capability[] {
  return operation.method === 'GET' || operation.method === 'HEAD' ? [] : ['writes'];
}

/**
 * Every keyword and class of value of every schema a request carries (each operation's body and path
 * parameters), derived from the spec before a run: the same list whatever the target, and an operation
 * or property added to the spec gets its entries with no new code.
 * @example schemaEvidence().map(({ id }) => id) // ['createCategory body: type', ..., 'createCategory body.name: cjk', ...]
 */
export function schemaEvidence(spec: SpecDocument = documentedSpec()): EvidenceEntry[] {
  return Object.values(spec.operations).flatMap((operation) => {
    const needs = needsOf(operation);
    const body = operation.requestBody?.content[JSON_MEDIA];
    const entries = [
      ...operation.parameters
        .filter((parameter) => parameter.in === 'path')
        .flatMap((parameter) =>
          schemaEntries(parameter.schema, `${operation.operationId} path ${parameter.name}`, [
            ...needs,
            'exactParameters',
          ]).filter(({ id }) => !id.endsWith(': null')),
        ),
      ...(body ? schemaEntries(body, `${operation.operationId} body`, needs) : []),
    ];
    return entries.map((entry) => ({ ...entry, operationId: operation.operationId }));
  });
}

/** The keywords a set of schema errors names, as entries at `where`. */
function brokenKeywords(errors: readonly ErrorObject[], where: string): string[] {
  return errors.flatMap((error) => {
    const place = at(where, error.instancePath);
    if (error.keyword === 'required') return [`${place}: required ${String(error.params.missingProperty)}`];
    if (error.keyword === 'additionalProperties' || error.keyword === 'unevaluatedProperties')
      return [`${place}: additionalProperties`];
    return [`${place}: ${error.keyword}`];
  });
}

/** The classes of valid value a value holds, walking it with its schema. */
function validValueEntries(schema: JsonSchema, value: unknown, where: string): string[] {
  const target = resolveSchema(schema);
  if (value === null) return [`${where}: null`];
  if (typeof value === 'string') {
    const length = [...value].length;
    const bounds = [target.minLength ?? 0, target.maxLength].filter((bound) => bound === length);
    return [...characterClassesOf(value), ...bounds.map((bound) => `length ${String(bound)}`)].map(
      (name) => `${where}: ${name}`,
    );
  }
  if (typeof value === 'number' || typeof value === 'bigint') {
    const { min, max } = integerBounds(target);
    return [
      ...(target.minimum !== undefined && Number(value) === min ? [`${where}: the minimum`] : []),
      ...(target.maximum !== undefined && Number(value) >= max ? [`${where}: the maximum`] : []),
    ];
  }
  if (Array.isArray(value))
    return value.flatMap((item) => validValueEntries((target.items ?? {}) as JsonSchema, item, `${where}[]`));
  if (typeof value === 'object') {
    const properties = (target.properties ?? {}) as Record<string, JsonSchema>;
    return Object.entries(properties).flatMap(([name, property]) =>
      name in value
        ? validValueEntries(property, (value as Record<string, unknown>)[name], `${where}.${name}`)
        : [`${where}: without ${name}`],
    );
  }
  return [];
}

/** Every null the value holds where the schema declares a place (a member or item sent as null, valid or not). */
function nulls(schema: JsonSchema, value: unknown, where: string): string[] {
  if (value === null) return [`${where}: null`];
  if (typeof value !== 'object' || value === undefined) return [];
  const target = resolveSchema(schema);
  if (Array.isArray(value))
    return target.items ? value.flatMap((item) => nulls(target.items as JsonSchema, item, `${where}[]`)) : [];
  const properties = (target.properties ?? {}) as Record<string, JsonSchema>;
  return Object.entries(value as object).flatMap(([name, member]) =>
    properties[name] ? nulls(properties[name], member, `${where}.${name}`) : [],
  );
}

/** What one value tries against its schema: the keywords it breaks, or the classes of valid value it holds. */
function valueEvidence(schema: JsonSchema, value: unknown, where: string): string[] {
  const validate = specValidators().schema(schema);
  const found = validate(value)
    ? validValueEntries(schema, value, where)
    : [...brokenKeywords(validate.errors ?? [], where), ...nulls(schema, value, where)];
  return [...new Set(found)];
}

/** A path parameter's value as the schema reads it: an integer exactly (int64 is past a double), else the decoded text. */
function parameterValue(schema: JsonSchema, text: string): unknown {
  const types = typesOf(resolveSchema(schema));
  if ((types.includes('integer') || types.includes('number')) && /^-?\d+$/.test(text)) {
    const exact = BigInt(text);
    return exact >= BigInt(Number.MIN_SAFE_INTEGER) && exact <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(exact) : exact;
  }
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** A path parameter's entries: the int64 range read exactly, since ajv sees only doubles. */
function parameterEvidence(schema: JsonSchema, text: string, where: string): string[] {
  const value = parameterValue(schema, text);
  if (typeof value !== 'bigint') return valueEvidence(schema, value, where);
  const target = resolveSchema(schema);
  const max = target.format === 'int64' ? 2n ** 63n - 1n : BigInt(integerBounds(target).max);
  if (value > max) return [`${where}: maximum`];
  if (value === max) return [`${where}: the maximum`];
  return value < BigInt(integerBounds(target).min) ? [`${where}: minimum`] : [];
}

/**
 * The entries of {@link schemaEvidence} one request tries, read from the request itself (whichever
 * check sent it): each keyword its body or path parameters break, or each class of valid value they
 * hold. A body sent as something other than JSON (raw bytes, another media type) tries none.
 * @example requestEvidence({ method: 'POST', path: '/categories', json: { name: '' } }, operation) // ['createCategory body.name: minLength', 'createCategory body.name: pattern']
 */
export function requestEvidence(request: ContractRequest, operation: DocumentedOperation): string[] {
  const found: string[] = [];
  const parameters = operation.parameters.filter((parameter) => parameter.in === 'path');
  if (parameters.length > 0) {
    const names: string[] = [];
    const template = new RegExp(
      `^${operation.path.replace(/\{([^}]+)\}/g, (_whole, name: string) => {
        names.push(name);
        return '([^/]+)';
      })}$`,
    );
    const match = template.exec(request.path.split('?')[0]!);
    for (const [index, name] of names.entries()) {
      const parameter = parameters.find((candidate) => candidate.name === name);
      const text = match?.[index + 1];
      if (parameter && text !== undefined)
        found.push(...parameterEvidence(parameter.schema, text, `${operation.operationId} path ${name}`));
    }
  }
  const body = operation.requestBody?.content[JSON_MEDIA];
  const sentAsJson =
    request.rawBody === undefined &&
    request.contentType === undefined &&
    !Object.keys(request.headers ?? {}).some((name) => name.toLowerCase() === 'content-type');
  if (body && sentAsJson && request.json !== undefined)
    found.push(...valueEvidence(body, request.json, `${operation.operationId} body`));
  return found;
}
