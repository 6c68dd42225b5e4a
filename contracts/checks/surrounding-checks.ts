import { isDeepStrictEqual } from 'node:util';
import { snippet } from '../conformance/response-conformance.js';
import { errorCodeOf, mediaTypeOf, type ContractRequest, type Exchange } from '../core/exchange.js';
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

/**
 * The groups a run sends: each element alone where the target has room; else as many at once as can go
 * together (one value of each field). An element HTTP lets a service refuse goes alone even then: its
 * allowed refusal would explain, and hide, another element's change.
 */
function groupsOf(elements: readonly Surrounding[], budgeted: boolean): Surrounding[][] {
  if (!budgeted) return elements.map((element) => [element]);
  const groups: Surrounding[][] = [];
  for (const element of elements) {
    const group = element.mayRefuse
      ? undefined
      : groups.find((candidate) => !candidate.some((other) => other.mayRefuse || other.field === element.field));
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
 * spec states: a read with the key is answered as without it; a read without a key stays the same 401; a
 * write with a body in chunks or after `Expect: 100-continue` is taken.
 */
export const undeclaredSurroundingsIgnored: Check = {
  name: 'undeclared_surroundings_ignored',
  verifies:
    "every header field of HTTP's registry and of proxies and browsers the spec does not declare (addresses on the loopback and private ranges, another host or path, languages, encodings, a cookie), common query parameters (paging, format, JSONP, debug), HTTP/1.0, absolute-form and Expect are ignored: a keyed read is answered as without them (what it is charged, the model judges), a read without a key stays the same 401; chunked and expectant writes are taken; a budgeted run sends them together and halves a group that changes the answer",
  needs: [],
  async run(context) {
    const all = surroundings();
    const read = exampleRequest(operationModels().find(({ safe }) => safe)!);
    const plain = await context.send(read);
    // Grouped only where the key's quota limits the run, which the first answer's Limit tells.
    const budgeted = context.patience() !== undefined;
    const around = all.filter((element) => !element.withBody);
    // A form of the request line goes alone: each is a request line of its own.
    const free = around.filter(({ axis }) => axis === 'header' || axis === 'query');
    const forms = around.filter(({ axis }) => axis !== 'header' && axis !== 'query');
    for (const group of [...groupsOf(free, budgeted), ...forms.map((form) => [form])]) {
      const found = await culprits(context, read, group, (answer) => {
        if (answer && group[0]!.mayRefuse?.statuses.includes(answer.status)) return false;
        return !answer || !sameAnswer(answer, plain);
      });
      for (const { elements, answer } of found)
        reportChanged(context, elements, answer, plain, `${read.method} ${read.path}`);
    }
    // Without a key: still refused, with the same code. Which limit counts it is not judged: behind a
    // proxy a forwarded address is the client's, and the spec lets a service count per address. A 429 of
    // that limit (the pacer waited it out and it stayed) is the limit's, not the element's.
    const anonymous: ContractRequest = { ...read, auth: 'none' };
    const refused = await context.send(anonymous);
    for (const group of groupsOf(free, true)) {
      const found = await culprits(
        context,
        anonymous,
        group,
        (answer) =>
          !answer ||
          (!(answer.status === 429 && errorCodeOf(answer) === 'rate_limit_exceeded') &&
            (answer.status !== refused.status || errorCodeOf(answer) !== errorCodeOf(refused))),
      );
      for (const { elements, answer } of found)
        reportChanged(context, elements, answer, refused, `${read.method} ${read.path} without a key`);
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
