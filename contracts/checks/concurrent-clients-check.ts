import fc from 'fast-check';
import { exampleRequest, operationModels } from '../generate/operation-model.js';
import { notCompleted, type PropertyContext } from './property.js';
import { brokenHeading, heldText, type BrokenPromise } from '../model/broken-promise.js';
import type { ContractRequest, Exchange } from '../core/exchange.js';
import { CheckFailure, isSkip, type Check, type CheckContext } from './check.js';

/** What one client's commands act on: its way of sending (which records each exchange for the report). */
interface Client {
  send(request: ContractRequest): Promise<Exchange>;
}

/** One step of a client: a single request, or a burst of requests sent at once. */
class Step implements fc.AsyncCommand<object, Client> {
  constructor(
    readonly label: string,
    readonly requests: readonly ContractRequest[],
  ) {}
  check(): boolean {
    return true;
  }
  async run(_model: object, client: Client): Promise<void> {
    await Promise.all(this.requests.map((request) => client.send(request)));
  }
  toString(): string {
    return this.label;
  }
}

const [read, write] = [
  operationModels().find((model) => model.kind === 'read')!,
  operationModels().find((model) => model.kind === 'create' && model.listedBy),
];

function steps(context: CheckContext, local: boolean): Array<fc.Arbitrary<fc.AsyncCommand<object, Client>>> {
  // On the fake a burst may go past the limit on purpose; on a live key it stays inside the budget, paced.
  const rate = local ? { expectsRateLimit: true } : {};
  const burst = fc.integer({ min: 2, max: Math.max(2, context.maxConcurrency) });
  return [
    fc.constant(new Step(`${read.operation.operationId}`, [exampleRequest(read, rate)])),
    burst.map(
      (size) =>
        new Step(
          `${size} x ${read.operation.operationId} at once`,
          Array.from({ length: size }, () => exampleRequest(read, rate)),
        ),
    ),
    ...(write && context.capabilities.includes('writes')
      ? [
          fc.tuple(fc.constantFrom('a', 'b', 'c'), fc.boolean()).map(([name, described]) => {
            const json = {
              name: `concurrent ${name}`,
              ...(described && { description: 'written while others write' }),
            };
            return new Step(`${write.operation.operationId} ${JSON.stringify(json)}`, [
              exampleRequest(write, { json, ...rate }),
            ]);
          }),
          // Creates at once: the race that hands two of them one id.
          burst.map(
            (size) =>
              new Step(
                `${size} x ${write.operation.operationId} at once`,
                Array.from({ length: size }, (_, index) =>
                  exampleRequest(write, { json: { name: `burst ${index}` }, ...rate }),
                ),
              ),
          ),
        ]
      : []),
  ];
}

/** The bursts every run sends first, whatever the seed and the budget: two clients creating at once, then reading at once. */
function fixedSequences(context: CheckContext): Step[][] {
  const reads = new Step(`2 x ${read.operation.operationId} at once`, [exampleRequest(read), exampleRequest(read)]);
  if (!write || !context.capabilities.includes('writes')) return [[reads], [reads]];
  const creates = (client: string) =>
    new Step(
      `2 x ${write.operation.operationId} at once`,
      [0, 1].map((index) => exampleRequest(write, { json: { name: `fixed burst ${client}${index}` } })),
    );
  return [
    [creates('a'), reads],
    [creates('b'), reads],
  ];
}

type Sent = Array<{ client: number; exchange: Exchange }>;

/** Runs each client's steps at once, then one list; resolves with the promises the outcome broke. */
async function runClients(
  context: CheckContext,
  clients: ReadonlyArray<Iterable<fc.AsyncCommand<object, Client>>>,
  sent: Sent,
): Promise<BrokenPromise[]> {
  await Promise.all(
    clients.map((steps, client) =>
      fc.asyncModelRun(
        () => ({
          model: {},
          real: {
            send: async (request: ContractRequest) => {
              const exchange = await context.send(request);
              sent.push({ client, exchange });
              return exchange;
            },
          },
        }),
        steps,
      ),
    ),
  );
  // Afterwards one list: every record created must be in it, as answered.
  await context.send(exampleRequest(read));
  return context.takeBrokenPromises();
}

function failure(
  context: CheckContext,
  failing: { broken: BrokenPromise[]; sent: Sent; clients: string[] },
  how: string,
): CheckFailure {
  const [first] = failing.broken;
  return new CheckFailure(
    `${brokenHeading(first!.promise)} with ${failing.clients.length} clients at once: ${first!.title}`,
    [
      ...first!.lines,
      heldText(first!.promise),
      `${how}; replay with --seed ${context.seed}:`,
      ...failing.clients.map((steps, index) => `  client ${index + 1}: ${steps}`),
    ],
    first!.exchange,
    failing.sent.map(({ client, exchange }) => ({
      label: `client ${client + 1}, answered ${exchange.status}`,
      exchange,
    })),
    first!.promise,
  );
}

/**
 * Several clients at once: first fixed bursts (two clients creating at once, then reading at once, on
 * every target whatever the budget), then generated sequences of steps (fast-check's model-based
 * commands); the outcome must be one some serial order explains. The run's model judges it: ids unique,
 * every write stored, admissions exactly what was announced, one place per answer. A failing generated
 * sequence shrinks to the fewest clients and steps.
 */
export const concurrentClientsSerialisable: Check = {
  name: 'concurrent_clients_serialisable',
  countsEveryRequestOfTheKey: true,
  verifies:
    'fixed bursts of two clients creating and reading at once, then generated sequences from several clients at once (reads, bursts, creates), end in an outcome some serial order explains: ids unique, every write stored and listed, admissions exactly what X-RateLimit-Remaining announced, no two answers in one place; a failure shrinks to the fewest requests and clients',
  needs: ['stateful'],
  async run(context) {
    const local = context.scenario !== undefined;
    // The fixed bursts are evidence: a run's repetition phase, which comes back for more, skips them.
    const fixed = (context as PropertyContext).phase === 'repetition' ? [] : fixedSequences(context);
    if (context.scenario) await context.scenario.reset();
    const fixedSent: Sent = [];
    const fixedBroken = fixed.length > 0 ? await runClients(context, fixed, fixedSent) : [];
    if (fixedBroken.length > 0)
      throw failure(
        context,
        { broken: fixedBroken, sent: fixedSent, clients: fixed.map((steps) => steps.map(String).join('; ')) },
        `A fixed burst of ${fixed.length} clients, ${fixedSent.length} requests`,
      );
    // On a live target every run is a burst of at least two clients: a race needs two.
    const sequences = fc.array(fc.commands(steps(context, local), { maxCommands: local ? 6 : 3 }), {
      minLength: local ? 1 : 2,
      maxLength: Math.max(2, context.maxConcurrency),
    });
    let failing: { broken: BrokenPromise[]; sent: Sent; clients: string[] } | undefined;
    // Some runs on the fake start with little left in the minute, so a burst goes past the limit.
    // Without the key's plan the minute is left as the target has it.
    const perMinute = context.plan?.perMinute;
    const left =
      perMinute === undefined ? fc.constant(undefined) : fc.integer({ min: Math.min(20, perMinute), max: perMinute });
    // A budget used up (or a step not applicable) ends the property: each shrink would ask it again.
    let skip: Error | undefined;
    const property = fc.asyncProperty(left, sequences, async (remaining, commands) => {
      if (skip) throw skip;
      if (context.scenario) {
        await context.scenario.reset();
        await context.clock!.setEpochSeconds((Math.floor(Date.now() / 60_000) + 2) * 60 + 5);
        if (remaining !== undefined) await context.scenario.setMinuteRemaining(remaining);
      }
      const sent: Sent = [];
      const broken = await runClients(context, commands, sent).catch((error: unknown) => {
        if (isSkip(error)) skip = error;
        throw error;
      });
      if (broken.length === 0) return true;
      failing = { broken, sent, clients: commands.map((steps) => [...steps].map(String).join('; ')) };
      return false;
    });
    // A few generated runs on a live target, more where it allows writes (creates are what races show);
    // none where the run asks for fixed cases only (its evidence phase: the bursts above).
    const runs =
      context.runs === 0
        ? 0
        : local
          ? Math.max(10, Math.round(context.runs / 5))
          : context.capabilities.includes('writes')
            ? 4
            : 2;
    if (runs === 0) {
      context.note(`${fixed.length} fixed clients at once, no generated sequences in this phase`);
      return;
    }
    const result = await fc.check(property, { seed: context.seed, numRuns: runs });
    context.note(
      `${fixed.length} fixed clients at once, then ${result.numRuns} generated sequences of 1 to ${Math.max(2, context.maxConcurrency)} clients at once (seed ${context.seed})`,
    );
    if (!result.failed) return;
    // No sequence broke a promise, yet the run failed: it threw (a budget used up, the target gone).
    if (!failing) throw notCompleted(result.errorInstance, 'concurrent clients');
    throw failure(
      context,
      failing,
      `Shrunk to ${failing.clients.length} clients, ${failing.sent.length} requests (after ${result.numShrinks} shrinks)`,
    );
  },
};
