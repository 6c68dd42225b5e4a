import type { operations } from '../../spec/openapi.js';
import type { Plan } from '../domain/plans.js';

/** An operation of the spec, by its `operationId`. */
export type OperationId = keyof operations & string;

// What the UI sent (docs/guides/overrides-and-journal.md): the pipeline's last stage records every request
// under the base URL with its answer. On the hot path it keeps raw pieces only (strings, the body's bytes);
// the query and the body are parsed when a test reads the entry.

/** One request and its answer, as a test reads it. The key is never shown: only its plan (a key sent in the query reads `[redacted]`). */
export interface JournalEntry {
  /** The operation the request was routed to; absent for an unknown path or method. */
  operationId?: OperationId;
  method: string;
  /** Below the base URL, as sent: `/pets/1`. */
  path: string;
  /** The query parameters (a repeated one as an array). */
  query: Record<string, string | string[]>;
  /** The body parsed as JSON; its text when it is not JSON; undefined when there was none. */
  body: unknown;
  /** The plan of the key the request was admitted or refused under; absent without a valid key. */
  plan?: Plan;
  /** The answer's status; null when a fault dropped the connection. */
  status: number | null;
  /** The fault rule that fired (its id), or `Prefer` for a per-request fault. */
  fault?: string;
  /** When the fake answered, on the fake's clock (ms since the epoch). */
  at: number;
}

/** One request as the journal keeps it: raw pieces. */
export interface JournalRecord {
  operationId: OperationId | undefined;
  method: string;
  path: string;
  query: string;
  /** The body's bytes; a promise until they are read (settled by the time a test looks). */
  body: Uint8Array | Promise<Uint8Array> | undefined;
  plan: Plan | undefined;
  status: number | null;
  fault: string | undefined;
  at: number;
}

/** `fake.requests`: the journal's reading side. */
export interface RequestJournal {
  /** Every entry kept, oldest first (at most the journal's size; older ones are dropped). */
  all(): JournalEntry[];
  /** The latest entry, or the latest routed to this operation. */
  last(operationId?: OperationId): JournalEntry | undefined;
  /** How many entries are kept, or how many were routed to this operation. */
  count(operationId?: OperationId): number;
  /** The entries routed to one operation, oldest first. */
  of(operationId: OperationId): JournalEntry[];
  /** Empties the journal (`reset()` does too). */
  clear(): void;
}

/** The default number of entries kept. */
export const DEFAULT_JOURNAL_SIZE = 500;

// A client that puts its key in the query (`?api_key=...`) must not find it in the journal: a value
// under a credential's usual name, or holding one of the fake's keys, is kept as this instead.
export const REDACTED = '[redacted]';
const CREDENTIAL_PARAMETER = /^(access[_-]?token|api[_-]?key|apikey|key|token|auth(orization)?|bearer)$/i;

function redacted(name: string, value: string, keys: readonly string[]): string {
  return CREDENTIAL_PARAMETER.test(name) || keys.some((key) => value.includes(key)) ? REDACTED : value;
}

function parsedQuery(raw: string, keys: readonly string[]): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const [name, sent] of new URLSearchParams(raw)) {
    const value = redacted(name, sent, keys);
    const held = query[name];
    query[name] = held === undefined ? value : Array.isArray(held) ? [...held, value] : [held, value];
  }
  return query;
}

function isPending(body: JournalRecord['body']): body is Promise<Uint8Array> {
  return typeof (body as { then?: unknown } | undefined)?.then === 'function';
}

function parsedBody(bytes: JournalRecord['body']): unknown {
  if (bytes === undefined || isPending(bytes) || bytes.byteLength === 0) return undefined;
  const text = new TextDecoder().decode(bytes);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function entryOf(record: JournalRecord, keys: readonly string[]): JournalEntry {
  return {
    ...(record.operationId !== undefined && { operationId: record.operationId }),
    method: record.method,
    path: record.path,
    query: parsedQuery(record.query, keys),
    body: parsedBody(record.body),
    ...(record.plan !== undefined && { plan: record.plan }),
    status: record.status,
    ...(record.fault !== undefined && { fault: record.fault }),
    at: record.at,
  };
}

// The status column's mark for a dropped connection (an entry's `status: null`): the column stays whole numbers.
const DROPPED = -1;

/**
 * A bounded journal: a ring of `size` rows, the oldest overwritten when it is full. Kept column by
 * column, so that recording a request allocates no object: a record object per request, each kept for
 * the next 500 requests and so copied by the young generation's collections, cost about 5% of a GET's
 * throughput under load. A row becomes an entry only when a test reads it.
 */
export class Journal implements RequestJournal {
  readonly #size: number;
  readonly #keys: readonly string[];
  #operationIds: Array<OperationId | undefined> = [];
  #methods: string[] = [];
  #paths: string[] = [];
  #queries: string[] = [];
  #bodies: Array<JournalRecord['body']> = [];
  #plans: Array<Plan | undefined> = [];
  #statuses: number[] = [];
  #faults: Array<string | undefined> = [];
  #ats: number[] = [];
  #next = 0;

  /** `keys`: the fake's API keys, never shown in an entry's query. */
  constructor(size = DEFAULT_JOURNAL_SIZE, keys: readonly string[] = []) {
    this.#keys = keys.filter((key) => key.length > 0);
    if (!Number.isSafeInteger(size) || size < 0)
      throw new Error(`[petstore-fake] journalSize must be a whole number >= 0, got ${String(size)}.`);
    this.#size = size;
  }

  /** The pipeline's call, one argument per field of {@link JournalRecord}: O(1), no parsing, no object. */
  record(
    operationId: OperationId | undefined,
    method: string,
    path: string,
    query: string,
    body: JournalRecord['body'],
    plan: Plan | undefined,
    status: number | null,
    fault: string | undefined,
    at: number,
  ): void {
    if (this.#size === 0) return;
    const row = this.#next;
    // A thenable test, not instanceof: the body's promise may come from another realm (a test runner's vm).
    // The row may hold a later request's body by the time it settles: only its own promise is replaced.
    if (isPending(body))
      body.then(
        (bytes) => this.#bodies[row] === body && (this.#bodies[row] = bytes),
        () => this.#bodies[row] === body && (this.#bodies[row] = undefined),
      );
    this.#operationIds[row] = operationId;
    this.#methods[row] = method;
    this.#paths[row] = path;
    this.#queries[row] = query;
    this.#bodies[row] = body;
    this.#plans[row] = plan;
    this.#statuses[row] = status ?? DROPPED;
    this.#faults[row] = fault;
    this.#ats[row] = at;
    this.#next = (row + 1) % this.#size;
  }

  #recordAt(row: number): JournalRecord {
    const status = this.#statuses[row]!;
    return {
      operationId: this.#operationIds[row],
      method: this.#methods[row]!,
      path: this.#paths[row]!,
      query: this.#queries[row]!,
      body: this.#bodies[row],
      plan: this.#plans[row],
      status: status === DROPPED ? null : status,
      fault: this.#faults[row],
      at: this.#ats[row]!,
    };
  }

  /** The rows kept, oldest first. */
  #rows(): number[] {
    const kept = this.#methods.length;
    const start = kept < this.#size ? 0 : this.#next;
    return Array.from({ length: kept }, (_, i) => (start + i) % kept);
  }

  #entries(rows: number[]): JournalEntry[] {
    return rows.map((row) => entryOf(this.#recordAt(row), this.#keys));
  }

  all(): JournalEntry[] {
    return this.#entries(this.#rows());
  }

  of(operationId: OperationId): JournalEntry[] {
    return this.#entries(this.#rows().filter((row) => this.#operationIds[row] === operationId));
  }

  last(operationId?: OperationId): JournalEntry | undefined {
    const rows = this.#rows();
    for (let i = rows.length - 1; i >= 0; i -= 1) {
      if (operationId === undefined || this.#operationIds[rows[i]!] === operationId)
        return entryOf(this.#recordAt(rows[i]!), this.#keys);
    }
    return undefined;
  }

  count(operationId?: OperationId): number {
    if (operationId === undefined) return this.#methods.length;
    return this.#operationIds.filter((id) => id === operationId).length;
  }

  clear(): void {
    this.#operationIds = [];
    this.#methods = [];
    this.#paths = [];
    this.#queries = [];
    this.#bodies = [];
    this.#plans = [];
    this.#statuses = [];
    this.#faults = [];
    this.#ats = [];
    this.#next = 0;
  }
}
