import fc from 'fast-check';
import { documentedSpec, resolveSchema, type JsonSchema, type SpecDocument } from '../core/spec-document.js';
import { headerElement, queryElement, withHeader, type Surrounding } from './surrounding.js';

/** A name the spec declares somewhere: a parameter, a member of a schema a request or an answer carries. */
interface DeclaredName {
  name: string;
  /** Where the spec declares it: `getPetById path parameter`, `createCategory body member`. */
  where: string;
  schema: JsonSchema;
  example?: unknown;
}

/** A printable field value, as a header field may carry it (RFC 9110 §5.5), no longer than a line. */
const PRINTABLE = /^[\x21-\x7e](?:[\x20-\x7e]{0,198}[\x21-\x7e])?$/;

/**
 * A value the spec gives for a schema: its example, else a valid value drawn with seed 0 (a pattern's,
 * a format's), printable so it can go in a query or a header field as it is.
 */
function specValue(schema: JsonSchema, example?: unknown): string {
  const target = resolveSchema(schema);
  const examples = Array.isArray(target.examples) ? (target.examples as unknown[]) : [];
  const given = example ?? examples[0] ?? target.example ?? (Array.isArray(target.enum) ? target.enum[0] : undefined);
  const text = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));
  if (given !== undefined && PRINTABLE.test(text(given))) return text(given);
  if (target.type === 'array') return specValue((target.items ?? {}) as JsonSchema);
  if (target.type === 'integer' || target.type === 'number') return String(target.minimum ?? 1);
  if (target.type === 'boolean') return 'true';
  if (target.type === 'string' && typeof target.pattern === 'string') {
    const drawn = fc
      .sample(fc.stringMatching(new RegExp(target.pattern as string)), { numRuns: 200, seed: 0 })
      .find((candidate) => PRINTABLE.test(candidate));
    if (drawn !== undefined) return drawn;
  }
  return 'x';
}

/** The members of a schema, its items' and its members' (each `$ref` followed once). */
function membersOf(schema: JsonSchema, where: string, seen = new Set<JsonSchema>()): DeclaredName[] {
  const target = resolveSchema(schema);
  if (seen.has(target)) return [];
  seen.add(target);
  const properties = (target.properties ?? {}) as Record<string, JsonSchema>;
  return [
    ...Object.entries(properties).flatMap(([name, member]) => [
      { name, where, schema: member },
      ...membersOf(member, where, seen),
    ]),
    ...(target.items ? membersOf(target.items as JsonSchema, where, seen) : []),
  ];
}

/**
 * Every name the spec declares, first where it is declared first: each operation's parameters, its
 * request body's members, then its answers' members (a success first), operation by operation.
 */
function declaredNames(spec: SpecDocument): DeclaredName[] {
  const names: DeclaredName[] = [];
  for (const operation of Object.values(spec.operations)) {
    for (const parameter of operation.parameters)
      names.push({
        name: parameter.name,
        where: `${operation.operationId} ${parameter.in} parameter`,
        schema: parameter.schema,
        example: parameter.example,
      });
    for (const schema of Object.values(operation.requestBody?.content ?? {}))
      names.push(...membersOf(schema, `${operation.operationId} body member`));
    const statuses = Object.keys(operation.responses).sort();
    for (const status of statuses)
      for (const schema of Object.values(operation.responses[status]!.content))
        names.push(...membersOf(schema, `${operation.operationId} ${status} member`));
  }
  return names.filter((declared, index) => names.findIndex(({ name }) => name === declared.name) === index);
}

/** The spec's query parameters, by name (any operation's): none is undeclared as a query. */
function declaredQuery(spec: SpecDocument): Set<string> {
  return new Set(
    Object.values(spec.operations).flatMap(({ parameters }) =>
      parameters.filter((parameter) => parameter.in === 'query').map(({ name }) => name),
    ),
  );
}

/** The request header fields the spec declares: `Authorization` (its scheme), `Content-Type`, and header parameters. */
export function declaredRequestFields(spec: SpecDocument): Set<string> {
  const declared = new Set(['authorization', 'content-type', 'content-length', 'host']);
  for (const operation of Object.values(spec.operations))
    for (const parameter of operation.parameters)
      if (parameter.in === 'header') declared.add(parameter.name.toLowerCase());
  return declared;
}

/** The header fields the spec declares on answers, each with its schema: what it never declares on a request. */
function answerFields(spec: SpecDocument): DeclaredName[] {
  const fields = new Map<string, DeclaredName>();
  for (const operation of Object.values(spec.operations))
    for (const [status, response] of Object.entries(operation.responses))
      for (const { name, schema, example } of response.headers)
        if (!fields.has(name.toLowerCase()))
          fields.set(name.toLowerCase(), { name, schema, example, where: `${operation.operationId} ${status} header` });
  return [...fields.values()];
}

/** Every media type the spec declares for a body, a request's or an answer's. */
function mediaTypes(spec: SpecDocument): string[] {
  return [
    ...new Set(
      Object.values(spec.operations).flatMap((operation) => [
        ...Object.keys(operation.requestBody?.content ?? {}),
        ...Object.values(operation.responses).flatMap(({ content }) => Object.keys(content)),
      ]),
    ),
  ];
}

/**
 * Every element the spec declares, tried where it does not declare it: each name (a parameter, a body or
 * answer member) as a query parameter and as a header field of any request (a path parameter of one
 * operation sent on another, a body member sent in the query); each header field it declares on answers,
 * sent on a request; each media type it declares for bodies, as the `Content-Type` of a request without
 * one. A body member under another object is not tried: each body schema the spec has refuses a member
 * it does not name (`additionalProperties: false`), and its evidence is that keyword's. `skipFields`: the
 * fields another table of the suite varies.
 * @example specSurroundings().map(({ id }) => id) // ['query petId', 'header petId: 1', ..., 'header X-RateLimit-Limit: 0', ...]
 */
export function specSurroundings(
  spec: SpecDocument = documentedSpec(),
  skipFields: ReadonlySet<string> = new Set(),
): Surrounding[] {
  const requestFields = declaredRequestFields(spec);
  const fieldFree = (name: string) => !requestFields.has(name.toLowerCase()) && !skipFields.has(name.toLowerCase());
  const queries = declaredQuery(spec);
  const names = declaredNames(spec);
  return [
    ...names
      .filter(({ name }) => !queries.has(name))
      .map(({ name, where, schema, example }) =>
        queryElement(name, specValue(schema, example), { source: 'spec', basis: `the spec: ${where}` }),
      ),
    ...names
      .filter(({ name }) => fieldFree(name))
      .map(({ name, where, schema, example }) =>
        headerElement(name, specValue(schema, example), { source: 'spec', basis: `the spec: ${where}` }),
      ),
    ...answerFields(spec)
      .filter(({ name }) => fieldFree(name))
      .map(({ name, schema, where, example }) =>
        headerElement(name, specValue(schema, example), { source: 'spec', basis: `the spec: ${where}` }),
      ),
    ...mediaTypes(spec).map((media): Surrounding => ({
      ...headerElement('Content-Type', media, { source: 'spec', basis: 'the spec: a media type of its bodies' }),
      bodiless: true,
      spelt: `Content-Type: ${media} on a request without a body`,
      apply: (request) => withHeader(request, 'Content-Type', media),
    })),
  ];
}
