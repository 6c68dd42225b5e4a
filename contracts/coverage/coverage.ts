import { documentedSpec, type DocumentedOperation } from '../spec/spec-document.js';

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

/**
 * The operation a request was for, by method and path template; undefined for a path the spec does not
 * have (an unknown path, a 405 probe).
 * @example operationOfRequest('GET', 'http://127.0.0.1:4010/v1/pets/7?x=1', 'http://127.0.0.1:4010/v1')?.operationId // 'getPetById'
 */
export function operationOfRequest(method: string, url: string, baseUrl: string): DocumentedOperation | undefined {
  if (!url.startsWith(baseUrl)) return undefined;
  const path = url.slice(baseUrl.length).split('?')[0]!;
  patterns ??= Object.values(documentedSpec().operations).map((operation) => ({ operation, pattern: templatePattern(operation.path) }));
  return patterns.find(({ operation, pattern }) => operation.method === method.toUpperCase() && pattern.test(path))?.operation;
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
