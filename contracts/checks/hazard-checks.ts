import { isDeepStrictEqual } from 'node:util';
import { snippet } from '../conformance/response-conformance.js';
import type { Exchange } from '../core/exchange.js';
import { exampleRequest, operationModels, successOf, type OperationModel } from '../generate/operation-model.js';
import { runtimeHazards, stringMember, type RuntimeHazard } from '../generate/runtime-hazards.js';
import type { Check, CheckContext } from './check.js';
import { expectConforms, expectErrorBody, expectThat } from './expectations.js';

type Body = Record<string, unknown>;

const STRINGS_AS_SENT =
  'A string in a request body is stored exactly as sent. One that holds NUL (`\\u0000`), a lone surrogate (`\\ud800`) or a noncharacter (`\\uffff`), which many stores cannot hold, may instead be answered `400` with an `Error` whose code is `invalid_request`; it is never stored changed.';

const EXPECTED: Record<RuntimeHazard['answer'], (success: number) => string> = {
  refused: () => '400 invalid_request',
  'stored-or-refused': (success) => `${success} with the string stored as sent, or 400 invalid_request`,
  stored: (success) => `${success} with the string stored as sent`,
};

/** The records the operation's list shows, by id, and the list's answer (none unless the target keeps state). */
async function recordsOf(
  context: CheckContext,
  model: OperationModel,
  when: string,
): Promise<{ records: Map<string, Body>; exchange?: Exchange }> {
  const list = model.listedBy;
  if (!list || !context.capabilities.includes('stateful')) return { records: new Map() };
  const exchange = await context.send({ method: list.method, path: list.path });
  expectConforms(list.operationId, exchange, `${list.method} ${list.path} ${when}`);
  if (exchange.status !== Number(successOf(list)) || !Array.isArray(exchange.json)) return { records: new Map() };
  return { records: new Map((exchange.json as Body[]).map((record) => [JSON.stringify(record.id), record])), exchange };
}

/** One hazard's answer, as the spec allows it: never a 5xx; a schema break refused with 400; a string stored as sent or refused. */
function judgeAnswer(
  exchange: Exchange,
  hazard: RuntimeHazard,
  valid: Body,
  model: OperationModel,
  stateful: boolean,
): void {
  const what = `${exchange.request.method} ${model.operation.path} with ${hazard.why} (${hazard.id})`;
  expectThat(
    exchange.status < 500,
    `A body ${hazard.answer === 'refused' ? 'breaking the schema' : 'the spec lets the service store or refuse'} failed the service`,
    [
      `Received: ${exchange.status} ${snippet(exchange.text, 160)} / Expected: ${EXPECTED[hazard.answer](model.successStatus)}, never a 5xx`,
      'The spec: "A request body is UTF-8 JSON" and "internal_error (500: the service failed; no request is meant to provoke it)"',
    ],
    exchange,
  );
  if (hazard.answer === 'stored')
    expectThat(
      exchange.status === model.successStatus,
      `A string holding ${hazard.why} was refused`,
      [
        `Received: ${exchange.status} ${snippet(exchange.text, 160)} / Expected: ${EXPECTED.stored(model.successStatus)}`,
        `The spec: "${STRINGS_AS_SENT}"`,
      ],
      exchange,
    );
  if (exchange.status === 400 || hazard.answer === 'refused') {
    if (hazard.answer === 'refused')
      expectThat(
        exchange.status === 400,
        `A body breaking the schema was answered ${exchange.status}`,
        [
          `Received: ${exchange.status} ${snippet(exchange.text, 160)} to ${what} / Expected: 400 invalid_request, nothing stored`,
          'The spec: "A body that breaks this schema (a property it does not name, in any letter case, included) is answered `400` with an `Error` whose code is `invalid_request`, and nothing is stored."',
        ],
        exchange,
      );
    expectErrorBody(exchange, 'invalid_request', what);
    return;
  }
  expectConforms(model.operation.operationId, exchange, what);
  // A target that keeps no state (Prism) answers its example: what it stored is not its to show.
  if (!stateful) return;
  const sent = hazard.sent!(valid);
  const stored = (exchange.json as Body | undefined)?.[sent.member];
  expectThat(
    stored === sent.value,
    `A string holding ${hazard.why} was stored, but not as sent`,
    [
      `Received: ${sent.member} ${JSON.stringify(stored)} / Expected: ${JSON.stringify(sent.value)} as sent${hazard.answer === 'stored' ? '' : ', or 400 invalid_request'}`,
      `The spec: "${STRINGS_AS_SENT}"`,
    ],
    exchange,
  );
}

/**
 * Bodies that are valid JSON and dangerous to a runtime, each answered as the spec says, and none leaking
 * into another record: the records listed before are unchanged after, and a refused body was not stored.
 */
export const runtimeHazardsAnswered: Check = {
  name: 'runtime_hazards_answered',
  verifies:
    "bodies that are valid JSON and dangerous to a server's runtime (member names of its objects' internals such as __proto__ and constructor, lone surrogates and other odd code points, nesting 2,000 and 3,000 deep, numbers past binary64) are answered as the spec says, never with a 5xx: a schema break 400 and not stored, a string holding NUL, a lone surrogate or a noncharacter stored exactly as sent or refused with 400, any other odd string stored exactly as sent; the records listed before are unchanged after",
  needs: ['writes'],
  async run(context) {
    for (const model of operationModels().filter((candidate) => !candidate.safe && candidate.bodySchema)) {
      const before = await recordsOf(context, model, 'before the hazards');
      const refusedNames = new Set<string>();
      for (const [index, hazard] of runtimeHazards(model.bodySchema!).entries()) {
        // Marked like any write (a live target's records are the run's), and told apart from each other.
        const plain = context.marked(exampleRequest(model));
        const valid = { ...(plain.json as Body) };
        const member = stringMember(model.bodySchema!);
        if (member) valid[member] = `${String(valid[member]).slice(0, 60)} h${index}`;
        const exchange = await context.send({
          ...plain,
          json: undefined,
          rawBody: hazard.body(valid),
          tries: [hazard.id],
        });
        judgeAnswer(exchange, hazard, valid, model, context.capabilities.includes('stateful'));
        if (exchange.status === 400 && member) {
          refusedNames.add(String(valid[member]));
          if (hazard.sent) refusedNames.add(hazard.sent(valid).value);
        }
      }
      const after = await recordsOf(context, model, 'after the hazards');
      if (!after.exchange) continue;
      for (const [id, record] of before.records) {
        const now = after.records.get(id);
        expectThat(
          now === undefined || isDeepStrictEqual(now, record),
          'A record changed while bodies with hazards were sent',
          [
            `Received: ${snippet(JSON.stringify(now ?? null), 200)} / Expected: ${snippet(JSON.stringify(record), 200)}, as before`,
          ],
          after.exchange,
        );
      }
      const stored = [...after.records]
        .filter(([id]) => !before.records.has(id))
        .map(([, record]) => record)
        .filter((record) =>
          Object.values(record).some((value) => typeof value === 'string' && refusedNames.has(value)),
        );
      expectThat(
        stored.length === 0,
        'A body refused with 400 was stored',
        [
          `Received: ${stored.length} record(s) holding a refused body's name: ${snippet(JSON.stringify(stored[0] ?? null), 200)} / Expected: none (the spec: "nothing is stored")`,
        ],
        after.exchange,
      );
    }
  },
};
