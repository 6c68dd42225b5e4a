import { snippet } from '../conformance/response-conformance.js';
import { exampleRequest, operationModels, type OperationModel } from '../generate/operation-model.js';
import { EQUIVALENCES } from '../protocol/equivalences.js';
import { answerDifferences, differenceLines } from '../protocol/answered-alike.js';
import type { Check, CheckContext } from './check.js';
import { expectConforms, expectThat } from './expectations.js';
import { requestOnARecord } from './state-checks.js';

async function expectAnsweredAlike(context: CheckContext, model: OperationModel): Promise<void> {
  // A delete is answered alike only on a record that is there: the plain request and each spelling get one of their own.
  const onItsOwnRecord = model.kind === 'delete';
  const plainRequest = async () => (onItsOwnRecord ? requestOnARecord(context, model) : exampleRequest(model));
  // Marked first: the respelt bodies are built from it, and a raw body is never marked on the way.
  const plain = context.marked(await plainRequest());
  const baseline = await context.send(plain);
  const about = `${plain.method} ${plain.path}`;
  expectConforms(model.operation.operationId, baseline, `${about}, plainly spelt`);
  for (const equivalence of EQUIVALENCES) {
    const applies =
      equivalence.appliesTo === 'any' ||
      (equivalence.appliesTo === 'body' ? plain.json !== undefined : model.pathParameters.length > 0);
    if (!applies) continue;
    const spellings = equivalence.spellings(plain, model);
    for (const [index, spelling] of spellings.entries()) {
      const { spelt, request } = onItsOwnRecord
        ? equivalence.spellings(context.marked(await plainRequest()), model)[index]!
        : spelling;
      const exchange = await context.send(request);
      const what = `${about} with ${spelt} (${equivalence.name}, ${equivalence.basis})`;
      const differences = answerDifferences(exchange, baseline, {
        operationId: model.operation.operationId,
        content: true,
      });
      expectThat(
        differences.length === 0,
        `Answered differently from the plain request (${equivalence.name})`,
        [
          ...differenceLines(differences),
          `Received: ${exchange.status} ${snippet(exchange.text, 160)} / Expected: ${baseline.status} ${snippet(baseline.text, 160)}, as for the plain request`,
          `Rule: ${equivalence.rule} (${equivalence.basis})`,
        ],
        exchange,
      );
      expectConforms(model.operation.operationId, exchange, what);
    }
  }
}

/** Reads spelt in every equivalent way of the table are answered like the plain read. */
export const equivalentReadsAnsweredAlike: Check = {
  name: 'equivalent_reads_answered_alike',
  verifies:
    'every read, spelt each way the equivalence table says is the same (scheme and header-name case, spacing, Accept, percent-encoding), is answered like the plain read',
  needs: ['httpEquivalences'],
  async run(context) {
    for (const model of operationModels().filter(({ safe }) => safe)) await expectAnsweredAlike(context, model);
  },
};

/** Writes spelt in every equivalent way (media type case and parameters, JSON spelling) are answered alike. */
export const equivalentWritesAnsweredAlike: Check = {
  name: 'equivalent_writes_answered_alike',
  verifies:
    'every write, spelt each way the equivalence table says is the same (media type case and charset, JSON whitespace, member order, escapes, header case), is answered like the plain write',
  needs: ['writes', 'httpEquivalences'],
  async run(context) {
    for (const model of operationModels().filter(({ safe }) => !safe)) await expectAnsweredAlike(context, model);
  },
};
