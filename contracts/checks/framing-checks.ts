import { snippet } from '../conformance/response-conformance.js';
import {
  bearerTokenOf,
  errorCodeOf,
  headerOf,
  requestHeaderOf,
  type ContractRequest,
  type Exchange,
} from '../core/exchange.js';
import { exampleRequest, operationModels, type OperationModel } from '../generate/operation-model.js';
import { surroundings, type Surrounding } from '../protocol/surroundings.js';
import { exchangeOf, sendOnConnection } from '../transport/raw-connection.js';
import { rawReproduction, type RawRequest } from '../transport/request-bytes.js';
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
}

/**
 * The rules the spec states for one write: its body limit (where the target keeps one: the model fails a
 * 2xx to an oversized body, whatever its framing), its media type, its schema, authentication.
 */
function statedRules(model: OperationModel, keepsLimit: boolean): StatedRule[] {
  const example = exampleRequest(model);
  const limit = keepsLimit ? model.operation.requestBody?.maxBytes : undefined;
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
  ];
}

/** Whether two answers say the same thing: the status and the error code (what the spec states of a refusal). */
const answeredAlike = (answer: Exchange, plain: Exchange) =>
  answer.status === plain.status && errorCodeOf(answer) === errorCodeOf(plain);

// What the spec lets the HTTP layer answer on its own, before any operation and without X-RateLimit-*.
const HTTP_LAYER_STATUSES = new Set([400, 408, 411, 414, 417, 426, 431, 501, 505]);

/**
 * A refusal of the server's HTTP parser, which keeps the allowance the spec gives the HTTP layer: a
 * closed connection, or one of its statuses without X-RateLimit-* (a service's own answer carries them).
 */
const parserRefusal = (answer: Exchange | undefined) =>
  !answer || (HTTP_LAYER_STATUSES.has(answer.status) && headerOf(answer, 'x-ratelimit-limit') === undefined);

const described = (answer: Exchange | undefined) =>
  answer ? `${answer.status} ${snippet(answer.text, 160)}` : 'a closed connection';

/**
 * The forms of framing and of the request line a write may take (derived: the surroundings of those axes
 * that carry a body or change the request line), in the groups a run sends: each alone where the target
 * has room; else the forms that combine in one request (chunks and absolute-form) together, and HTTP/1.0
 * (which has no chunked coding) apart.
 */
function formGroups(budgeted: boolean): Surrounding[][] {
  const forms = surroundings().filter(({ axis }) => axis === 'framing' || axis === 'request-line');
  if (!budgeted) return forms.map((form) => [form]);
  const http10 = forms.filter(({ id }) => id.includes('HTTP/1.0'));
  return [forms.filter((form) => !http10.includes(form)), http10].filter((group) => group.length > 0);
}

function carrying(base: ContractRequest, forms: readonly Surrounding[]): ContractRequest {
  const request = forms.reduce((changed, form) => form.apply(changed), base);
  return { ...request, tries: forms.map(({ id }) => id) };
}

/** What sending a group of forms found: those that change the answer, and those the HTTP parser refused. */
interface FormsFound {
  changed: Array<{ forms: readonly Surrounding[]; answer: Exchange | undefined }>;
  refused: Array<{ form: Surrounding; answer: Exchange | undefined }>;
}

/**
 * The forms of `group` that change the answer, each tried alone once the group has (or once the parser
 * refused the group, which says nothing of each form); the group when none does alone.
 */
async function changing(
  context: CheckContext,
  base: ContractRequest,
  group: readonly Surrounding[],
  plain: Exchange,
): Promise<FormsFound> {
  const differs = (forms: readonly Surrounding[], answer: Exchange | undefined) =>
    !parserRefusal(answer) &&
    !answeredAlike(answer!, plain) &&
    !(forms.length === 1 && forms[0]!.mayRefuse?.statuses.includes(answer!.status));
  const answer = await sendOrNothing(context.send, carrying(base, group));
  const refused = parserRefusal(answer) && !parserRefusal(plain);
  if (!differs(group, answer) && !refused) return { changed: [], refused: [] };
  if (group.length === 1)
    return refused
      ? { changed: [], refused: [{ form: group[0]!, answer }] }
      : { changed: [{ forms: group, answer }], refused: [] };
  const found: FormsFound = { changed: [], refused: [] };
  for (const form of group) {
    const one = await sendOrNothing(context.send, carrying(base, [form]));
    if (differs([form], one)) found.changed.push({ forms: [form], answer: one });
    else if (parserRefusal(one) && !parserRefusal(plain)) found.refused.push({ form, answer: one });
  }
  if (found.changed.length === 0 && found.refused.length === 0 && !refused)
    found.changed.push({ forms: group, answer });
  return found;
}

/**
 * Fields sent only in a chunked body's trailer section, where a server that merged them into the header
 * section would read a credential: alone, and after a header field with a token that is not the key.
 */
async function trailersMergeNothing(context: CheckContext, write: OperationModel, keyed: Exchange): Promise<void> {
  const credential = requestHeaderOf(keyed, 'authorization');
  if (!credential) return;
  const url = new URL(keyed.request.url);
  const body = JSON.stringify(exampleRequest(write).json);
  const cases: ContractRequest[] = [
    { ...exampleRequest(write), auth: 'none' },
    { ...exampleRequest(write), auth: { bearer: 'not-a-key-of-this-service' } },
  ];
  for (const request of cases) {
    // What the same request is answered in chunks without the trailer (no key: it costs the key nothing).
    const plain = await sendOrNothing(context.send, { ...request, wire: { chunked: true } });
    if (!plain) continue;
    const header = requestHeaderOf(plain, 'authorization');
    // The plain request's own fields (Accept, Content-Type, the other token), then the trailer.
    const fields = Object.entries(plain.request.headers).filter(([name]) => !/^(host|connection)$/i.test(name));
    const raw: RawRequest = {
      method: write.operation.method,
      target: `${url.pathname}${url.search}`,
      headers: [['Host', url.host], ...fields, ['Trailer', 'Authorization'], ['Connection', 'close']],
      body: { bytes: body, framing: 'chunked', trailers: [['Authorization', credential]] },
    };
    const { answers } = await sendOnConnection(url.origin, [raw]);
    const [answer] = answers;
    // A 429 of the limit on keyless requests is that limit's, not the trailer's.
    if (
      !answer ||
      answer.status === 429 ||
      parserRefusal(exchangeOf(plain.request, answer)) ||
      (answer.status === plain.status && errorCodeOf(exchangeOf(plain.request, answer)) === errorCodeOf(plain))
    )
      continue;
    const shown = exchangeOf(
      { ...plain.request, headers: { ...plain.request.headers, Trailer: 'Authorization' } },
      answer,
    );
    reportRule(
      context,
      'trailers_change_no_header',
      `${write.operation.method} ${write.operation.path} with the key only in the trailer section${header ? ', after a header Authorization with another token,' : ''} was answered as if the key were a header field`,
      [
        `Received: ${described(shown)} / Expected: ${described(plain)}, as without the trailer`,
        'The trailer section held Authorization: Bearer ${PETSTORE_API_KEY} (curl cannot send a trailer section: the curl below sends the rest of the request)',
        `Reproduce with the trailer: ${rawReproduction(url.origin, [raw], { secret: bearerTokenOf(keyed) })}`,
      ],
      shown,
    );
  }
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
  const outcome = await sendOnConnection(url.origin, [raw], { timeoutMs: UNFRAMED_ANSWER_MS });
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
 * holds under every framing and request form a client may choose: the body in chunks, absolute-form,
 * HTTP/1.0; a key sent only in a trailer section admits nothing; a body without framing is no body.
 */
export const limitsHoldUnderEveryFraming: Check = {
  name: 'limits_hold_under_every_framing',
  verifies:
    "each rule the spec states for a write (x-max-body-bytes with 413, the media type with 415, the schema with 400, the key with 401) is answered the same under every framing and request form (chunked, absolute-form, HTTP/1.0) as under Content-Length; the key only in a chunked body's trailer section admits nothing (RFC 9112 §7.1.2); an HTTP/1.0 write whose body has neither Content-Length nor chunks is answered at once, as one without a body (RFC 9112 §6.3); a budgeted run sends the forms that combine together and halves a group that changes the answer",
  // The refusals are compared by their Error codes, which a target without uniformErrors does not give.
  needs: ['writes', 'uniformErrors'],
  async run(context) {
    const write = operationModels().find(({ safe, bodySchema }) => !safe && bodySchema);
    if (!write) return;
    let keyed: Exchange | undefined;
    let keyless: Exchange | undefined;
    for (const { breaks, request } of statedRules(write, context.capabilities.includes('bodyLimit'))) {
      const plain = await context.send(request);
      if (request.auth === undefined) keyed ??= plain;
      else keyless ??= plain;
      // Grouped only where the key's quota limits the run, which the first answer's Limit tells.
      const budgeted = context.patience() !== undefined;
      for (const group of formGroups(budgeted)) {
        const { changed, refused } = await changing(context, request, group, plain);
        for (const { form, answer } of refused)
          reportRule(
            context,
            'limits_hold_under_every_framing',
            `${write.operation.method} ${write.operation.path} with ${breaks}, sent with ${form.spelt}, was refused by the HTTP parser`,
            [
              `Received: ${described(answer)} / Expected: ${described(plain)}, as with Content-Length; the HTTP layer may refuse a request on its own`,
            ],
            answer,
            { warning: true },
          );
        for (const { forms, answer } of changed) {
          const alone = forms.length === 1 ? forms[0] : undefined;
          const refusal = alone?.mayRefuse
            ? ` (or ${alone.mayRefuse.statuses.join(', ')}: ${alone.mayRefuse.because})`
            : '';
          reportRule(
            context,
            'limits_hold_under_every_framing',
            `${write.operation.method} ${write.operation.path} with ${breaks}, sent with ${forms.map(({ spelt }) => spelt).join(' and ')}, was answered differently`,
            [
              `Received: ${described(answer)} / Expected: ${described(plain)}, as with Content-Length${refusal}`,
              ...forms.map(({ id, basis }) => `${id} (${basis})`),
            ],
            answer ?? plain,
          );
        }
      }
    }
    if (keyed) await trailersMergeNothing(context, write, keyed);
    // Last: with no answer to show, a finding here ends the check.
    if (keyless) await unframedBodyNotAwaited(context, write, keyless);
  },
};
