import { isDeepStrictEqual } from 'node:util';
import { snippet } from '../conformance/response-conformance.js';
import { operationModels, type OperationModel } from '../generate/operation-model.js';
import { resolveSchema } from '../core/spec-document.js';
import type { DocumentedOperation, DocumentedResponse } from '../core/spec-document.js';
import type { Exchange } from '../core/exchange.js';
import type { BrokenPromise, Observation } from './broken-promise.js';
import { duplicateMemberNames } from '../rules/json-members.js';
import { RecentlySet } from './recently-set.js';

type Record = { [field: string]: unknown };

// The most records remembered per collection (and in the log of what was created): a proxy watches
// traffic without end; the oldest are forgotten first.
const MAX_RECORDS = 10_000;

/** A record a write created (answered with its success status), as its answer gave it. */
export interface CreatedRecord {
  /** The write that created it, e.g. `createCategory`. */
  operationId: string;
  record: { [field: string]: unknown };
}

interface Created {
  record: Record;
  /** When its answer came (see {@link Observation}): only lists sent after it must include it. */
  answered: number;
  exchange: Exchange;
}

const isRecord = (value: unknown): value is Record =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const idOf = (record: Record) =>
  typeof record.id === 'number' || typeof record.id === 'string' ? String(record.id) : undefined;

const utf8 = new TextDecoder();

function bodySent(exchange: Exchange): unknown {
  const { body } = exchange.request;
  if (body === undefined) return undefined;
  try {
    const text = typeof body === 'string' ? body : utf8.decode(body);
    // A member sent twice has no one value to compare with (RFC 8259 §4): repeated_members_handled judges it.
    const value = JSON.parse(text) as unknown;
    return duplicateMemberNames(text).length > 0 ? undefined : value;
  } catch {
    return undefined;
  }
}

/**
 * The records half of the model: per collection of the spec (a list operation, and the write that adds
 * to it), what the run created, and what every list must therefore say.
 */
export class RecordLedger {
  /** The writes that add to a collection, by operationId, with the fields their body schema names. */
  readonly #writes: Map<string, { write: OperationModel; fields: string[] }>;
  readonly #created = new Map<string, RecentlySet<Created>>();
  #log: CreatedRecord[] = [];

  constructor() {
    this.#writes = new Map(
      operationModels()
        .filter((model) => !model.safe && model.listedBy)
        .map((write) => [
          write.operation.operationId,
          { write, fields: Object.keys(resolveSchema(write.bodySchema ?? {}).properties ?? {}) },
        ]),
    );
  }

  /** The target forgot its records (the fake's reset). */
  reset(): void {
    this.#created.clear();
    this.#log = [];
  }

  /** Every record created since the last reset, in the order the answers came (on a URL: the whole run). */
  created(): CreatedRecord[] {
    return this.#log.slice(-MAX_RECORDS);
  }

  /** Judges one answered exchange of a known operation, in the order the answers came. */
  judge(operation: DocumentedOperation, { exchange, sent, answered }: Observation, stateful: boolean): BrokenPromise[] {
    const write = this.#writes.get(operation.operationId);
    if (write && exchange.status === write.write.successStatus && isRecord(exchange.json))
      return this.#judgeCreated(write, exchange, answered, stateful);
    const documented = operation.responses[String(exchange.status)];
    if (documented && Array.isArray(exchange.json) && (documented.orderedBy || documented.complete))
      return this.#judgeList(operation, documented, exchange, sent, stateful);
    return [];
  }

  #judgeCreated(
    { write, fields }: { write: OperationModel; fields: string[] },
    exchange: Exchange,
    answered: number,
    stateful: boolean,
  ): BrokenPromise[] {
    const record = exchange.json as Record;
    this.#log.push({ operationId: write.operation.operationId, record });
    // Trimmed in batches: shifting one off a full log on every create would cost its length each time.
    if (this.#log.length >= 2 * MAX_RECORDS) this.#log = this.#log.slice(-MAX_RECORDS);
    if (!stateful) return [];
    const broken: BrokenPromise[] = [];
    const sentBody = bodySent(exchange);
    // Field by field: the two views below are built only to report a difference.
    const storedAsSent = (sent: Record) =>
      fields.every(
        (field) =>
          field in sent === field in record && (!(field in record) || isDeepStrictEqual(record[field], sent[field])),
      );
    if (isRecord(sentBody) && !storedAsSent(sentBody)) {
      const asSent = Object.fromEntries(
        fields.filter((field) => field in sentBody).map((field) => [field, sentBody[field]]),
      );
      const asAnswered = Object.fromEntries(
        fields.filter((field) => field in record).map((field) => [field, record[field]]),
      );
      broken.push({
        promise: 'stored_as_sent',
        title: 'The created record is not what was sent',
        lines: [
          `Received: ${snippet(JSON.stringify(asAnswered), 200)} / Expected: ${snippet(JSON.stringify(asSent), 200)} (the fields sent, exactly; none added)`,
        ],
        exchange,
      });
    }
    const collection = this.#collection(write.listedBy!.operationId);
    const id = idOf(record);
    const earlier = id === undefined ? undefined : collection.get(id);
    if (earlier) {
      broken.push({
        promise: 'ids_unique',
        title: 'Two created records were answered with the same id',
        lines: [
          `Received: id ${id} for ${snippet(JSON.stringify(record), 120)} / Expected: an id no other record has; ${snippet(JSON.stringify(earlier.record), 120)} was created with it`,
        ],
        exchange,
        involved: [earlier.exchange, exchange],
      });
    } else if (id !== undefined) collection.set(id, { record, answered, exchange });
    return broken;
  }

  /** A list answer, held to what its documented response declares: `x-order-by` (ascending) and `x-paginated: false` (every record). */
  #judgeList(
    list: DocumentedOperation,
    documented: DocumentedResponse,
    exchange: Exchange,
    sent: number,
    stateful: boolean,
  ): BrokenPromise[] {
    const records = (exchange.json as unknown[]).filter(isRecord);
    const broken: BrokenPromise[] = [];
    const field = documented.orderedBy;
    if (field) {
      const keys = records.map((record) => record[field]);
      const outOfOrder = keys.findIndex((key, index) => index > 0 && !((key as number) > (keys[index - 1] as number)));
      if (outOfOrder > 0) {
        const duplicate = keys[outOfOrder] === keys[outOfOrder - 1];
        broken.push({
          promise: duplicate ? 'ids_unique' : 'listed_in_ascending_id_order',
          title: duplicate
            ? `A list has two records with the same ${field}`
            : `A list is not in ascending ${field} order`,
          lines: [
            `Received: ${field} ${keys.slice(Math.max(0, outOfOrder - 3), outOfOrder + 3).join(', ')}${keys.length > 6 ? ' …' : ''} / Expected: each greater than the one before (${list.operationId} ${documented.status}: x-order-by: ${field})`,
          ],
          exchange,
        });
      }
    }
    if (!stateful || !documented.complete) return broken;
    const byId = new Map(records.map((record) => [idOf(record), record]));
    for (const [id, created] of this.#created.get(list.operationId) ?? []) {
      if (created.answered > sent) continue;
      const listed = byId.get(id);
      if (!listed || !isDeepStrictEqual(listed, created.record)) {
        broken.push({
          promise: 'stored_as_sent',
          title: listed
            ? 'A created record is listed otherwise than it was answered'
            : 'A created record is missing from the list',
          lines: [
            `Received: ${listed ? snippet(JSON.stringify(listed), 160) : `no record with id ${id} among ${records.length}`} / Expected: ${snippet(JSON.stringify(created.record), 160)}, as its create answered`,
          ],
          exchange,
          involved: [created.exchange, exchange],
        });
        break;
      }
    }
    return broken;
  }

  #collection(listOperationId: string): RecentlySet<Created> {
    let collection = this.#created.get(listOperationId);
    if (!collection) this.#created.set(listOperationId, (collection = new RecentlySet(MAX_RECORDS)));
    return collection;
  }
}
