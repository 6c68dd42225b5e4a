import { snippet } from '../conformance/response-conformance.js';
import { httpLayerRefusal } from '../core/described-bucket.js';
import { type ContractRequest, type Exchange } from '../core/exchange.js';
import { exampleRequest, operationModels, type OperationModel } from '../generate/operation-model.js';
import { answeredAlike, operationIdOf } from '../protocol/answered-alike.js';
import { rawReproduction, type RawRequest } from '../transport/request-bytes.js';
import { formGroups, type FramingForm } from './framing-forms.js';
import type { Check, CheckContext } from './check.js';
import { reportRule, sendOrNothing } from './rule-reports.js';

/**
 * A rule the spec states for a write, as a request that must be refused: built from the operation (its
 * example body, its `x-max-body-bytes`), never from a list of this suite's own.
 */
interface StatedRule {
  /** What the request breaks, for people: `a body over x-max-body-bytes 16384`. */
  breaks: string;
  request: ContractRequest;
  /** What sets the rule up before its requests (the key's window used up, on the fake), and undoes it after. */
  setUp?: () => Promise<void>;
  tearDown?: () => Promise<void>;
}

/**
 * The rules the spec states for one write: its body limit (where the target keeps one: the model fails a
 * 2xx to an oversized body, whatever its framing), its media type, its schema, authentication, and the
 * quota where the suite can use a window up for nothing (the fake's scenario controls: a 429 costs nothing,
 * and a live key is never driven to one here). The quota last: the window stays used up after it.
 */
function statedRules(context: CheckContext, model: OperationModel): StatedRule[] {
  const example = exampleRequest(model);
  const limit = context.capabilities.includes('bodyLimit') ? model.operation.requestBody?.maxBytes : undefined;
  const { scenario } = context;
  const text = JSON.stringify(example.json);
  return [
    ...(limit === undefined
      ? []
      : [
          {
            breaks: `a body over x-max-body-bytes ${limit}`,
            // Valid JSON padded with whitespace: only its size is wrong.
            request: { ...example, rawBody: `${text}${' '.repeat(limit + 1 - Buffer.byteLength(text))}` },
          },
        ]),
    { breaks: 'a body labelled text/plain', request: { ...example, contentType: 'text/plain' } },
    // An array where the schema wants an object breaks any object schema.
    { breaks: 'a body the schema refuses', request: { ...example, json: [] } },
    { breaks: 'no credentials', request: { ...example, auth: 'none' } },
    { breaks: 'a token that is not a key', request: { ...example, auth: { bearer: 'not-a-key-of-this-service' } } },
    ...(scenario
      ? [
          {
            breaks: "the key's minute window used up",
            // Refused with 429 on purpose: no pacing, no retry; a 429 uses nothing up.
            request: { ...example, expectsRateLimit: true } as ContractRequest,
            // From the fake's start, so its few 429s stay under the ban's threshold, and back to it after.
            setUp: async () => {
              await scenario.reset();
              await scenario.setMinuteRemaining(0);
            },
            tearDown: () => scenario.reset(),
          },
        ]
      : []),
  ];
}

const described = (answer: Exchange | undefined) =>
  answer ? `${answer.status} ${snippet(answer.text, 160)}` : 'a closed connection';

function carrying(base: ContractRequest, forms: readonly FramingForm[]): ContractRequest {
  const request = forms.reduce((changed, form) => form.apply(changed), base);
  return { ...request, tries: forms.map(({ id }) => id) };
}

/** A form (or a group of forms) and its answer, beside the answer it must equal. */
interface FormAnswer {
  forms: readonly FramingForm[];
  answer: Exchange | undefined;
  expected: Exchange;
}

/** What sending a group of forms found: those that change the answer, and those the HTTP parser refused. */
interface FormsFound {
  changed: FormAnswer[];
  refused: FormAnswer[];
}

/** A sender that sends each request once per stated rule (a form's expected request may be another form's). */
type SendOnce = (request: ContractRequest) => Promise<Exchange | undefined>;

/** What a form is held to, said for people: its own meaning where HTTP gives it one, else Content-Length's. */
const heldTo = (forms: readonly FramingForm[]) =>
  (forms.length === 1 && forms[0]!.answeredAs?.said) || 'as with Content-Length';

/**
 * The forms of `group` that change the answer, each tried alone (against what it must be answered as)
 * once the group has (or once the parser refused the group, which says nothing of each form); the group
 * when none does alone and none alone took an answer HTTP allows it.
 */
async function changing(
  send: SendOnce,
  base: ContractRequest,
  group: readonly FramingForm[],
  plain: Exchange,
): Promise<FormsFound> {
  const none: FormsFound = { changed: [], refused: [] };
  const judged = async (forms: readonly FramingForm[]) => {
    const meant = forms.length === 1 ? forms[0]!.answeredAs : undefined;
    const expected = meant ? await send(meant.request(base)) : plain;
    const answer = await send(carrying(base, forms));
    const allowed = forms.length === 1 && answer !== undefined && forms[0]!.mayRefuse?.statuses.includes(answer.status);
    const refused = !!expected && httpLayerRefusal(answer) && !httpLayerRefusal(expected);
    const differs =
      !!expected &&
      !httpLayerRefusal(answer) &&
      !answeredAlike(answer!, expected, { operationId: operationIdOf(base), content: true }) &&
      !allowed;
    return { found: expected && { forms, answer, expected }, refused, differs, allowed };
  };
  const whole = await judged(group);
  if (!whole.found || (!whole.differs && !whole.refused)) return none;
  if (group.length === 1)
    return whole.refused ? { ...none, refused: [whole.found] } : { ...none, changed: [whole.found] };
  const found: FormsFound = { changed: [], refused: [] };
  let explained = false;
  for (const form of group) {
    const one = await judged([form]);
    if (!one.found) continue;
    if (one.differs) found.changed.push(one.found);
    else if (one.refused) found.refused.push(one.found);
    explained ||= one.allowed === true;
  }
  if (found.changed.length === 0 && found.refused.length === 0 && !whole.refused && !explained)
    found.changed.push(whole.found);
  return found;
}

/** How long a request without framing may wait for its answer: a server that reads a body to the close waits for ever. */
const UNFRAMED_ANSWER_MS = 5_000;

/**
 * A write in HTTP/1.0 with its body after the header section and neither `Content-Length` nor chunks: RFC
 * 9112 §6.3 says such a request has no content, so it is answered at once as one without a body (no key:
 * 401, which costs no key anything), never held open waiting for the client to close (reading a body to
 * the close is a response's framing, not a request's).
 */
async function unframedBodyNotAwaited(context: CheckContext, write: OperationModel, keyless: Exchange): Promise<void> {
  const url = new URL(keyless.request.url);
  const raw: RawRequest = {
    method: write.operation.method,
    target: `${url.pathname}${url.search}`,
    version: '1.0',
    headers: [
      ['Host', url.host],
      ['Content-Type', 'application/json'],
    ],
    body: { bytes: JSON.stringify(exampleRequest(write).json), framing: 'none' },
  };
  const outcome = await context.connect(url.origin, [raw], { timeoutMs: UNFRAMED_ANSWER_MS });
  if (outcome.answers.length > 0 || outcome.closedByServer) return;
  reportRule(
    context,
    'limits_hold_under_every_framing',
    `${write.operation.method} ${write.operation.path} in HTTP/1.0 with a body but neither Content-Length nor chunks was not answered in ${UNFRAMED_ANSWER_MS / 1000} s`,
    [
      `Received: no answer, the connection held open / Expected: ${described(keyless)} at once: a request with neither field has no content (RFC 9112 §6.3: "If this is a request message and none of the above are true, then the message body length is zero (no message body is present)."); the bytes after its header section are not a body to read to the close`,
      `Reproduce: ${rawReproduction(url.origin, [raw])} (it waits: the connection stays open)`,
    ],
    undefined,
  );
}

/**
 * Each rule the spec states for a write (the body limit, the media type, the schema, authentication)
 * holds under every framing and request form a client may choose (framing-forms.ts): the body in chunks,
 * with a trailer section that would change the answer if merged, absolute-form, HTTP/1.0; a body without
 * framing is no body.
 */
export const limitsHoldUnderEveryFraming: Check = {
  name: 'limits_hold_under_every_framing',
  verifies:
    "each rule the spec states for a write (x-max-body-bytes with 413, the media type with 415, the schema with 400, no key or a token that is not one with 401, and on the fake a key whose minute window is used up with 429) is answered the same under every framing and request form (chunked, a trailer section, absolute-form, HTTP/1.0) as under Content-Length; a trailer section holding the key or the other Content-Type changes nothing: the request is answered as the same chunks without it (RFC 9110 §6.5.1, RFC 9112 §7.1.2); an HTTP/1.0 write whose body has neither Content-Length nor chunks, ended by the close, is answered as the same request without a body, and at once without the close (RFC 9112 §6.3); the HTTP layer's own bare refusal of a form (400, 411, 501, 505, a closed connection) is a warning; a budgeted run sends the forms that combine together and halves a group that changes the answer",
  // The refusals are compared by their Error codes, which a target without uniformErrors does not give.
  needs: ['writes', 'uniformErrors'],
  async run(context) {
    const write = operationModels().find(({ safe, bodySchema }) => !safe && bodySchema);
    if (!write) return;
    let keyless: Exchange | undefined;
    for (const { breaks, request, setUp, tearDown } of statedRules(context, write)) {
      await setUp?.();
      const plain = await context.send(request);
      if (request.auth !== undefined) keyless ??= plain;
      // Grouped only where the key's quota limits the run, which the first answer's Limit tells.
      const budgeted = context.patience() !== undefined;
      // Each request once for this rule: a form's expected request may be another form's own (the same
      // chunks without the trailer section), which the forms' order sends first, with its entry.
      const answers = new Map<string, Promise<Exchange | undefined>>();
      const sendOnce: SendOnce = (one) => {
        const key = JSON.stringify({ ...one, tries: undefined });
        if (!answers.has(key)) answers.set(key, sendOrNothing(context.send, one));
        return answers.get(key)!;
      };
      const what = `${write.operation.method} ${write.operation.path} with ${breaks}`;
      for (const group of formGroups(budgeted)) {
        const { changed, refused } = await changing(sendOnce, request, group, plain);
        for (const { forms, answer, expected } of refused)
          reportRule(
            context,
            forms[0]!.rule,
            `${what}, sent with ${forms[0]!.spelt}, was refused by the HTTP parser`,
            [
              `Received: ${described(answer)} / Expected: ${described(expected)}, ${heldTo(forms)}; the HTTP layer may refuse a request on its own`,
            ],
            answer,
            { warning: true },
          );
        for (const { forms, answer, expected } of changed) {
          const alone = forms.length === 1 ? forms[0] : undefined;
          const refusal = alone?.mayRefuse
            ? ` (or ${alone.mayRefuse.statuses.join(', ')}: ${alone.mayRefuse.because})`
            : '';
          reportRule(
            context,
            alone?.rule ?? 'limits_hold_under_every_framing',
            `${what}, sent with ${forms.map(({ spelt }) => spelt).join(' and ')}, was answered differently`,
            [
              `Received: ${described(answer)} / Expected: ${described(expected)}, ${heldTo(forms)}${refusal}`,
              ...forms.map(({ id, basis }) => `${id} (${basis})`),
            ],
            answer ?? expected,
          );
        }
      }
      await tearDown?.();
    }
    // Last: with no answer to show, a finding here ends the check.
    if (keyless) await unframedBodyNotAwaited(context, write, keyless);
  },
};
