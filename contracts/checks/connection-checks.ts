import { snippet } from '../conformance/response-conformance.js';
import { errorCodeOf, headerOf, type Exchange, type SentRequest } from '../core/exchange.js';
import { exampleRequest, operationModels } from '../generate/operation-model.js';
import { exchangeOf, type ConnectionAnswer, type ConnectionOutcome } from '../transport/raw-connection.js';
import { rawReproduction, type RawRequest } from '../transport/request-bytes.js';
import { CheckFailure, type Check, type CheckContext } from './check.js';
import { reportRule, sendOrNothing } from './rule-reports.js';

/** How long a connection may stay silent after an answer before the suite says the server kept it open. */
const CLOSE_WAIT_MS = 2_000;

/** Where a raw request goes: the origin, the read's target as sent, and the Host a client names. */
interface Place {
  origin: string;
  target: string;
  host: string;
  url: string;
}

/** One keyless GET of the read (it costs no key anything: a 401 counts in no key's window), with `fields` after Host. */
function keylessRead(place: Place, fields: ReadonlyArray<readonly [string, string]> = []): RawRequest {
  return { method: 'GET', target: place.target, headers: [['Host', place.host], ...fields] };
}

/** The request as reports print it and `curl` repeats it: its fields other than Host. */
function sentOf(place: Place, request: RawRequest): SentRequest {
  const headers = Object.fromEntries(request.headers.filter(([name]) => name.toLowerCase() !== 'host'));
  return { method: request.method, url: place.url, headers };
}

const described = (answer: ConnectionAnswer | Exchange | undefined) =>
  answer
    ? `${answer.status} ${snippet('text' in answer ? answer.text : answer.body.toString('utf8'), 120)}`
    : 'no answer';

/** Status and error code: what two answers to keyless reads must share to be the same answer. */
const signature = (place: Place, request: RawRequest, answer: ConnectionAnswer) =>
  `${answer.status} ${errorCodeOf(exchangeOf(sentOf(place, request), answer)) ?? ''}`;

/** RFC 9112 §9.6: after the answer to `Connection: close`, the server closes and answers nothing sent after. */
async function closeHonoured(context: CheckContext, place: Place): Promise<void> {
  const closing = keylessRead(place, [['Connection', 'close']]);
  const outcome = await context.connect(place.origin, [closing, keylessRead(place)], {
    pipelined: true,
    awaitClose: true,
    idleMs: CLOSE_WAIT_MS,
  });
  const [first] = outcome.answers;
  if (!first) return;
  const after =
    outcome.answers.length > 1
      ? `answered the request sent after it too (${outcome.answers.map(({ status }) => status).join(', ')})`
      : !outcome.closedByServer
        ? `kept the connection open ${CLOSE_WAIT_MS / 1000} s after the answer`
        : undefined;
  if (!after) return;
  reportRule(
    context,
    'close_ends_the_connection',
    `GET ${place.target} with Connection: close ${after}`,
    [
      `Received: ${after} / Expected: the connection closed after the one answer, ${described(first)}`,
      `Reproduce on one connection: ${rawReproduction(place.origin, [closing, keylessRead(place)])}`,
    ],
    exchangeOf(sentOf(place, closing), first),
  );
}

/** RFC 9112 §9.3, §9.5: an HTTP/1.1 connection is kept after an answer that does not say `close`. */
async function connectionPersists(context: CheckContext, place: Place): Promise<void> {
  const read = keylessRead(place);
  const outcome = await context.connect(place.origin, [read, read], { idleMs: CLOSE_WAIT_MS });
  const [first] = outcome.answers;
  if (!first || outcome.answers.length > 1 || /\bclose\b/i.test(first.headers.connection ?? '')) return;
  reportRule(
    context,
    'connections_persist',
    `GET ${place.target} was answered without Connection: close, and a second request on the connection was not`,
    [
      `Received: ${described(first)}, then ${outcome.closedByServer ? 'the connection closed' : 'nothing'} / Expected: the second request answered on the same connection (HTTP/1.1 keeps connections by default), or Connection: close on the first answer`,
      `Reproduce on one connection: ${rawReproduction(place.origin, [read, read], { oneByOne: true })}`,
    ],
    exchangeOf(sentOf(place, read), first),
  );
}

/** RFC 9112 §9.3.2: pipelined requests are answered in order, as many as the server answers. */
async function pipelinedInOrder(context: CheckContext, place: Place): Promise<void> {
  // Two keyless reads a service answers differently (no key; a token that is not a key), as A B A.
  const missing = keylessRead(place);
  const wrong = keylessRead(place, [['Authorization', 'Bearer not-a-key-of-this-service']]);
  const alone = await Promise.all([missing, wrong].map((one) => context.connect(place.origin, [one])));
  const [a, b] = alone.map(({ answers }) => answers[0]);
  if (!a || !b) return;
  const expected = [signature(place, missing, a), signature(place, wrong, b), signature(place, missing, a)];
  const sequence = [missing, wrong, missing];
  const outcome: ConnectionOutcome = await context.connect(place.origin, sequence, { pipelined: true });
  const got = outcome.answers.map((answer, index) => signature(place, sequence[index]!, answer));
  // A 429 of the keyless limit (on the connection or alone) answers any of them: it says nothing of the order.
  const outOfOrder = got.findIndex(
    (each, index) => !each.startsWith('429') && !expected[index]!.startsWith('429') && each !== expected[index],
  );
  if (outOfOrder < 0) return;
  reportRule(
    context,
    'pipelined_answers_in_order',
    `GET ${place.target} pipelined three times (no key, another token, no key) was answered out of order`,
    [
      `Received: ${got.join('; ')} / Expected: ${expected.slice(0, got.length).join('; ')}, each as the same request alone`,
      `Reproduce on one connection: ${rawReproduction(place.origin, sequence)}`,
    ],
    exchangeOf(sentOf(place, sequence[outOfOrder]!), outcome.answers[outOfOrder]!),
  );
}

/** RFC 9112 §6.1: no `Transfer-Encoding` in an answer to HTTP/1.0 (sent through the run, so it is paced and modelled). */
async function http10AnswersUnchunked(context: CheckContext, read: ReturnType<typeof exampleRequest>): Promise<void> {
  const answer = await sendOrNothing(context.send, {
    ...read,
    wire: { version: '1.0' },
    tries: ['request-line HTTP/1.0'],
  });
  const coding = answer && headerOf(answer, 'transfer-encoding');
  if (!answer || !coding) return;
  reportRule(
    context,
    'no_chunked_answer_to_http10',
    `${read.method} ${read.path} in HTTP/1.0 was answered with Transfer-Encoding: ${coding}`,
    [`Received: Transfer-Encoding: ${coding} / Expected: no Transfer-Encoding in an answer to an HTTP/1.0 request`],
    answer,
  );
}

/** Where the read goes, learnt from an answer the run got (checks are given no address). */
function placeOf(exchange: Exchange): Place {
  const url = new URL(exchange.request.url);
  return { origin: url.origin, target: `${url.pathname}${url.search}`, host: url.host, url: url.href };
}

/**
 * HTTP/1.1's rules for a server's connections, on raw sockets with keyless reads (which cost the key
 * nothing): `Connection: close` ends it, HTTP/1.1 keeps it, pipelined requests are answered in order; and
 * an HTTP/1.0 request is never answered in chunks.
 */
export const connectionRulesKept: Check = {
  name: 'connection_rules_kept',
  verifies:
    'on raw connections (keyless reads, which no key pays for): after Connection: close the server closes and answers nothing more (RFC 9112 §9.6); HTTP/1.1 keeps a connection after an answer without close (§9.3, §9.5, a SHOULD); pipelined requests are answered in order (§9.3.2); an answer to HTTP/1.0 carries no Transfer-Encoding (§6.1)',
  needs: [],
  async run(context) {
    const read = exampleRequest(operationModels().find(({ safe }) => safe)!);
    const refused = await context.send({ ...read, auth: 'none' });
    const place = placeOf(refused);
    await closeHonoured(context, place);
    await connectionPersists(context, place);
    await pipelinedInOrder(context, place);
    await http10AnswersUnchunked(context, read);
  },
};

/** The Host field a request carries: none, or two (the same authority twice, and another one after it). */
const HOST_FORMS: ReadonlyArray<{ spelt: string; fields: (host: string) => Array<readonly [string, string]> }> = [
  { spelt: 'no Host field', fields: () => [] },
  {
    spelt: 'two Host fields with the same value',
    fields: (host) => [
      ['Host', host],
      ['Host', host],
    ],
  },
  {
    spelt: 'two Host fields, the second naming another host',
    fields: (host) => [
      ['Host', host],
      ['Host', 'other.example'],
    ],
  },
];

/** What HTTP lets a server answer such a request: 400 (RFC 9112 §3.2), or its parser's own refusal (a closed connection, 408, 431). */
const HOST_REFUSALS = new Set([400, 408, 431]);

/** RFC 9112 §3.2, the sentence `host_field_required_once` holds a server to. */
export const HOST_REQUIREMENT =
  'A server MUST respond with a 400 (Bad Request) status code to any HTTP/1.1 request message that lacks a Host header field and to any request message that contains more than one Host header field line or a Host header field with an invalid field value.';

/**
 * RFC 9112 §3.2: an HTTP/1.1 request without `Host`, or with two, is answered 400: a service that serves
 * it lets a client choose which host it names. Keyless, so it costs no key anything.
 * Every witness refuses both (Go and Fastify by their servers, Express, Flask and the fake by their own
 * code, since RFC 9112 §3.2 left them no other choice: Node keeps the first of two, gunicorn passes both on).
 */
export const hostFieldRequiredOnce: Check = {
  name: 'host_field_required_once',
  verifies:
    'an HTTP/1.1 request without Host, or with two Host fields, is answered 400 (RFC 9112 §3.2), or refused by the HTTP parser (a closed connection, 408, 431)',
  needs: ['hostChecked'],
  async run(context) {
    const read = exampleRequest(operationModels().find(({ safe }) => safe)!);
    const place = placeOf(await context.send({ ...read, auth: 'none' }));
    const served: Array<{ spelt: string; exchange: Exchange; request: RawRequest }> = [];
    for (const { spelt, fields } of HOST_FORMS) {
      const request: RawRequest = {
        method: 'GET',
        target: place.target,
        headers: [...fields(place.host), ['Connection', 'close']],
      };
      const [answer] = (await context.connect(place.origin, [request])).answers;
      if (!answer || HOST_REFUSALS.has(answer.status)) continue;
      served.push({
        request,
        spelt,
        exchange: exchangeOf({ ...sentOf(place, request), headers: Object.fromEntries(request.headers) }, answer),
      });
    }
    const [first] = served;
    if (!first) return;
    throw new CheckFailure(
      `GET ${place.target} with ${served.map(({ spelt }) => spelt).join(', and with ')} was served`,
      [
        ...served.map(
          ({ spelt, exchange }) =>
            `Received: ${described(exchange)} (${spelt}) / Expected: 400 (or the HTTP parser's refusal: a closed connection, 408, 431)`,
        ),
        ...served.map(({ spelt, request }) => `Reproduce (${spelt}): ${rawReproduction(place.origin, [request])}`),
        `Rule (RFC 9112 §3.2): "${HOST_REQUIREMENT}"`,
      ],
      first.exchange,
      undefined,
      'host_field_required_once',
    );
  },
};
