import { specValidators } from '../conformance/spec-validators.js';
import { headerOf, type Exchange } from '../core/exchange.js';
import { METHOD_OVERRIDE_FIELDS } from '../protocol/surroundings.js';
import type { CheckContext } from './check.js';
import { BROWSER_ORIGIN, reportRule, sendOrNothing } from './rule-reports.js';

// What every_method_routed holds a path's answers to beyond 405-with-Allow: HEAD as its GET, Allow
// naming only methods that work, and a method that is the request line's whatever a header says.

/** HEAD on a path with GET: 405 with Allow, or the GET's status and fields without content (RFC 9110 §9.3.2). */
export async function judgeHead(
  context: CheckContext,
  path: string,
  operationId: string,
  head: Exchange | undefined,
  get: Exchange,
) {
  const what = `HEAD ${path}`;
  if (!head)
    return reportRule(
      context,
      'head_is_get_without_content',
      `${what} got no answer`,
      ['Received: the connection closed / Expected: an answer'],
      undefined,
      { warning: true },
    );
  if (head.status === 405) return;
  if (head.status === get.status && head.status < 300) judgeHeadFields(context, what, operationId, head, get);
  if (head.status !== get.status || headerOf(head, 'content-type') !== headerOf(get, 'content-type'))
    reportRule(
      context,
      'head_is_get_without_content',
      `${what} is neither a 405 nor the GET without content`,
      [
        `Received: ${head.status} ${headerOf(head, 'content-type') ?? ''} / Expected: 405 with Allow, or ${get.status} ${headerOf(get, 'content-type') ?? ''} as the GET answered`,
      ],
      head,
    );
}

/** Fields whose value comes from the content or the moment, which a HEAD may leave out (RFC 9110 §9.3.2). */
const CONTENT_FIELDS = [
  'content-length',
  'transfer-encoding',
  'content-encoding',
  'date',
  'etag',
  'last-modified',
  'connection',
  'keep-alive',
];

/** A HEAD answered as its GET: the GET's fields (the spec's on every answer a MUST), a Content-Length the GET's length. */
function judgeHeadFields(
  context: CheckContext,
  what: string,
  operationId: string,
  head: Exchange,
  get: Exchange,
): void {
  const missing = Object.keys(get.headers).filter((name) => !CONTENT_FIELDS.includes(name) && !(name in head.headers));
  // The fields the spec declares on the GET's answer are the spec's on every answer of the path: a failure.
  const declared = (specValidators().response(operationId, get.status)?.headers ?? []).map(({ name }) =>
    name.toLowerCase(),
  );
  const required = missing.filter((name) => declared.includes(name));
  if (missing.length > 0)
    reportRule(
      context,
      required.length > 0 ? 'head_is_get_without_content' : 'head_fields_as_get',
      `${what} lacks header fields its GET carries`,
      [
        `Received: HEAD without ${missing.join(', ')} / Expected: the GET's header fields${required.length > 0 ? ` (the spec declares ${required.join(', ')})` : ''}`,
      ],
      head,
    );
  const length = headerOf(head, 'content-length');
  // A coded GET (gzip) is measured after the client decoded it: only an uncoded one can be compared.
  const coded = (headerOf(get, 'content-encoding') ?? 'identity').trim().toLowerCase() !== 'identity';
  if (length !== undefined && !coded && get.bytes !== undefined && Number(length) !== get.bytes.length)
    reportRule(
      context,
      'content_length_matches',
      `${what} announces another length than its GET's content`,
      [`Received: Content-Length: ${length} / Expected: ${get.bytes.length}, the GET's content, or none`],
      head,
    );
}

/** Each method an Allow of the path lists works there: none of them answered 405 (RFC 9110 §10.2.1, §15.5.6). */
export function judgeAllowed(
  context: CheckContext,
  path: string,
  answers: Array<Exchange | undefined>,
  answered: ReadonlyMap<string, Exchange>,
): void {
  for (const answer of answers) {
    const allow = answer && headerOf(answer, 'allow');
    if (allow === undefined) continue;
    const refused = allow
      .split(',')
      .map((method) => method.trim())
      .filter((method) => answered.get(method)?.status === 405);
    if (refused.length === 0) continue;
    return reportRule(
      context,
      'allow_lists_the_methods',
      `The Allow of ${path} lists methods the path refuses`,
      [`Received: Allow: ${allow}, and 405 to ${refused.join(', ')} / Expected: only the methods ${path} supports`],
      answered.get(refused[0]!),
    );
  }
}

/**
 * A GET naming another method in every override spelling at once is still the GET: a service that
 * reads the method from them lets a client past a gateway's per-method rules (OWASP API5:2023).
 */
export async function judgeMethodOverride(context: CheckContext, path: string, get: Exchange): Promise<void> {
  const headers = Object.fromEntries(METHOD_OVERRIDE_FIELDS.map((name) => [name, 'DELETE']));
  const overridden = await sendOrNothing(context.send, {
    method: 'GET',
    path: `${path}${path.includes('?') ? '&' : '?'}_method=DELETE`,
    headers: { Origin: BROWSER_ORIGIN, ...headers },
  });
  if (overridden && overridden.status !== get.status)
    reportRule(
      context,
      'method_overrides_ignored',
      `GET ${path} naming DELETE in ${METHOD_OVERRIDE_FIELDS.join(', ')} and _method is not answered as the GET`,
      [`Received: ${overridden.status} / Expected: ${get.status}, as the plain GET: the method is the request line's`],
      overridden,
    );
}
