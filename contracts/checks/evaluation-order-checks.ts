import { invalidObjectCases } from '../generate/invalid-values.js';
import { exampleRequest, operationModels, pathOf, type OperationModel } from '../generate/operation-model.js';
import fc from 'fast-check';
import type { ContractRequest } from '../core/exchange.js';
import { unknownChildOf } from '../core/spec-operations.js';
import type { Check, CheckContext } from './check.js';
import { expectConforms, expectErrorBody, expectStatus } from './expectations.js';

/**
 * One way a request can be wrong, and the stage that finds it. The spec: "Authentication and quota are
 * evaluated first, then routing, then validation." It orders nothing within validation (media type, size,
 * syntax, schema): the fake's order there is its own choice (ASSUMPTIONS 44), so a request wrong in two
 * of those ways may get either answer.
 */
export interface RequestDefect {
  name: string;
  stage: number;
  status: number;
  code: string;
  /** Whether the defect can be put into a request of this operation. */
  appliesTo(model: OperationModel): boolean;
  /** The request with this defect added. */
  apply(request: ContractRequest, model: OperationModel): ContractRequest;
}

const withBody = (model: OperationModel) => model.bodySchema !== undefined;
const bodyText = (request: ContractRequest) =>
  typeof request.rawBody === 'string' ? request.rawBody : JSON.stringify(request.json);

/** The defects, earliest stage first. */
export const REQUEST_DEFECTS: readonly RequestDefect[] = [
  {
    name: 'no key',
    stage: 1,
    status: 401,
    code: 'missing_api_key',
    appliesTo: () => true,
    apply: (request) => ({ ...request, auth: 'none' }),
  },
  {
    name: 'an unknown key',
    stage: 1,
    status: 401,
    code: 'invalid_api_key',
    appliesTo: () => true,
    apply: (request) => ({ ...request, auth: { bearer: 'contract-suite-unknown-key-0000' } }),
  },
  {
    name: 'an unknown path',
    stage: 2,
    status: 404,
    code: 'not_found',
    appliesTo: () => true,
    apply: (request) => ({ ...request, path: unknownChildOf(request.path.split('?')[0]!) }),
  },
  {
    name: 'an undocumented method',
    stage: 2,
    status: 405,
    code: 'method_not_allowed',
    appliesTo: () => true,
    apply: (request, model) => ({
      ...request,
      method: ['PATCH', 'PUT', 'DELETE'].find(
        (method) =>
          !operationModels().some(
            (other) => other.operation.path === model.operation.path && other.operation.method === method,
          ),
      )!,
    }),
  },
  {
    name: 'a Content-Type of text/plain',
    stage: 3,
    status: 415,
    code: 'unsupported_media_type',
    appliesTo: withBody,
    apply: (request) => ({ ...request, contentType: 'text/plain' }),
  },
  {
    name: 'a body over 16 KiB',
    stage: 3,
    status: 413,
    code: 'payload_too_large',
    appliesTo: withBody,
    apply: (request) => ({ ...request, rawBody: `${bodyText(request)}${' '.repeat(17 * 1024)}` }),
  },
  {
    name: 'a body that is not JSON',
    stage: 3,
    status: 400,
    code: 'invalid_request',
    appliesTo: withBody,
    apply: (request) => ({ ...request, rawBody: '{"name":' }),
  },
  {
    name: 'a body breaking the schema',
    stage: 3,
    status: 400,
    code: 'invalid_request',
    appliesTo: withBody,
    apply: (request, model) => {
      const missing = invalidObjectCases(model.bodySchema!, fc.constant(request.json as Record<string, unknown>)).find(
        ({ breaks }) => breaks.startsWith('required'),
      );
      return { ...request, json: fc.sample(missing?.values ?? fc.constant([]), { numRuns: 1, seed: 0 })[0] };
    },
  },
  {
    name: 'an invalid path parameter',
    stage: 3,
    status: 400,
    code: 'invalid_request',
    appliesTo: (model) => model.pathParameters.length > 0,
    apply: (request, model) => ({
      ...request,
      path: pathOf(model, Object.fromEntries(model.pathParameters.map(({ name }) => [name, 'not-a-number']))),
    }),
  },
];

async function expectEarliestStageAnswers(context: CheckContext, model: OperationModel): Promise<void> {
  const defects = REQUEST_DEFECTS.filter((defect) => defect.appliesTo(model));
  for (const first of defects) {
    for (const later of defects.filter((defect) => defect.stage > first.stage)) {
      // The later stage's defect goes on first, so a routing or auth change is made on top of it.
      const request = first.apply(later.apply(exampleRequest(model), model), model);
      const what = `${request.method} ${request.path} with ${first.name} and ${later.name}`;
      const exchange = await context.send(request);
      expectStatus(exchange, [first.status], `${what}: ${first.name} is found first`);
      expectErrorBody(exchange, first.code, what);
      if (first.stage !== 2) expectConforms(model.operation.operationId, exchange, what);
    }
  }
}

/** Reads wrong in two ways at once answer what the earlier stage finds. */
export const evaluationOrderReads: Check = {
  name: 'evaluation_order_reads',
  verifies:
    'every read wrong in two ways at once (no or unknown key, unknown path or method, invalid parameter) answers the error of the earlier stage: auth, then routing, then validation',
  needs: ['uniformErrors', 'realAuth'],
  async run(context) {
    for (const model of operationModels().filter(({ safe }) => safe)) await expectEarliestStageAnswers(context, model);
  },
};

/** Writes wrong in two ways at once answer what the earlier stage finds. */
export const evaluationOrderWrites: Check = {
  name: 'evaluation_order_writes',
  verifies:
    'every write wrong in two ways at once (key, path or method, and a media type, size, syntax or schema defect) answers the error of the earlier stage: auth, then routing, then validation',
  needs: ['uniformErrors', 'realAuth', 'writes', 'bodyLimit'],
  async run(context) {
    for (const model of operationModels().filter(({ safe }) => !safe)) await expectEarliestStageAnswers(context, model);
  },
};
