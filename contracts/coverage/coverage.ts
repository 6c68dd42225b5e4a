import { documentedSpec, type DocumentedOperation } from '../spec/spec-document.js';
import type { Exchange } from '../transport/exchange.js';

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
  return normalisedPath(url.slice(baseUrl.length).split('?')[0]!);
}

function operationsOfPath(path: string): DocumentedOperation[] {
  patterns ??= Object.values(documentedSpec().operations).map((operation) => ({ operation, pattern: templatePattern(operation.path) }));
  return patterns.filter(({ pattern }) => pattern.test(path)).map(({ operation }) => operation);
}

/**
 * The operations on a path (any method): empty for a path the spec does not have.
 * @example operationsOnPath('/categories')?.map(({ method }) => method) // ['GET', 'POST']
 */
export function operationsOnPath(path: string): DocumentedOperation[] | undefined {
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
  const status = `${operation.operationId} ${exchange.status}`;
  const documented = operation.responses[String(exchange.status)];
  const headers = (documented?.headers ?? []).filter((header) => exchange.headers[header.name.toLowerCase()] !== undefined);
  return [status, ...headers.map((header) => `${status} ${header.name}`)];
}
