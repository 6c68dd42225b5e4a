import { isDeepStrictEqual } from 'node:util';
import { snippet } from '../conformance/response-conformance.js';
import { errorCodeOf, headerOf, mediaTypeOf, type ContractRequest, type Exchange } from '../core/exchange.js';
import { integerHeaderOf } from '../core/header-value.js';
import { exampleRequest, operationModels } from '../generate/operation-model.js';
import { surroundings, type Surrounding } from '../protocol/surroundings.js';
import type { CheckContext, Check } from './check.js';
import { reportRule, sendOrNothing } from './rule-reports.js';

/** What must be the same in two answers: the status, the error code, the media type, the content (a write's bar its id). */
function sameAnswer(answer: Exchange, plain: Exchange): boolean {
  if (answer.status !== plain.status || errorCodeOf(answer) !== errorCodeOf(plain)) return false;
  if (mediaTypeOf(answer) !== mediaTypeOf(plain)) return false;
  const content = (exchange: Exchange) =>
    exchange.request.method !== 'GET' && typeof exchange.json === 'object' && exchange.json !== null
      ? { ...(exchange.json as object), id: undefined }
      : exchange.json;
  return errorCodeOf(plain) !== undefined || isDeepStrictEqual(content(answer), content(plain));
}

interface Place {
  remaining: number;
  limit?: string;
  reset?: string;
}

/** The place an answer claims in the limit on requests without a valid key. */
function placeOf(exchange: Exchange | undefined): Place | undefined {
  const remaining = exchange && integerHeaderOf(exchange, 'X-RateLimit-Remaining');
  if (!exchange || remaining === undefined) return undefined;
  return { remaining, limit: headerOf(exchange, 'x-ratelimit-limit'), reset: headerOf(exchange, 'x-ratelimit-reset') };
}

/**
 * Whether a request counted where the one before it did: the same limit, and in the same window one place
 * on at most (a 401 may count or not); a later window (a minute rolled over) starts afresh. A place above
 * the last one in the same window is another bucket: the element chose who is counted.
 */
function sameBucket(last: Place | undefined, now: Place | undefined): boolean {
  if (!last || !now) return last === now;
  if (last.limit !== now.limit) return false;
  if (last.reset !== now.reset) return Number(now.reset) > Number(last.reset);
  const step = last.remaining - now.remaining;
  return step === 0 || step === 1;
}

const described = (answer: Exchange | undefined) =>
  answer ? `${answer.status} ${snippet(answer.text, 160)}` : 'a closed connection';

/** One request carrying several elements; `tries` names them, so the catalogue counts each. */
function carrying(base: ContractRequest, elements: readonly Surrounding[]): ContractRequest {
  const request = elements.reduce((changed, element) => element.apply(changed), base);
  return { ...request, tries: elements.map(({ id }) => id) };
}

/**
 * Sends `elements` around `base` at once and judges the answer with `differs`; when it differs and more
 * than one element went, halves are tried until each element that changes the answer is found alone (a
 * budget drops the repetition of one request per element, never an element). A group whose halves each
 * pass changed the answer only together: it is reported whole.
 */
async function culprits(
  context: CheckContext,
  base: ContractRequest,
  elements: readonly Surrounding[],
  differs: (answer: Exchange | undefined) => boolean,
): Promise<Array<{ elements: readonly Surrounding[]; answer: Exchange | undefined }>> {
  const answer = await sendOrNothing(context.send, carrying(base, elements));
  if (!differs(answer)) return [];
  if (elements.length === 1) return [{ elements, answer }];
  const half = Math.ceil(elements.length / 2);
  const found = [
    ...(await culprits(context, base, elements.slice(0, half), differs)),
    ...(await culprits(context, base, elements.slice(half), differs)),
  ];
  return found.length > 0 ? found : [{ elements, answer }];
}

/** The groups a run sends: each element alone where the target has room; else as many at once as can go together. */
function groupsOf(elements: readonly Surrounding[], budgeted: boolean): Surrounding[][] {
  if (!budgeted) return elements.map((element) => [element]);
  const groups: Surrounding[][] = [];
  for (const element of elements) {
    // One value per field in a request: a second value of a field opens another group.
    const field = element.spelt.split(':')[0]!.toLowerCase();
    const group = groups.find(
      (candidate) => !candidate.some((other) => other.spelt.split(':')[0]!.toLowerCase() === field),
    );
    if (group) group.push(element);
    else groups.push([element]);
  }
  return groups;
}

function reportChanged(
  context: CheckContext,
  elements: readonly Surrounding[],
  answer: Exchange | undefined,
  plain: Exchange,
  who: string,
): void {
  const [first] = elements;
  const alone = elements.length === 1 ? first : undefined;
  const rule = alone?.required ? 'required_forms_accepted' : 'undeclared_elements_change_nothing';
  const refusal = alone?.mayRefuse ? ` (or ${alone.mayRefuse.statuses.join(', ')}: ${alone.mayRefuse.because})` : '';
  reportRule(
    context,
    rule,
    `${who} with ${elements.map(({ spelt }) => spelt).join(', ')} was answered differently`,
    [
      `Received: ${described(answer)} / Expected: ${described(plain)}, as without ${alone ? 'it' : 'them (each alone was answered as without it)'}${refusal}`,
      ...elements.map(({ id, basis, required }) => `${id} (${basis})${required ? `: "${required}"` : ''}`),
    ],
    answer ?? plain,
  );
}

/**
 * Every undeclared element a client or an intermediary puts around a request (header fields with tempting
 * values, query parameters, HTTP/1.0, absolute-form, chunked framing, an expectation) changes nothing the
 * spec states: a read with the key is answered as without it; a read without a key stays a 401 and counts
 * in the same limit as without it; a write with a body in chunks or after `Expect: 100-continue` is taken.
 */
export const undeclaredSurroundingsIgnored: Check = {
  name: 'undeclared_surroundings_ignored',
  verifies:
    "every header field of HTTP's registry and of proxies and browsers the spec does not declare (addresses on the loopback and private ranges, another host or path, languages, encodings, a cookie), common query parameters (paging, format, JSONP, debug), HTTP/1.0, absolute-form and Expect are ignored: a keyed read is answered as without them, a read without a key stays 401 in the same limit; chunked and expectant writes are taken; a budgeted run sends them together and halves a group that changes the answer",
  needs: [],
  async run(context) {
    const all = surroundings();
    const read = exampleRequest(operationModels().find(({ safe }) => safe)!);
    const plain = await context.send(read);
    // Known once an answer told what the key allows.
    const budgeted = context.patience() !== undefined;
    const around = all.filter((element) => !element.withBody);
    // A form of the request line goes alone: each is a request line of its own.
    const free = around.filter(({ axis }) => axis === 'header' || axis === 'query');
    const forms = around.filter(({ axis }) => axis !== 'header' && axis !== 'query');
    for (const group of [...groupsOf(free, budgeted), ...forms.map((form) => [form])]) {
      const found = await culprits(context, read, group, (answer) => {
        if (answer && group.length === 1 && group[0]!.mayRefuse?.statuses.includes(answer.status)) return false;
        return !answer || !sameAnswer(answer, plain);
      });
      for (const { elements, answer } of found)
        reportChanged(context, elements, answer, plain, `${read.method} ${read.path}`);
    }
    // Without a key: still refused, and counted where the same request without the elements is.
    const anonymous: ContractRequest = { ...read, auth: 'none' };
    const before = await context.send(anonymous);
    let last = before;
    for (const group of groupsOf(free, true)) {
      const found = await culprits(context, anonymous, group, (answer) => {
        const differs =
          !answer ||
          answer.status !== before.status ||
          errorCodeOf(answer) !== errorCodeOf(before) ||
          !sameBucket(placeOf(last), placeOf(answer));
        if (!differs) last = answer;
        return differs;
      });
      for (const { elements, answer } of found)
        reportChanged(context, elements, answer, before, `${read.method} ${read.path} without a key`);
    }
    if (!context.capabilities.includes('writes')) return;
    const write = operationModels().find(({ safe, bodySchema }) => !safe && bodySchema);
    if (!write) return;
    for (const element of all.filter(({ withBody }) => withBody)) {
      const plainWrite = await context.send(context.marked(exampleRequest(write)));
      const answer = await sendOrNothing(context.send, carrying(context.marked(exampleRequest(write)), [element]));
      const refused = answer && element.mayRefuse?.statuses.includes(answer.status);
      if (!refused && (!answer || !sameAnswer(answer, plainWrite)))
        reportChanged(context, [element], answer, plainWrite, `${write.operation.method} ${write.operation.path}`);
    }
  },
};
