import fc from 'fast-check';
import {
  exampleRequest,
  invalidPathValues,
  operationModels,
  pathOf,
  validPathValues,
  type OperationModel,
} from '../generate/operation-model.js';
import { checkProperty } from './property.js';
import { answerDifferences, differenceLines } from '../protocol/answered-alike.js';
import { snippet } from '../conformance/response-conformance.js';
import type { Check, CheckContext } from './check.js';
import { expectConforms, expectErrorBody, expectStatus, expectThat } from './expectations.js';
import { reportRule } from './rule-reports.js';
import { httpLayerRefusal } from '../core/described-bucket.js';

const readsWithPathParameters = () =>
  operationModels().filter((model) => model.safe && model.pathParameters.length > 0);

function documentedStatuses(model: OperationModel, except: number[] = []): number[] {
  return Object.keys(model.operation.responses)
    .map(Number)
    .filter((status) => Number.isInteger(status) && !except.includes(status));
}

/** Every valid path parameter value gets a documented answer other than 400; a found resource carries the id asked for. */
export const validParametersAccepted: Check = {
  name: 'valid_parameters_accepted',
  verifies:
    'for every read with path parameters (from the spec), generated valid values (the whole range, int64 included) get a documented answer other than 400; a 200 is the resource asked for',
  needs: ['exactParameters'],
  async run(context) {
    for (const model of readsWithPathParameters()) {
      const generated = model.pathParameters.map((parameter) => ({
        name: parameter.name,
        ...validPathValues(parameter),
      }));
      const values = fc.record(Object.fromEntries(generated.map(({ name, any }) => [name, any])));
      // Each parameter at each end of its range, the others at their first end.
      const examples = generated.flatMap(({ name, examples: ends }) =>
        ends.map((end) => ({
          ...Object.fromEntries(generated.map((other) => [other.name, other.examples[0]!])),
          [name]: end,
        })),
      );
      const last = model.pathParameters.find((parameter) => model.operation.path.endsWith(`{${parameter.name}}`));
      await checkProperty(
        context,
        `${model.operation.operationId} path parameters`,
        values,
        async (chosen) => {
          const path = pathOf(model, chosen);
          const exchange = await context.send({ method: model.operation.method, path });
          expectStatus(exchange, documentedStatuses(model, [400, 401, 429]), `GET ${path}`);
          expectConforms(model.operation.operationId, exchange, `GET ${path}`);
          const id = (exchange.json as { id?: unknown } | undefined)?.id;
          if (exchange.status === model.successStatus && last && id !== undefined) {
            expectThat(
              String(id) === chosen[last.name],
              `The answer is another resource than the one asked for (GET ${path})`,
              [`Received: id ${String(id)} / Expected: ${chosen[last.name]}`],
              exchange,
            );
          }
        },
        { examples },
      );
    }
  },
};

/** Every path parameter value the schema refuses gets 400 invalid_request. */
export const invalidParametersRejected: Check = {
  name: 'invalid_parameters_rejected',
  verifies:
    "for every read with path parameters, generated invalid values (out of range, past int64, fractions, hex, padded, other scripts' digits, any text) answer 400 invalid_request, never 5xx",
  needs: ['exactParameters'],
  async run(context) {
    for (const model of readsWithPathParameters()) {
      const generated = model.pathParameters.map((parameter) => ({
        name: parameter.name,
        ...invalidPathValues(parameter),
      }));
      const broken = fc.oneof(...generated.map(({ name, any }) => any.map((invalid) => ({ ...invalid, name }))));
      const examples = generated.flatMap(({ name, examples: fixed }) => fixed.map((invalid) => ({ ...invalid, name })));
      await checkProperty(
        context,
        `${model.operation.operationId} invalid path parameters`,
        broken,
        async ({ name, value, breaks }) => {
          const path = pathOf(model, { [name]: value });
          const what = `GET ${path} (${name}: ${breaks})`;
          const exchange = await context.send({ method: model.operation.method, path });
          expectStatus(exchange, [400], what);
          expectErrorBody(exchange, 'invalid_request', what);
          expectConforms(model.operation.operationId, exchange, what);
        },
        { examples },
      );
    }
  },
};

// Query strings a client or a proxy can produce: unknown names, repeats, empty parts, bad escapes, size.
const ODD_QUERIES = [
  '?',
  '?&&',
  '?=',
  '?a',
  '?a=1&a=2',
  '?a[]=1&a[]=2',
  '?__proto__[polluted]=1',
  '?%ZZ',
  '?a=%',
  '?a=%E0%A4%A',
  '?%00=%00',
  `?q=${'x'.repeat(2_000)}`,
];
const queryStrings: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...ODD_QUERIES),
  fc
    .dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.string({ maxLength: 12, unit: 'grapheme' }), {
      minKeys: 1,
      maxKeys: 4,
    })
    .map((parameters) => `?${new URLSearchParams(parameters).toString()}`),
);

async function answerWithoutQuery(context: CheckContext, model: OperationModel) {
  const baseline = await context.send(exampleRequest(model));
  expectConforms(model.operation.operationId, baseline, `${model.operation.method} ${pathOf(model)} without a query`);
  return baseline;
}

/**
 * A query that is not RFC 3986's (a `%` without two hex digits, a character the grammar leaves out such as
 * `[`): the request is not well-formed HTTP, which the spec lets be refused with a `400`.
 */
const MALFORMED_QUERY = /%(?![0-9A-Fa-f]{2})|[^A-Za-z0-9\-._~!$&'()*+,;=:@/?%]/;

/**
 * A query string the spec does not define changes nothing: the answer is alike the one without it
 * (answered-alike, the meaning every check uses). One that is not well-formed may be refused with a `400`
 * (an `Error` whose code is `invalid_request`, or the HTTP layer's own); a well-formed one the HTTP layer
 * refuses bare is a warning (design section 7), as for any undeclared element.
 */
export const unknownQueryIgnored: Check = {
  name: 'unknown_query_ignored',
  holds: 'undeclared_elements_change_nothing',
  verifies:
    'for every read, generated query strings the spec does not define (unknown names, repeats, bad escapes, 2 KB values) are answered alike the read without them (status, code, media type, required headers, records); one RFC 3986 does not allow may get a 400, never 5xx',
  needs: [],
  async run(context) {
    for (const model of operationModels().filter(({ safe }) => safe)) {
      const baseline = await answerWithoutQuery(context, model);
      const { operationId } = model.operation;
      await checkProperty(
        context,
        `${operationId} query strings`,
        queryStrings,
        async (query) => {
          const request = exampleRequest(model);
          const what = `${request.method} ${request.path}${query.slice(0, 80)}`;
          const exchange = await context.send({ ...request, path: `${request.path}${query}` });
          if (MALFORMED_QUERY.test(query.slice(1)) && exchange.status === 400) {
            if (!httpLayerRefusal(exchange)) expectErrorBody(exchange, 'invalid_request', what);
            return;
          }
          const differences = answerDifferences(exchange, baseline, { operationId, content: true });
          if (differences.length === 0) return expectConforms(operationId, exchange, what);
          reportRule(
            context,
            'undeclared_elements_change_nothing',
            `The answer changed with a query the spec does not define (${what})`,
            [
              ...differenceLines(differences),
              `Received: ${exchange.status} ${snippet(exchange.text, 200)} / Expected: ${baseline.status} ${snippet(baseline.text, 200)} (as without the query)`,
            ],
            exchange,
            { warning: httpLayerRefusal(exchange) },
          );
        },
        {
          runs: Math.ceil(context.runs / 2),
          examples: ODD_QUERIES,
          describe: (query) => JSON.stringify(query.slice(0, 120)),
        },
      );
    }
  },
};
