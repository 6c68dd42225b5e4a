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

/** What the pipeline records: raw pieces. */
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

/** A bounded journal: a ring of raw records; the oldest goes when it is full. */
export class Journal implements RequestJournal {
  readonly #size: number;
  #records: JournalRecord[] = [];
  #next = 0;

  readonly #keys: readonly string[];

  /** `keys`: the fake's API keys, never shown in an entry's query. */
  constructor(size = DEFAULT_JOURNAL_SIZE, keys: readonly string[] = []) {
    this.#keys = keys.filter((key) => key.length > 0);
    if (!Number.isSafeInteger(size) || size < 0)
      throw new Error(`[petstore-fake] journalSize must be a whole number >= 0, got ${String(size)}.`);
    this.#size = size;
  }

  /** The pipeline's call: O(1), no parsing. */
  record(record: JournalRecord): void {
    if (this.#size === 0) return;
    // A thenable test, not instanceof: the body's promise may come from another realm (a test runner's vm).
    if (isPending(record.body))
      record.body.then(
        (bytes) => (record.body = bytes),
        () => (record.body = undefined),
      );
    if (this.#records.length < this.#size) this.#records.push(record);
    else this.#records[this.#next] = record;
    this.#next = (this.#next + 1) % this.#size;
  }

  #ordered(): JournalRecord[] {
    return this.#records.length < this.#size
      ? this.#records
      : [...this.#records.slice(this.#next), ...this.#records.slice(0, this.#next)];
  }

  all(): JournalEntry[] {
    return this.#ordered().map((record) => entryOf(record, this.#keys));
  }

  of(operationId: OperationId): JournalEntry[] {
    return this.#ordered()
      .filter((record) => record.operationId === operationId)
      .map((record) => entryOf(record, this.#keys));
  }

  last(operationId?: OperationId): JournalEntry | undefined {
    const records = this.#ordered();
    for (let i = records.length - 1; i >= 0; i -= 1) {
      if (operationId === undefined || records[i]!.operationId === operationId) return entryOf(records[i]!, this.#keys);
    }
    return undefined;
  }

  count(operationId?: OperationId): number {
    if (operationId === undefined) return this.#records.length;
    return this.#records.filter((record) => record.operationId === operationId).length;
  }

  clear(): void {
    this.#records = [];
    this.#next = 0;
  }
}
