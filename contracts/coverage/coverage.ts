import { documentedSpec, type DocumentedOperation } from '../core/spec-document.js';
import { operationOfRequest } from '../core/spec-operations.js';
import { isJsonMediaType, type Exchange } from '../core/exchange.js';
import type { Capability } from '../core/capabilities.js';

/** One thing the spec documents that a run can exercise: an operation's status, or a header of it. */
export interface CoverageItem {
  /** `getPetById 404` or `getPetById 404 Deprecation`. */
  id: string;
  operationId: string;
  status: string;
  header?: string;
  exercised: boolean;
  /** Why this target can never be made to give this answer (not exercised, and left out of the total). */
  unreachable?: string;
}

/** How much of the spec's operation × status × header a run exercised against one target. */
export interface Coverage {
  exercised: number;
  /** The items the target can give: every item but those it can never be made to (`unreachable`). */
  total: number;
  /** Rounded to one decimal. */
  percent: number;
  items: CoverageItem[];
}

/** Every operation × documented status × documented header of the spec. */
export function coverageItems(): Array<Omit<CoverageItem, 'exercised'>> {
  return Object.values(documentedSpec().operations).flatMap((operation) =>
    Object.values(operation.responses).flatMap((response) => {
      const status = `${operation.operationId} ${response.status}`;
      return [
        { id: status, operationId: operation.operationId, status: response.status },
        ...response.headers.map((header) => ({
          id: `${status} ${header.name}`,
          operationId: operation.operationId,
          status: response.status,
          header: header.name,
        })),
      ];
    }),
  );
}

/**
 * The capability an item needs a target to have for a run to provoke it: a declared 500 answers no
 * request (a request that provokes one has found a defect), only a test control such as `Prefer`.
 */
function capabilityNeeded(item: Omit<CoverageItem, 'exercised'>): Capability | undefined {
  return item.status === '500' ? 'preferredStatus' : undefined;
}

/**
 * Marks each item of the spec exercised or not, from the items the checks observed. `lacking` (a
 * target's) leaves out of the total what that target can never be made to answer, with its reason,
 * unless it answered it anyway.
 * @example coverageOf(results.flatMap((result) => result.observed ?? []), descriptor.lacking).percent
 */
export function coverageOf(observed: Iterable<string>, lacking: Partial<Record<Capability, string>> = {}): Coverage {
  const seen = new Set(observed);
  const items = coverageItems().map((item): CoverageItem => {
    const exercised = seen.has(item.id);
    const needed = capabilityNeeded(item);
    const unreachable = exercised || needed === undefined ? undefined : lacking[needed];
    return { ...item, exercised, ...(unreachable !== undefined && { unreachable }) };
  });
  const exercised = items.filter((item) => item.exercised).length;
  const total = items.filter((item) => item.unreachable === undefined).length;
  return { exercised, total, percent: total === 0 ? 100 : Math.round((exercised / total) * 1000) / 10, items };
}

/** The coverage items an answer exercises: `operation status` and `operation status Header` for each header present. */
export function observedItems(exchange: Exchange, baseUrl: string): string[] {
  const operation = operationOfRequest(exchange.request.method, exchange.request.url, baseUrl);
  if (!operation) return [];
  // Every answer the spec documents is JSON: an HTML page with the right status exercises none of them.
  if (exchange.text !== '' && !isJsonMediaType(exchange.headers['content-type'])) return [];
  const { status, headers } = itemsOf(operation, exchange.status);
  const observed = [status];
  for (const header of headers) if (exchange.headers[header.lower] !== undefined) observed.push(header.item);
  return observed;
}

// The item names of an operation's status, built once: a proxy names them for every exchange it judges.
const itemsByOperation = new WeakMap<
  DocumentedOperation,
  Map<number, { status: string; headers: Array<{ lower: string; item: string }> }>
>();

function itemsOf(
  operation: DocumentedOperation,
  status: number,
): { status: string; headers: Array<{ lower: string; item: string }> } {
  let byStatus = itemsByOperation.get(operation);
  if (!byStatus) itemsByOperation.set(operation, (byStatus = new Map()));
  let items = byStatus.get(status);
  if (!items) {
    const name = `${operation.operationId} ${status}`;
    items = {
      status: name,
      headers: (operation.responses[String(status)]?.headers ?? []).map((header) => ({
        lower: header.name.toLowerCase(),
        item: `${name} ${header.name}`,
      })),
    };
    byStatus.set(status, items);
  }
  return items;
}
