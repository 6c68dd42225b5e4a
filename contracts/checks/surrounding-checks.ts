import { snippet } from '../conformance/response-conformance.js';
import { errorCodeOf, type ContractRequest, type Exchange } from '../core/exchange.js';
import { exampleRequest, operationModels } from '../generate/operation-model.js';
import { httpLayerRefusal } from '../core/described-bucket.js';
import { answeredAlike, operationIdOf } from '../protocol/answered-alike.js';
import { pathSpellings } from '../protocol/path-spellings.js';
import { surroundings, type Surrounding } from '../protocol/surroundings.js';
import type { CheckContext, Check } from './check.js';
import { reportRule, sendOrNothing } from './rule-reports.js';

/** The answer is alike the plain one ({@link answeredAlike}: a write's bar what the service assigns). */
const sameAnswer = (answer: Exchange, plain: Exchange, operationId: string | undefined) =>
  answeredAlike(answer, plain, { operationId, content: true });

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
  byHttpLayer = false,
): void {
  const [first] = elements;
  const alone = elements.length === 1 ? first : undefined;
  const rule = alone?.required ? 'required_forms_accepted' : 'undeclared_elements_change_nothing';
  const refusal = alone?.mayRefuse ? ` (or ${alone.mayRefuse.statuses.join(', ')}: ${alone.mayRefuse.because})` : '';
  const byParser = byHttpLayer && httpLayerRefusal(answer) && !httpLayerRefusal(plain);
  reportRule(
    context,
    rule,
    `${who} with ${elements.map(({ spelt }) => spelt).join(', ')} was ${byParser ? 'refused by the HTTP layer' : 'answered differently'}`,
    [
      `Received: ${described(answer)} / Expected: ${described(plain)}, as without ${alone ? 'it' : 'them (each alone was answered as without it)'}${refusal}${byParser ? '; the HTTP layer may refuse a request on its own' : ''}`,
      ...elements.map(({ id, basis, required }) => `${id} (${basis})${required ? `: "${required}"` : ''}`),
    ],
    answer ?? plain,
    { warning: byParser },
  );
}

/** Sends each group of `elements` around `base` and reports each element (or group) that changes the answer from `plain`. */
async function tryAround(
  context: CheckContext,
  base: ContractRequest,
  plain: Exchange,
  groups: readonly Surrounding[][],
): Promise<void> {
  const who = `${base.method} ${base.path}`;
  for (const group of groups) {
    const found = await culprits(context, base, group, (answer) => {
      if (answer && group.length === 1 && group[0]!.mayRefuse?.statuses.includes(answer.status)) return false;
      return !answer || !sameAnswer(answer, plain, operationIdOf(base));
    });
    for (const { elements, answer } of found) reportChanged(context, elements, answer, plain, who, true);
  }
}

/**
 * Each spelling of a spec path RFC 3986 makes the same (`/%63ategories`) is answered as the path itself
 * or as an unknown path (`404 not_found`): both are allowed, nothing else (the near misses, other paths,
 * are near_miss_paths_not_found's). An answer of the HTTP layer before any operation is its own.
 */
async function equivalentPathsRouted(context: CheckContext): Promise<void> {
  const reads = new Map(
    operationModels()
      .filter(({ safe }) => safe)
      .map((model) => [model.operation.path, model]),
  );
  for (const spelling of pathSpellings().filter(({ either, template }) => either && reads.has(template))) {
    const request = { method: 'GET', path: spelling.plain };
    const plain = await context.send(request);
    const answer = await sendOrNothing(context.send, { method: 'GET', path: spelling.path });
    if (!answer || httpLayerRefusal(answer) || sameAnswer(answer, plain, operationIdOf(request))) continue;
    if (answer.status === 404 && errorCodeOf(answer) === 'not_found') continue;
    reportRule(
      context,
      'undeclared_elements_change_nothing',
      `GET ${spelling.path}, ${spelling.plain} spelt as ${spelling.basis} makes the same path, was answered neither as ${spelling.plain} nor as an unknown path`,
      [
        `Received: ${described(answer)} / Expected: ${described(plain)} as for GET ${spelling.plain}, or 404 not_found (an unknown path)`,
        `${spelling.id} (${spelling.basis}: a percent-encoded unreserved character is that character)`,
      ],
      answer,
    );
  }
}

/**
 * Every undeclared element a client or an intermediary puts around a request (the spec's own names where
 * it does not declare them, HTTP's request fields with values of their grammar, hop-by-hop fields with
 * their Connection, tempting values of proxies' fields, query parameters, HTTP/1.0, absolute-form,
 * chunked framing, an expectation, a path spelt another way RFC 3986 makes the same) changes nothing the
 * spec states: a read with the key is answered as without it; a read without a key stays the same 401; a
 * write with the spec's names in its query or header section, with a body in chunks or after
 * `Expect: 100-continue` is taken as without them.
 */
export const undeclaredSurroundingsIgnored: Check = {
  name: 'undeclared_surroundings_ignored',
  verifies:
    "every element the spec does not declare is ignored: the spec's own parameter, member, header and media type names where it does not declare them (a path parameter or a body member as a query parameter or header field, an answer's header on a request), every request field of HTTP's registry with a value of its grammar (hop-by-hop ones with Connection), tempting values of proxies' and browsers' fields (loopback and private addresses, another host or path, languages, a cookie), common query parameters (paging, format, JSONP, debug), HTTP/1.0, absolute-form and Expect: a keyed read of each operation is answered as without them (what it is charged, the model judges), a read without a key stays the same 401; a write with the spec's names in its query or header section, chunked and expectant writes are taken as without them; a spec path spelt as RFC 3986 makes the same is answered as the path or 404 not_found; a budgeted run sends them together and halves a group that changes the answer",
  needs: [],
  async run(context) {
    const all = surroundings();
    const reads = operationModels().filter(({ safe }) => safe);
    const read = exampleRequest(reads[0]!);
    const plain = await context.send(read);
    // Grouped only where the key's quota limits the run, which the first answer's Limit tells.
    const budgeted = context.patience() !== undefined;
    const around = all.filter((element) => !element.withBody);
    // A form of the request line goes alone: each is a request line of its own.
    const free = around.filter(({ axis }) => axis === 'header' || axis === 'query');
    const forms = around.filter(({ axis }) => axis !== 'header' && axis !== 'query');
    await tryAround(context, read, plain, [...groupsOf(free, budgeted), ...forms.map((form) => [form])]);
    // The spec's own names on each other read (a parameter of one operation sent on another): together
    // whatever the budget, halved when the answer differs; each went alone above where there is room.
    const spec = free.filter(({ source }) => source === 'spec');
    for (const model of reads.slice(1)) {
      const other = exampleRequest(model);
      await tryAround(context, other, await context.send(other), groupsOf(spec, true));
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
    // The spellings RFC 3986 makes the same path are HTTP equivalences: a target that lacks them (Prism)
    // is not tried on them here, as equivalent_reads_answered_alike is skipped on it.
    if (context.capabilities.includes('httpEquivalences')) await equivalentPathsRouted(context);
    else
      context.note(
        'the spellings of the spec paths RFC 3986 makes the same were not tried: the target lacks httpEquivalences',
      );
    if (!context.capabilities.includes('writes')) return;
    const write = operationModels().find(({ safe, bodySchema }) => !safe && bodySchema);
    if (!write) return;
    // The spec's names in a write's query and header section (a body member as a query parameter): always
    // together, halved when the answer differs, since each request stores a record.
    const plainWrite = await context.send(context.marked(exampleRequest(write)));
    const named = spec.filter(({ bodiless }) => !bodiless);
    await tryAround(context, context.marked(exampleRequest(write)), plainWrite, groupsOf(named, true));
    for (const element of all.filter(({ withBody }) => withBody)) {
      const plainWrite = await context.send(context.marked(exampleRequest(write)));
      const answer = await sendOrNothing(context.send, carrying(context.marked(exampleRequest(write)), [element]));
      const refused = answer && element.mayRefuse?.statuses.includes(answer.status);
      if (!refused && (!answer || !sameAnswer(answer, plainWrite, write.operation.operationId)))
        reportChanged(context, [element], answer, plainWrite, `${write.operation.method} ${write.operation.path}`);
    }
  },
};
