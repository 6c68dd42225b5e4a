import fc from 'fast-check';
import { snippet } from '../conformance/response-conformance.js';
import { invalidObjectCases } from '../generate/invalid-values.js';
import { malformedBodies } from '../generate/malformed-bodies.js';
import { exampleRequest, operationModels, successOf, type OperationModel } from '../generate/operation-model.js';
import { checkProperty, NoveltyStop } from './property.js';
import { boundaryObjects, validValues } from '../generate/valid-values.js';
import type { JsonSchema } from '../core/spec-document.js';
import type { ContractRequest } from '../core/exchange.js';
import type { Check, CheckContext } from './check.js';
import { underRule } from './rule-reports.js';
import { expectConforms, expectErrorBody, expectStatus, expectThat } from './expectations.js';

type Body = Record<string, unknown>;
type WriteModel = OperationModel & { bodySchema: JsonSchema };

const writesWithBodies = () =>
  operationModels().filter((model): model is WriteModel => !model.safe && model.bodySchema !== undefined);

/**
 * Random cases drawn from every kind, and one fixed example of each kind (whatever the seed) made from
 * the spec's example body, so that a failing example (which cannot shrink) still reads well.
 */
function casesOf<T>(
  kinds: (base: fc.Arbitrary<Body>) => Array<fc.Arbitrary<T>>,
  model: WriteModel,
): { any: fc.Arbitrary<T>; examples: T[] } {
  const example = fc.constant(exampleRequest(model).json as Body);
  return {
    any: fc.oneof(...kinds(validValues(model.bodySchema) as fc.Arbitrary<Body>)),
    examples: kinds(example).map((kind) => fc.sample(kind, { numRuns: 1, seed: 0 })[0]!),
  };
}

const schemaBreaks = (model: WriteModel) =>
  casesOf(
    (base) =>
      invalidObjectCases(model.bodySchema, base).map(({ breaks, values }) => values.map((body) => ({ breaks, body }))),
    model,
  );
const syntaxBreaks = (model: WriteModel) => casesOf((base) => malformedBodies(base), model);

// Media types that are not JSON by any reading; `null` sends none at all.
const NOT_JSON_MEDIA_TYPES: fc.Arbitrary<string | null> = fc.oneof(
  fc.constantFrom(
    null,
    'text/plain',
    'text/html',
    'application/xml',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/octet-stream',
    'application/jsonx',
    'json',
  ),
  fc
    .tuple(fc.stringMatching(/^[a-z]{1,8}$/), fc.stringMatching(/^[a-z]{1,8}$/))
    .map(([type, subtype]) => `${type}/${subtype}`)
    .filter((media) => !media.includes('json')),
);

/**
 * Every request a write must refuse, each with what it breaks, the kinds taking turns (a schema break, a
 * syntax break, a media type, ...) so that the first few cover every kind.
 */
function refusedRequests(
  model: WriteModel,
  seed: number,
  runs: number,
): Array<{ breaks: string; request: ContractRequest }> {
  const { method, path } = exampleRequest(model);
  const sample = <T>(cases: { any: fc.Arbitrary<T>; examples: T[] }) => [
    ...cases.examples,
    ...fc.sample(cases.any, { seed, numRuns: runs }),
  ];
  const kinds: Array<Array<{ breaks: string; request: ContractRequest }>> = [
    sample(schemaBreaks(model)).map(({ breaks, body }) => ({ breaks, request: { method, path, json: body } })),
    sample(syntaxBreaks(model)).map(({ breaks, bytes }) => ({ breaks, request: { method, path, rawBody: bytes } })),
    fc.sample(NOT_JSON_MEDIA_TYPES, { seed, numRuns: Math.ceil(runs / 4) + 1 }).map((contentType) => ({
      breaks: `Content-Type ${contentType ?? '(none)'}`,
      request: { method, path, json: exampleRequest(model).json, contentType },
    })),
  ];
  const inTurns: Array<{ breaks: string; request: ContractRequest }> = [];
  for (let turn = 0; turn < Math.max(...kinds.map((kind) => kind.length)); turn += 1) {
    for (const kind of kinds) if (turn < kind.length) inTurns.push(kind[turn]!);
  }
  return inTurns;
}

/**
 * Generated valid bodies, boundaries first, each created and read back: the run's model judges the
 * answer and every later list (stored_as_sent), the check that they are accepted.
 */
export const validBodiesStoredAsSent: Check = {
  name: 'valid_bodies_stored_as_sent',
  verifies:
    'for every write (from the spec), generated valid bodies (each length boundary, any Unicode, optional fields present and absent) are accepted, answered and listed exactly as sent',
  needs: ['writes', 'stateful'],
  async run(context) {
    // Where a key's quota limits the run, one list after the creates shows them all: the model holds
    // every later list to every record created, so a list per create is repetition.
    const listEach = context.patience() === undefined;
    for (const model of writesWithBodies()) {
      const { method, path } = exampleRequest(model);
      const list = model.listedBy;
      await checkProperty(
        context,
        `${model.operation.operationId} valid bodies`,
        validValues(model.bodySchema) as fc.Arbitrary<Body>,
        async (body) => {
          const exchange = await context.send({ method, path, json: body });
          expectStatus(exchange, [model.successStatus], `a valid body`);
          expectConforms(model.operation.operationId, exchange, 'a valid body');
          if (listEach && list) await context.send({ method: list.method, path: list.path });
        },
        { examples: boundaryObjects(model.bodySchema) },
      );
      if (!listEach && list) await context.send({ method: list.method, path: list.path });
    }
  },
};

async function expectRefused(
  context: CheckContext,
  model: WriteModel,
  request: ContractRequest,
  breaks: string,
  status: number,
  code: string,
): Promise<void> {
  const exchange = await context.send(request);
  const what = `body breaking ${breaks}`;
  expectStatus(exchange, [status], what);
  expectErrorBody(exchange, code, what);
  expectConforms(model.operation.operationId, exchange, what);
}

/** Generated bodies breaking one schema constraint each answer 400 invalid_request. */
export const invalidBodyRejected: Check = {
  name: 'invalid_body_rejected',
  verifies:
    'for every write, generated bodies breaking one schema constraint each (type, required, unknown field, length in code points just and far past the limit, pattern, range) answer 400 invalid_request',
  needs: ['writes'],
  async run(context) {
    for (const model of writesWithBodies()) {
      const { method, path } = exampleRequest(model);
      const { any, examples } = schemaBreaks(model);
      // A way of breaking that tries one rule of the table (a member name in another letter case) names it
      // when the body is not refused: by its `breaks`, which a shrunk case keeps.
      const ruleOf = new Map(invalidObjectCases(model.bodySchema).map(({ breaks, rule }) => [breaks, rule]));
      await checkProperty(
        context,
        `${model.operation.operationId} invalid bodies`,
        any,
        ({ body, breaks }) => {
          const rule = ruleOf.get(breaks);
          const refused = () =>
            expectRefused(context, model, { method, path, json: body }, breaks, 400, 'invalid_request');
          return rule ? underRule(rule, refused) : refused();
        },
        { examples },
      );
    }
  },
};

/** Generated bodies that are not JSON texts answer 400 invalid_request, never 5xx. */
export const malformedJsonRejected: Check = {
  name: 'malformed_json_rejected',
  verifies:
    'for every write, generated bodies that are not JSON (empty, truncated, trailing data, 7,000 deep, invalid UTF-8, UTF-16, single quotes, NaN) answer 400 invalid_request, never 5xx',
  needs: ['writes', 'uniformErrors'],
  async run(context) {
    for (const model of writesWithBodies()) {
      const { method, path } = exampleRequest(model);
      const { any, examples } = syntaxBreaks(model);
      await checkProperty(
        context,
        `${model.operation.operationId} malformed bodies`,
        any,
        ({ bytes, breaks }) =>
          expectRefused(context, model, { method, path, rawBody: bytes }, breaks, 400, 'invalid_request'),
        {
          examples,
          describe: ({ breaks, bytes }) => `${breaks}: ${bytes.byteLength} bytes`,
        },
      );
    }
  },
};

/** A valid JSON body declared as something else (or as nothing) answers 415. */
export const unsupportedMediaTypeRejected: Check = {
  name: 'unsupported_media_type_rejected',
  verifies:
    'for every write, a valid body sent with a generated Content-Type other than application/json (or none) answers 415 unsupported_media_type',
  needs: ['writes', 'uniformErrors'],
  async run(context) {
    for (const model of writesWithBodies()) {
      const request = exampleRequest(model);
      await checkProperty(
        context,
        `${model.operation.operationId} media types`,
        NOT_JSON_MEDIA_TYPES,
        (contentType) =>
          expectRefused(
            context,
            model,
            { ...request, contentType },
            `Content-Type ${contentType ?? '(none)'}`,
            415,
            'unsupported_media_type',
          ),
        { runs: Math.ceil(context.runs / 4), examples: [null, 'text/plain', 'application/x-www-form-urlencoded'] },
      );
    }
  },
};

/** Whatever the answers, nothing refused is stored: the list is the same before and after. */
export const invalidBodyNotStored: Check = {
  name: 'invalid_body_not_stored',
  verifies:
    'after every refused write (schema breaks, malformed bodies, wrong media types; generated) the list is unchanged: nothing invalid is stored',
  needs: ['writes', 'stateful'],
  async run(context) {
    for (const model of writesWithBodies().filter((candidate) => candidate.listedBy)) {
      const list = model.listedBy!;
      const listIds = async (when: string) => {
        const exchange = await context.send({ method: list.method, path: list.path });
        expectStatus(exchange, [Number(successOf(list))], `${list.method} ${list.path} ${when}`);
        expectConforms(list.operationId, exchange, `${list.method} ${list.path} ${when}`);
        return { exchange, entries: exchange.json as Body[] };
      };
      const before = await listIds('before');
      const known = new Set(before.entries.map((entry) => JSON.stringify(entry.id)));
      const novelty = new NoveltyStop(context);
      let sent = 0;
      for (const { request } of refusedRequests(model, context.seed, Math.ceil(context.runs / 2))) {
        if (novelty.stopped) break;
        await context.send(request);
        sent += 1;
        novelty.caseDone();
      }
      const after = await listIds('after');
      const added = after.entries.filter((entry) => !known.has(JSON.stringify(entry.id)));
      context.note(`${model.operation.operationId}: ${sent} refused requests sent`);
      expectThat(
        added.length === 0,
        'Refused bodies were stored',
        [
          `Received: ${added.length} new entr${added.length === 1 ? 'y' : 'ies'} in ${list.method} ${list.path} / Expected: none`,
          ...added.slice(0, 5).map((entry) => `Stored: ${snippet(JSON.stringify(entry), 200)}`),
        ],
        after.exchange,
      );
    }
  },
};

/** The largest body accepted is 16 KiB (docs/explanation/design.md section 3); whitespace makes a schema-valid body bigger. */
const OVERSIZED_PADDING = ' '.repeat(17 * 1024);

/** A valid but oversized body answers 413 `payload_too_large`. */
export const payloadTooLargeRejected: Check = {
  name: 'payload_too_large_rejected',
  holds: 'bounded_consumption',
  verifies: 'a schema-valid write body over 16 KiB answers 413 payload_too_large',
  needs: ['writes', 'bodyLimit'],
  async run(context) {
    for (const model of writesWithBodies()) {
      const request = exampleRequest(model);
      const rawBody = `${JSON.stringify(request.json)}${OVERSIZED_PADDING}`;
      await expectRefused(context, model, { ...request, rawBody }, `${rawBody.length} bytes`, 413, 'payload_too_large');
    }
  },
};
