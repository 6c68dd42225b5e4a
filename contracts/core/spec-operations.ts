// The suite's one lookup of the spec's operations by request: the run's model, coverage, the runner and
// the watch proxy all ask it which operation a request was for.
import { normalizedPath } from '../../spec/path-normalization.js';
import { documentedSpec, type DocumentedOperation } from './spec-document.js';

function templatePattern(path: string, parameter = '[^/]+'): RegExp {
  const source = path
    .split(/\{[^}]+\}/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join(parameter);
  return new RegExp(`^${source}$`);
}

let patterns: Array<{ operation: DocumentedOperation; pattern: RegExp }> | undefined;

/** The request's path under the base address, normalised, without its query; undefined when it is not under it. */
export function pathUnder(url: string, baseUrl: string): string | undefined {
  if (!url.startsWith(baseUrl)) return undefined;
  const query = url.indexOf('?', baseUrl.length);
  const path = url.slice(baseUrl.length, query === -1 ? undefined : query);
  return normalizedPath(path);
}

// Every exchange a proxy judges asks several times which operation its path is; the answers are kept
// for the paths seen most (bounded: ids make the paths of real traffic unbounded).
const MAX_KNOWN_PATHS = 1_000;
const operationsByPath = new Map<string, readonly DocumentedOperation[]>();

function operationsOfPath(path: string): readonly DocumentedOperation[] {
  const known = operationsByPath.get(path);
  if (known) return known;
  patterns ??= Object.values(documentedSpec().operations).map((operation) => ({
    operation,
    pattern: templatePattern(operation.path),
  }));
  const operations = patterns.filter(({ pattern }) => pattern.test(path)).map(({ operation }) => operation);
  if (operationsByPath.size >= MAX_KNOWN_PATHS) operationsByPath.clear();
  operationsByPath.set(path, operations);
  return operations;
}

/**
 * The operations on a path (any method): empty for a path the spec does not have.
 * @example operationsOnPath('/categories')?.map(({ method }) => method) // ['GET', 'POST']
 */
export function operationsOnPath(path: string): readonly DocumentedOperation[] | undefined {
  const operations = operationsOfPath(path);
  return operations.length > 0 ? operations : undefined;
}

/**
 * The operation a request was for, by method and path template; undefined for a path the spec does not
 * have (an unknown path, a 405 probe).
 * @example operationOfRequest('GET', 'http://127.0.0.1:4010/v1/pets/7?x=1', 'http://127.0.0.1:4010/v1')?.operationId // 'getPetById'
 */
export function operationOfRequest(method: string, url: string, baseUrl: string): DocumentedOperation | undefined {
  const path = pathUnder(url, baseUrl);
  if (path === undefined) return undefined;
  // Method tokens are case-sensitive (RFC 9110 §9.1): `get` is another method than GET, so a 405 is its answer.
  return operationsOfPath(path).find((operation) => operation.method === method);
}

/**
 * The values of a template's parameters in a path (as the path spells them); undefined when it does not fit.
 * @example pathValuesOf('/pets/{petId}', '/pets/7') // { petId: '7' }
 */
export function pathValuesOf(template: string, path: string): Record<string, string> | undefined {
  const names = [...template.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
  const values = templatePattern(template, '([^/]+)').exec(path);
  return values ? Object.fromEntries(names.map((name, index) => [name, values[index + 1]!])) : undefined;
}

/**
 * A path below `path` that no operation of the spec has: `/no-such-child` added, once more for each time
 * the result still fits a template (below `/categories`, a spec with `/categories/{categoryId}` routes one).
 * @example unknownChildOf('/categories') // '/categories/no-such-child/no-such-child' when /categories/{id} exists
 */
export function unknownChildOf(path: string): string {
  let child = `${path}/no-such-child`;
  while (operationsOfPath(child).length > 0) child = `${child}/no-such-child`;
  return child;
}
