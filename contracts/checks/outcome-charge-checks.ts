import { exampleRequest, operationModels, pathOf, type OperationModel } from '../generate/operation-model.js';
import type { ContractRequest } from '../core/exchange.js';
import type { Check } from './check.js';
import { requestToAdmit } from './state-checks.js';

const INT64_MAX = '9223372036854775807';

/**
 * A request that ends in `status` for this operation, where the suite knows how to provoke it without
 * harm. The coverage matrix's rows are these statuses; one with no way here is said in a note.
 */
function provoking(model: OperationModel, status: string): ContractRequest | undefined {
  const plain = exampleRequest(model);
  const withPath = (value: string) => ({
    ...plain,
    path: pathOf(model, Object.fromEntries(model.pathParameters.map(({ name }) => [name, value]))),
  });
  if (Number(status) === model.successStatus) return plain;
  switch (status) {
    case '400':
      if (model.pathParameters.length > 0) return withPath('not-a-number');
      return model.bodySchema ? { ...plain, json: {} } : undefined;
    case '401':
      return { ...plain, auth: 'none' };
    case '404':
      return model.pathParameters.length > 0 ? withPath(INT64_MAX) : undefined;
    case '413':
      return model.bodySchema
        ? { ...plain, rawBody: JSON.stringify(plain.json).replace('{', `{${' '.repeat(17 * 1024)}`) }
        : undefined;
    case '415':
      return model.bodySchema ? { ...plain, contentType: 'text/plain' } : undefined;
    default:
      return undefined;
  }
}

/** One request per documented outcome of every operation, and for unknown paths and other methods, in a row. */
export const everyOutcomeCharged: Check = {
  name: 'every_outcome_charged',
  countsEveryRequestOfTheKey: true,
  verifies:
    "every operation counts against the key's quota whatever its outcome: each documented status the suite can provoke (and an unknown path, another method) lowers X-RateLimit-Remaining by exactly one, a 401 only the anonymous bucket, judged by the run's model",
  needs: ['stateful'],
  async run(context) {
    const { send, capabilities, note } = context;
    const models = operationModels().filter((model) => model.safe || capabilities.includes('writes'));
    const missing: string[] = [];
    const requests: ContractRequest[] = [];
    for (const model of models) {
      for (const status of Object.keys(model.operation.responses)) {
        if (status === '429') continue;
        // A delete's or a replace's success acts on a record the run creates for it (before the row).
        const admitted = Number(status) === model.successStatus && !model.safe;
        const request = admitted ? await requestToAdmit(context, model) : provoking(model, status);
        if (request) requests.push(request);
        else missing.push(`${model.operation.operationId} ${status}`);
      }
    }
    const paths = [...new Set(models.map((model) => pathOf(model)))];
    requests.push(
      { method: 'GET', path: '/no-such-resource' },
      ...paths.map((path) => ({ method: 'PATCH', path, json: {} })),
    );
    // In a row, after one plain read: the model judges each keyed answer against the one before it.
    await send(exampleRequest(models.find((model) => model.safe)!));
    for (const request of requests) await send(request);
    if (missing.length > 0)
      note(
        `no harmless way to provoke: ${missing.join(', ')} (their charge is judged wherever another check meets them)`,
      );
  },
};
