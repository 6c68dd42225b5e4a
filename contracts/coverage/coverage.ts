import { documentedSpec, type DocumentedOperation } from '../core/spec-document.js';
import type { Exchange } from '../core/exchange.js';

/** One thing the spec documents that a run can exercise: an operation's status, or a header of it. */
export interface CoverageItem {
  /** `getPetById 404` or `getPetById 404 Deprecation`. */
  id: string;
  operationId: string;
  status: string;
  header?: string;
  exercised: boolean;
}

/** How much of the spec's operation × status × header a run exercised against one target. */
export interface Coverage {
  exercised: number;
  total: number;
  /** Rounded to one decimal. */
  percent: number;
  items: CoverageItem[];
}

function templatePattern(path: string): RegExp {
  const source = path.split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[^/]+');
  return new RegExp(`^${source}$`);
}

let patterns: Array<{ operation: DocumentedOperation; pattern: RegExp }> | undefined;

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/**
 * A path as the spec names it: percent-encoded unreserved characters decoded (RFC 3986 §6.2.2.2, so
 * `/categori%65s` is `/categories`); every other escape, and the letter case, kept.
 */
export function normalisedPath(path: string): string {
  return path.replace(/%([0-9A-Fa-f]{2})/g, (escape, hex: string) => (UNRESERVED.test(String.fromCharCode(parseInt(hex, 16))) ? String.fromCharCode(parseInt(hex, 16)) : escape));
}

/** The request's path under the base address, normalised, without its query; undefined when it is not under it. */
export function pathUnder(url: string, baseUrl: string): string | undefined {
  if (!url.startsWith(baseUrl)) return undefined;
  const query = url.indexOf('?', baseUrl.length);
  const path = url.slice(baseUrl.length, query === -1 ? undefined : query);
  return path.includes('%') ? normalisedPath(path) : path;
}

// Every exchange a proxy judges asks several times which operation its path is; the answers are kept
// for the paths seen most (bounded: ids make the paths of real traffic unbounded).
const MAX_KNOWN_PATHS = 1_000;
const operationsByPath = new Map<string, readonly DocumentedOperation[]>();

function operationsOfPath(path: string): readonly DocumentedOperation[] {
  const known = operationsByPath.get(path);
  if (known) return known;
  patterns ??= Object.values(documentedSpec().operations).map((operation) => ({ operation, pattern: templatePattern(operation.path) }));
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
  return operationsOfPath(path).find((operation) => operation.method === method.toUpperCase());
}

/** Every operation × documented status × documented header of the spec. */
export function coverageItems(): Array<Omit<CoverageItem, 'exercised'>> {
  return Object.values(documentedSpec().operations).flatMap((operation) =>
    Object.values(operation.responses).flatMap((response) => {
      const status = `${operation.operationId} ${response.status}`;
      return [
        { id: status, operationId: operation.operationId, status: response.status },
        ...response.headers.map((header) => ({ id: `${status} ${header.name}`, operationId: operation.operationId, status: response.status, header: header.name })),
      ];
    }),
  );
}

/**
 * Marks each item of the spec exercised or not, from the items the checks observed.
 * @example coverageOf(results.flatMap((result) => result.observed ?? [])).percent
 */
export function coverageOf(observed: Iterable<string>): Coverage {
  const seen = new Set(observed);
  const items = coverageItems().map((item) => ({ ...item, exercised: seen.has(item.id) }));
  const exercised = items.filter((item) => item.exercised).length;
  return { exercised, total: items.length, percent: items.length === 0 ? 100 : Math.round((exercised / items.length) * 1000) / 10, items };
}

/** The coverage items an answer exercises: `operation status` and `operation status Header` for each header present. */
export function observedItems(exchange: Exchange, baseUrl: string): string[] {
  const operation = operationOfRequest(exchange.request.method, exchange.request.url, baseUrl);
  if (!operation) return [];
  const { status, headers } = itemsOf(operation, exchange.status);
  const observed = [status];
  for (const header of headers) if (exchange.headers[header.lower] !== undefined) observed.push(header.item);
  return observed;
}

// The item names of an operation's status, built once: a proxy names them for every exchange it judges.
const itemsByOperation = new WeakMap<DocumentedOperation, Map<number, { status: string; headers: Array<{ lower: string; item: string }> }>>();

function itemsOf(operation: DocumentedOperation, status: number): { status: string; headers: Array<{ lower: string; item: string }> } {
  let byStatus = itemsByOperation.get(operation);
  if (!byStatus) itemsByOperation.set(operation, (byStatus = new Map()));
  let items = byStatus.get(status);
  if (!items) {
    const name = `${operation.operationId} ${status}`;
    items = { status: name, headers: (operation.responses[String(status)]?.headers ?? []).map((header) => ({ lower: header.name.toLowerCase(), item: `${name} ${header.name}` })) };
    byStatus.set(status, items);
  }
  return items;
}
