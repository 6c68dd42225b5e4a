import { isDeepStrictEqual } from 'node:util';
import { snippet } from '../conformance/response-conformance.js';
import { operationModels, type OperationModel } from '../generate/operation-model.js';
import { pathValuesOf } from '../core/spec-operations.js';
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

/** A record the run deleted: no list or read sent after the delete's answer may show it. */
interface Deleted {
  answered: number;
  exchange: Exchange;
}

/** What the run knows of one collection (the records one list operation answers). */
interface Collection {
  /** Records created or replaced by the run, as last answered, by id. */
  records: RecentlySet<Created>;
  deleted: RecentlySet<Deleted>;
  /** The ids the last complete list answered: a record created after it takes none of them. */
  listed?: { ids: Set<string>; answered: number; exchange: Exchange };
  /** The spec has a delete on it: an id may leave it, and another client may have freed one. */
  deletable: boolean;
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
 * The records half of the model: per collection of the spec (a list operation, and the operations that
 * create, replace or delete its records, by their kind), what the run changed, and what every list and
 * read must therefore say.
 */
export class RecordLedger {
  /** The operations on a collection's records, by operationId, with the fields their body schema names. */
  readonly #models: Map<string, { model: OperationModel; fields: string[] }>;
  readonly #collections = new Map<string, Collection>();
  #log: CreatedRecord[] = [];

  constructor() {
    this.#models = new Map(
      operationModels()
        .filter((model) => model.listedBy)
        .map((model) => [
          model.operation.operationId,
          { model, fields: Object.keys(resolveSchema(model.bodySchema ?? {}).properties ?? {}) },
        ]),
    );
  }

  /** The target forgot its records (the fake's reset). */
  reset(): void {
    this.#collections.clear();
    this.#log = [];
  }

  /** Every record created since the last reset, in the order the answers came (on a URL: the whole run). */
  created(): CreatedRecord[] {
    return this.#log.slice(-MAX_RECORDS);
  }

  /** Judges one answered exchange of a known operation (on `path`, below the base address), in the order the answers came. */
  judge(operation: DocumentedOperation, observation: Observation, stateful: boolean, path: string): BrokenPromise[] {
    const { exchange, sent } = observation;
    const known = this.#models.get(operation.operationId);
    const succeeded = exchange.status === known?.model.successStatus;
    if (
      known &&
      succeeded &&
      isRecord(exchange.json) &&
      (known.model.kind === 'create' || known.model.kind === 'replace')
    )
      return this.#judgeWritten(known, observation, stateful, path);
    if (known?.model.kind === 'delete' && exchange.status >= 200 && exchange.status <= 299) {
      const id = this.#recordId(known.model, path);
      const collection = this.#collection(known.model.listedBy!.operationId);
      if (id !== undefined) {
        collection.records.delete(id);
        collection.deleted.set(id, { answered: observation.answered, exchange });
      }
      return [];
    }
    if (stateful && known?.model.kind === 'read' && exchange.status >= 200 && exchange.status <= 299) {
      const id = this.#recordId(known.model, path);
      const deleted =
        id === undefined ? undefined : this.#collection(known.model.listedBy!.operationId).deleted.get(id);
      if (deleted && deleted.answered < sent)
        return [
          {
            promise: 'stored_as_sent',
            title: 'A deleted record is still read',
            lines: [
              `Received: ${exchange.status} for the record ${id} / Expected: no record, as its delete answered ${deleted.exchange.status}`,
            ],
            exchange,
            involved: [deleted.exchange, exchange],
          },
        ];
    }
    const documented = operation.responses[String(exchange.status)];
    if (documented && Array.isArray(exchange.json) && (documented.orderedBy || documented.complete))
      return this.#judgeList(operation, documented, exchange, sent, stateful, observation.answered);
    return [];
  }

  /** The id of the record an operation on one record acts on: its path's last parameter. */
  #recordId(model: OperationModel, path: string): string | undefined {
    const last = model.pathParameters.at(-1);
    return last && pathValuesOf(model.operation.path, path)?.[last.name];
  }

  /** A create's or a replace's answer: the record as stored. */
  #judgeWritten(
    { model, fields }: { model: OperationModel; fields: string[] },
    { exchange, sent, answered }: Observation,
    stateful: boolean,
    path: string,
  ): BrokenPromise[] {
    const record = exchange.json as Record;
    const created = model.kind === 'create';
    if (created) {
      this.#log.push({ operationId: model.operation.operationId, record });
      // Trimmed in batches: shifting one off a full log on every create would cost its length each time.
      if (this.#log.length >= 2 * MAX_RECORDS) this.#log = this.#log.slice(-MAX_RECORDS);
    }
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
        title: `The ${created ? 'created' : 'replaced'} record is not what was sent`,
        lines: [
          `Received: ${snippet(JSON.stringify(asAnswered), 200)} / Expected: ${snippet(JSON.stringify(asSent), 200)} (the fields sent, exactly; none added)`,
        ],
        exchange,
      });
    }
    const collection = this.#collection(model.listedBy!.operationId);
    const id = created ? idOf(record) : this.#recordId(model, path);
    if (id === undefined) return broken;
    const earlier = created ? collection.records.get(id) : undefined;
    const { listed } = collection;
    // Only where no record can leave the collection: an id another client freed may be given again.
    const listedBefore =
      created &&
      !collection.deletable &&
      listed &&
      listed.answered < sent &&
      listed.ids.has(id) &&
      !collection.deleted.get(id);
    if (earlier || listedBefore) {
      const other = earlier
        ? `${snippet(JSON.stringify(earlier.record), 120)} was created with it`
        : 'a listed record has it';
      broken.push({
        promise: 'ids_unique',
        title: 'A created record was answered with an id another record has',
        lines: [
          `Received: id ${id} for ${snippet(JSON.stringify(record), 120)} / Expected: an id no other record has; ${other}`,
        ],
        exchange,
        involved: [earlier?.exchange ?? listed!.exchange, exchange],
      });
      return broken;
    }
    collection.deleted.delete(id);
    collection.records.set(id, { record, answered, exchange });
    return broken;
  }

  /**
   * A list answer, held to what its documented response declares: `x-order-by` (ascending) and
   * `x-paginated: false` (every record: each the run created or replaced as answered, none it deleted).
   */
  #judgeList(
    list: DocumentedOperation,
    documented: DocumentedResponse,
    exchange: Exchange,
    sent: number,
    stateful: boolean,
    answered: number,
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
    const collection = this.#collection(list.operationId);
    const stale = (changed: { answered: number }) => changed.answered > sent;
    const missing = [...collection.records].find(
      ([id, created]) => !stale(created) && !isDeepStrictEqual(byId.get(id), created.record),
    );
    if (missing) {
      const [id, created] = missing;
      const listed = byId.get(id);
      broken.push({
        promise: 'stored_as_sent',
        title: listed
          ? 'A record is listed otherwise than its last write answered it'
          : 'A record the run wrote is missing from the list',
        lines: [
          `Received: ${listed ? snippet(JSON.stringify(listed), 160) : `no record with id ${id} among ${records.length}`} / Expected: ${snippet(JSON.stringify(created.record), 160)}, as its ${created.exchange.request.method} answered`,
        ],
        exchange,
        involved: [created.exchange, exchange],
      });
    }
    const kept = [...collection.deleted].find(([id, deleted]) => !stale(deleted) && byId.has(id));
    if (kept) {
      const [id, deleted] = kept;
      broken.push({
        promise: 'stored_as_sent',
        title: 'A deleted record is still listed',
        lines: [
          `Received: ${snippet(JSON.stringify(byId.get(id)), 160)} among ${records.length} / Expected: no record with id ${id}, as its delete answered ${deleted.exchange.status}`,
        ],
        exchange,
        involved: [deleted.exchange, exchange],
      });
    }
    collection.listed = { ids: new Set([...byId.keys()].filter((id) => id !== undefined)), answered, exchange };
    return broken;
  }

  #collection(listOperationId: string): Collection {
    let collection = this.#collections.get(listOperationId);
    if (!collection) {
      const deletable = [...this.#models.values()].some(
        ({ model }) => model.kind === 'delete' && model.listedBy?.operationId === listOperationId,
      );
      collection = { records: new RecentlySet(MAX_RECORDS), deleted: new RecentlySet(MAX_RECORDS), deletable };
      this.#collections.set(listOperationId, collection);
    }
    return collection;
  }
}
