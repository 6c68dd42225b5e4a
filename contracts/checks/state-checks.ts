import {
  exampleRequest,
  operationModels,
  pathOf,
  pathValue,
  type OperationModel,
} from '../generate/operation-model.js';
import type { ContractRequest, Exchange } from '../core/exchange.js';
import type { DocumentedOperation } from '../core/spec-document.js';
import { CheckNotApplicable, type Check, type CheckContext } from './check.js';
import { expectConforms, expectStatus } from './expectations.js';

// The checks here drive traffic; the run's model (model/record-ledger.ts) judges what it shows: ids
// unique, records stored as sent, a deletion gone from every later list.

/** The operations of the spec on one collection's records, by kind. */
interface Collection {
  list: DocumentedOperation;
  /** Reads of one record. */
  reads: OperationModel[];
  creates: OperationModel[];
  replaces: OperationModel[];
  deletes: OperationModel[];
}

function collections(): Collection[] {
  const byList = new Map<DocumentedOperation, Collection>();
  for (const model of operationModels()) {
    const list = model.listedBy;
    if (!list) continue;
    if (!byList.has(list)) byList.set(list, { list, reads: [], creates: [], replaces: [], deletes: [] });
    const collection = byList.get(list)!;
    if (model.kind === 'read') collection.reads.push(model);
    else if (model.kind === 'create') collection.creates.push(model);
    else if (model.kind === 'replace') collection.replaces.push(model);
    else collection.deletes.push(model);
  }
  return [...byList.values()];
}

async function answered(context: CheckContext, model: OperationModel, request: ContractRequest): Promise<Exchange> {
  const exchange = await context.send(request);
  const what = `${request.method} ${request.path}`;
  expectStatus(exchange, [model.successStatus], what);
  expectConforms(model.operation.operationId, exchange, what);
  return exchange;
}

async function list(context: CheckContext, list: DocumentedOperation): Promise<Exchange> {
  const exchange = await context.send({ method: list.method, path: list.path });
  expectStatus(exchange, [200], `${list.method} ${list.path}`);
  return exchange;
}

/** The id of a record an answer holds, as it goes in a path. */
const idIn = (exchange: Exchange): string | undefined => {
  const id = (exchange.json as { id?: unknown } | undefined)?.id;
  return typeof id === 'number' || typeof id === 'string' ? pathValue(id) : undefined;
};

/** The operation's example request on the record `id` (its last path parameter). */
function onRecord(model: OperationModel, id: string): ContractRequest {
  const last = model.pathParameters.at(-1);
  return { ...exampleRequest(model), path: pathOf(model, last ? { [last.name]: id } : {}) };
}

/**
 * A request of an operation on one record (a delete, a replace) that acts on a record of its own, created
 * now by its collection's create: each call, another record. The run never changes a record it did not
 * create (on a live service, someone's data), so without a create on the collection the check cannot go on.
 * @example const request = await requestOnARecord(context, deleteModel); await context.send(request);
 */
export async function requestOnARecord(context: CheckContext, model: OperationModel): Promise<ContractRequest> {
  const create = operationModels().find(
    (candidate) => candidate.kind === 'create' && candidate.listedBy && candidate.listedBy === model.listedBy,
  );
  const id = create && idIn(await answered(context, create, exampleRequest(create)));
  if (id === undefined)
    throw new CheckNotApplicable(
      `${model.operation.operationId} acts on a record the run must create first, and the spec has no create on its collection that answers an id`,
    );
  return onRecord(model, id);
}

/**
 * The operation's example request, as a check sends it to be admitted: an operation that deletes or
 * replaces one record acts on a record the run created for it ({@link requestOnARecord}), never on the
 * example's (on a live service, someone's data).
 * @example const plain = await requestToAdmit(context, model);
 */
export async function requestToAdmit(context: CheckContext, model: OperationModel): Promise<ContractRequest> {
  const changesOne = (model.kind === 'delete' || model.kind === 'replace') && model.pathParameters.length > 0;
  return changesOne ? requestOnARecord(context, model) : exampleRequest(model);
}

/**
 * Every write of the spec read back, by kind: on each collection, a list, records created (two from the
 * same body), a list, each replaced and one deleted by every replace and delete, a list after each.
 */
export const writesReadBack: Check = {
  name: 'writes_read_back',
  verifies:
    "on each collection of the spec, every create (twice with one body), replace and delete is followed by a list (and a delete by a read of the record), and the run's model holds each to them: new ids unique, records listed as answered, a deleted one gone",
  needs: ['writes', 'stateful'],
  async run(context) {
    for (const { list: listOperation, reads, creates, replaces, deletes } of collections()) {
      await list(context, listOperation);
      const ids: string[] = [];
      for (const create of creates) {
        const request = exampleRequest(create);
        for (const _time of [1, 2]) {
          const id = idIn(await answered(context, create, request));
          if (id !== undefined) ids.push(id);
        }
      }
      await list(context, listOperation);
      for (const replace of replaces) {
        await answered(context, replace, ids[0] ? onRecord(replace, ids[0]) : await requestOnARecord(context, replace));
        await list(context, listOperation);
      }
      for (const deletion of deletes) {
        const request = ids.length > 0 ? onRecord(deletion, ids.pop()!) : await requestOnARecord(context, deletion);
        await answered(context, deletion, request);
        await list(context, listOperation);
        // The deleted record read through each read of one record: the model holds it to no answer of it.
        for (const read of reads) await context.send({ ...exampleRequest(read), path: request.path });
      }
    }
  },
};
