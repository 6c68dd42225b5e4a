import {
  exampleRequest,
  operationModels,
  pathOf,
  pathValue,
  type OperationModel,
} from '../generate/operation-model.js';
import type { ContractRequest, Exchange } from '../core/exchange.js';
import type { DocumentedOperation } from '../core/spec-document.js';
import type { Check, CheckContext } from './check.js';
import { expectConforms, expectStatus } from './expectations.js';

// The checks here drive traffic; the run's model (model/record-ledger.ts) judges what it shows: ids
// unique, records stored as sent, a deletion gone from every later list.

/** The operations of the spec on one collection's records, by kind. */
interface Collection {
  list: DocumentedOperation;
  creates: OperationModel[];
  replaces: OperationModel[];
  deletes: OperationModel[];
}

function collections(): Collection[] {
  const byList = new Map<DocumentedOperation, Collection>();
  for (const model of operationModels()) {
    const list = model.listedBy;
    if (!list || model.kind === 'read') continue;
    if (!byList.has(list)) byList.set(list, { list, creates: [], replaces: [], deletes: [] });
    const collection = byList.get(list)!;
    if (model.kind === 'create') collection.creates.push(model);
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
 * A request of an operation on one record (a delete, a replace) that acts on a record of its own: one
 * created now by its collection's create, else the last its list holds. Each call, another record.
 * @example const request = await requestOnARecord(context, deleteModel); await context.send(request);
 */
export async function requestOnARecord(context: CheckContext, model: OperationModel): Promise<ContractRequest> {
  const create = operationModels().find(
    (candidate) => candidate.kind === 'create' && candidate.listedBy && candidate.listedBy === model.listedBy,
  );
  if (create) {
    const id = idIn(await answered(context, create, exampleRequest(create)));
    if (id !== undefined) return onRecord(model, id);
  }
  const listed = model.listedBy ? (await list(context, model.listedBy)).json : undefined;
  const last = Array.isArray(listed) ? (listed.at(-1) as { id?: unknown } | undefined) : undefined;
  return onRecord(model, typeof last?.id === 'number' || typeof last?.id === 'string' ? pathValue(last.id) : '1');
}

/**
 * Every write of the spec read back, by kind: on each collection, a list, records created (two from the
 * same body), a list, each replaced and one deleted by every replace and delete, a list after each.
 */
export const writesReadBack: Check = {
  name: 'writes_read_back',
  verifies:
    "on each collection of the spec, every create (twice with one body), replace and delete is followed by a list, and the run's model holds each list to them: new ids unique, records listed as answered, a deleted one gone",
  needs: ['writes', 'stateful'],
  async run(context) {
    for (const { list: listOperation, creates, replaces, deletes } of collections()) {
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
        const id = ids.pop();
        await answered(context, deletion, id ? onRecord(deletion, id) : await requestOnARecord(context, deletion));
        await list(context, listOperation);
      }
    }
  },
};
