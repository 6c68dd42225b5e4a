import { documentedSpec, type DocumentedOperation } from '../core/spec-document.js';
import { operationOfRequest } from '../core/spec-operations.js';
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

/** Options of {@link coverageItems} and {@link coverageOf}. */
export interface CoverageOptions {
  /**
   * Count the declared 5xx answers (every operation's 500): only where the target can be asked for one
   * (`Prefer: code=500`, its `preferredStatus` capability). Elsewhere no request is meant to provoke
   * them, so they are not part of what a run can exercise. Default false.
   */
  serverErrors?: boolean;
}

/** Every operation × documented status × documented header of the spec (the 5xx only with `serverErrors`). */
export function coverageItems(options: CoverageOptions = {}): Array<Omit<CoverageItem, 'exercised'>> {
  return Object.values(documentedSpec().operations).flatMap((operation) =>
    Object.values(operation.responses)
      .filter((response) => options.serverErrors === true || !response.status.startsWith('5'))
      .flatMap((response) => {
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
export function coverageOf(observed: Iterable<string>, options: CoverageOptions = {}): Coverage {
  const seen = new Set(observed);
  const items = coverageItems(options).map((item) => ({ ...item, exercised: seen.has(item.id) }));
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
