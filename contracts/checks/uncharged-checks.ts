import { refusedByParser } from '../core/described-bucket.js';
import { errorCodeOf, headerOf, type ContractRequest, type Exchange } from '../core/exchange.js';
import { integerHeaderOf } from '../core/header-value.js';
import { exampleRequest, operationModels } from '../generate/operation-model.js';
import type { Check, CheckContext } from './check.js';
import { expectThat } from './expectations.js';
import { BROWSER_ORIGIN, reportRule, sendOrNothing } from './rule-reports.js';

/** What one bucket said on an answer: its place, and which window (Limit and Reset) that place is in. */
interface Place {
  remaining: number;
  window: string;
}

function placeOf(exchange: Exchange | undefined): Place | undefined {
  const remaining = exchange && integerHeaderOf(exchange, 'X-RateLimit-Remaining');
  if (!exchange || remaining === undefined || exchange.status === 429) return undefined;
  return {
    remaining,
    window: `${headerOf(exchange, 'x-ratelimit-limit')} until ${headerOf(exchange, 'x-ratelimit-reset')}`,
  };
}

/** How far a bucket moved between two of its answers, when both are places in one window. */
function moved(before: Place | undefined, after: Place | undefined): number | undefined {
  return before && after && before.window === after.window ? before.remaining - after.remaining : undefined;
}

/**
 * A request the spec says costs nothing, with what it is: the suite sends it between two keyed reads and
 * requires the key's window to have moved by the second read alone.
 */
interface Uncharged {
  what: string;
  request: ContractRequest;
  /** Whether the answer shows it is what the spec calls uncharged (a parser's refusal must be bare). */
  applies(exchange: Exchange | undefined): boolean;
  quote: string;
}

function preflight(path: string, method: string): ContractRequest {
  return {
    method: 'OPTIONS',
    path,
    auth: 'none',
    headers: {
      Origin: BROWSER_ORIGIN,
      'Access-Control-Request-Method': method,
      'Access-Control-Request-Headers': 'authorization,content-type',
    },
  };
}

function uncharged(read: ContractRequest): Uncharged[] {
  return [
    {
      what: 'a 401 to a key the service does not know',
      request: { ...read, auth: { bearer: 'not-a-key-of-this-service' } },
      applies: (exchange) => exchange?.status === 401,
      quote: 'A `401` counts in no key’s window',
    },
    {
      // `(` is no token character (RFC 9110 §5.6.2): no HTTP parser reads the request line as a method.
      what: 'an answer before any operation (the key, sent in a request line no HTTP parser takes)',
      request: { ...read, method: `${read.method}(` },
      applies: (exchange) => exchange === undefined || refusedByParser(exchange),
      quote:
        'The HTTP layer (the server the service runs in, before any operation) may answer on its own … what HTTP lets a server answer for itself: a request that is not well-formed HTTP … Such an answer counts in no key’s window.',
    },
  ];
}

/** The key's window across one uncharged request: it moves by the read after it alone. */
async function judgeKeyWindow(context: CheckContext, read: ContractRequest, before: Exchange): Promise<Exchange> {
  let last = before;
  for (const { what, request, applies, quote } of uncharged(read)) {
    const answer = await sendOrNothing(context.send, request);
    const after = await context.send(read);
    const step = moved(placeOf(last), placeOf(after));
    if (!applies(answer) || step === undefined)
      context.note(
        `not measured: ${what} (${answer ? `answered ${answer.status}` : 'no answer'}${step === undefined ? ', no place in the same window to compare' : ''})`,
      );
    else
      expectThat(
        step === 1,
        `The key's window moved by ${step} across ${what} and one read`,
        [
          `Received: X-RateLimit-Remaining ${placeOf(last)!.remaining}, then ${placeOf(after)!.remaining} after ${what} and the read / Expected: ${placeOf(last)!.remaining - 1}: only the read counts`,
          `The spec: "${quote}"`,
        ],
        after,
      );
    last = after;
  }
  return last;
}

/**
 * What a browser's CORS preflight costs: nothing in the key's window (the read after it moved it by one)
 * and nothing in a limit on requests without a valid key (the 401 after it moved that by one at most).
 */
async function judgePreflight(context: CheckContext, read: ContractRequest, before: Exchange): Promise<void> {
  const anonymous: ContractRequest = { ...read, auth: 'none', headers: { Origin: BROWSER_ORIGIN } };
  const refusedBefore = await context.send(anonymous);
  const answers = [
    await sendOrNothing(context.send, preflight(read.path, 'POST')),
    await sendOrNothing(context.send, preflight(read.path, 'GET')),
  ];
  const refusedAfter = await context.send(anonymous);
  const after = await context.send(read);
  const keyStep = moved(placeOf(before), placeOf(after));
  const anonymousStep = moved(placeOf(refusedBefore), placeOf(refusedAfter));
  const charged = answers.find((answer) => (moved(placeOf(refusedBefore), placeOf(answer)) ?? 0) > 0);
  const lines =
    keyStep !== undefined && keyStep > 1
      ? [
          `Received: the key's X-RateLimit-Remaining fell by ${keyStep} across two preflights, two 401s and one read / Expected: by 1`,
        ]
      : (anonymousStep ?? 0) > 1 || charged
        ? [
            `Received: X-RateLimit-Remaining ${placeOf(refusedBefore)!.remaining} on a 401, then ${[...answers, refusedAfter].map((answer) => placeOf(answer)?.remaining ?? 'none').join(', ')} on two preflights and the next 401 / Expected: at most one less, for the 401: a preflight carries no key and is no guess at one`,
          ]
        : undefined;
  if (lines)
    reportRule(
      context,
      'preflight_needs_no_key',
      `The CORS preflight of ${read.path} costs quota`,
      lines,
      charged ?? (keyStep !== undefined && keyStep > 1 ? after : refusedAfter),
    );
}

/**
 * Requests the spec charges to no window, each measured, not assumed: between two reads with the key, a
 * 401 and an answer before any operation leave the key's window moved by the second read alone; CORS
 * preflights move neither the key's window nor a limit on requests without a valid key.
 */
export const unchargedRequestsCostNothing: Check = {
  name: 'uncharged_requests_cost_nothing',
  countsEveryRequestOfTheKey: true,
  verifies:
    "a 401 and an answer before any operation, each between two reads with the key, leave the key's window moved by one (the read); two CORS preflights move neither the key's window nor the limit on requests without a valid key (measured on the 401s around them)",
  needs: ['stateful'],
  async run(context) {
    const model = operationModels().find(({ safe }) => safe)!;
    const read: ContractRequest = { ...exampleRequest(model), headers: { Origin: BROWSER_ORIGIN } };
    const first = await context.send(read);
    if (errorCodeOf(first) !== undefined) return context.note(`no place to measure from: ${first.status} to the read`);
    const last = await judgeKeyWindow(context, read, first);
    await judgePreflight(context, read, last);
  },
};
