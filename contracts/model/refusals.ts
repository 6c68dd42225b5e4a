import { operationsOnPath } from '../core/spec-operations.js';
import type { DocumentedOperation, JsonSchema } from '../core/spec-document.js';
import { specValidators } from '../conformance/spec-validators.js';
import { requestHeaderOf, type Exchange } from '../core/exchange.js';
import type { BrokenPromise } from './broken-promise.js';

/** The first stage that refuses a request, read from the request alone (the spec's order of evaluation). */
interface Refusal {
  status: number;
  why: string;
  /** Only a target that checks keys is held to the key's stage. */
  auth?: true;
  /** Other statuses of the same stage the request also earns (validation has no order within it). */
  alsoAccepted?: number[];
}

/** Whether the request can still be judged past a stage: `undefined` when the spec leaves it open. */
type Verdict = Refusal | 'passes' | undefined;

// One of each for every exchange judged: a proxy judges many.
const utf8Encoder = new TextEncoder();
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

function bodyBytes(exchange: Exchange): Uint8Array | undefined {
  const { body, wire } = exchange.request;
  // Bytes with neither Content-Length nor chunks are no content of the request (RFC 9112 §6.3).
  if (body === undefined || wire?.unframed) return undefined;
  return typeof body === 'string' ? utf8Encoder.encode(body) : body;
}

/** `application/json`, with no parameter but `charset=utf-8` (any case): JSON by the equivalence table. */
function mediaVerdict(contentType: string | undefined): 'json' | 'not json' | 'open' {
  if (contentType === undefined) return 'not json';
  const [type, ...parameters] = contentType.split(';').map((part) => part.trim().toLowerCase());
  if (type !== 'application/json') return 'not json';
  return parameters.every((parameter) => /^charset\s*=\s*"?utf-8"?$/.test(parameter)) ? 'json' : 'open';
}

/**
 * The earliest refusal of a request, stage by stage (the key, routing, then the body's media type,
 * size, syntax and schema): a refusal, `'passes'` when every stage the request reaches lets it through,
 * undefined where the spec does not say (an empty body, a byte-order mark, an unusual charset).
 */
function earliestRefusal(operation: DocumentedOperation | undefined, exchange: Exchange, path: string): Verdict {
  const { method } = exchange.request;
  const key = requestHeaderOf(exchange, 'authorization');
  if (key === undefined || key.trim() === '')
    return { status: 401, why: 'it carries no API key (every operation needs one)', auth: true };
  if (!operation) {
    const others = operationsOnPath(path);
    return others
      ? {
          status: 405,
          why: `${path} has no ${method} (the spec documents ${others.map((other) => other.method).join(', ')})`,
        }
      : { status: 404, why: `no operation of the spec has the path ${path}` };
  }
  const schema = operation.requestBody?.content['application/json'];
  if (!schema) return 'passes';
  const bytes = bodyBytes(exchange);
  if (!bytes || bytes.length === 0) return undefined;
  // The spec orders authentication, routing, then validation, and no stage within validation: a body
  // wrong in several ways may get the status of any of them (the fake's order is its own choice).
  const refusals = validationRefusals(operation, exchange, bytes, schema);
  if (refusals === undefined) return undefined;
  const [first, ...others] = refusals;
  if (!first) return 'passes';
  return others.length === 0 ? first : { ...first, alsoAccepted: others.map(({ status }) => status) };
}

/** Every validation stage that refuses the body (media type, size, syntax, schema); undefined where the spec leaves it open. */
function validationRefusals(
  operation: DocumentedOperation,
  exchange: Exchange,
  bytes: Uint8Array,
  schema: JsonSchema,
): Refusal[] | undefined {
  const refusals: Refusal[] = [];
  const media = mediaVerdict(requestHeaderOf(exchange, 'content-type'));
  if (media === 'open') return undefined;
  if (media === 'not json')
    refusals.push({
      status: 415,
      why: `its Content-Type ${requestHeaderOf(exchange, 'content-type') ?? '(none)'} is not application/json`,
    });
  const limit = operation.requestBody?.maxBytes;
  if (limit !== undefined && bytes.length > limit)
    refusals.push({
      status: 413,
      why: `its body of ${bytes.length} bytes is over the spec's x-max-body-bytes ${limit}`,
    });
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return refusals.length > 0 ? refusals : undefined;
  // Syntax and schema too, whatever the media type and size: a service may read the body first.
  let value: unknown;
  try {
    value = JSON.parse(strictUtf8.decode(bytes));
  } catch {
    return [...refusals, { status: 400, why: 'its body is not JSON (as UTF-8)' }];
  }
  const validate = specValidators().schema(schema);
  if (!validate(value))
    refusals.push({
      status: 400,
      why: `its body breaks ${operation.operationId}'s schema (${(validate.errors ?? []).map((error) => `${error.instancePath || 'body'} ${error.message ?? error.keyword}`).join('; ')})`,
    });
  return refusals;
}

/** Statuses that name one stage's refusal: answered to a request that passes that stage, they are wrong. */
const STAGE_STATUSES = [405, 413, 415];

/** What the judging of refusals may use of the target (see {@link refusalBreaks}). */
export interface RefusalJudging {
  /** The target answers routing and parsing errors with the spec's Error (and its exact statuses). */
  exactStatuses: boolean;
  /** The target refuses requests without a key. */
  checksKeys: boolean;
}

/**
 * Holds an answer to the spec's order of evaluation, from the request alone: a request the spec
 * refuses is never admitted (2xx), and on a target with uniform errors it gets the refusal of its
 * earliest stage (or a 429, or a 401 for a key it does not know: only the service knows its keys); a
 * request that passes a stage never gets that stage's status. CORS preflights (OPTIONS) and HEAD are
 * not judged: the spec documents neither.
 */
export function refusalBreaks(
  operation: DocumentedOperation | undefined,
  exchange: Exchange,
  path: string,
  judging: RefusalJudging,
): BrokenPromise[] {
  const { method } = exchange.request;
  if (method === 'OPTIONS' || method === 'HEAD') return [];
  // The spec lets the HTTP layer "read a method token in another letter case as the method that token
  // spells in upper case": `get` on a path with GET may be that GET, or a 405.
  const upper = method.toUpperCase();
  if (upper !== method && operationsOnPath(path)?.some((other) => other.method === upper)) return [];
  let verdict = earliestRefusal(operation, exchange, path);
  if (typeof verdict === 'object' && verdict.auth && !judging.checksKeys) verdict = undefined;
  const { status } = exchange;
  const broken = (
    promise: 'refused_never_admitted' | 'earliest_refusal_answered',
    expected: string,
  ): BrokenPromise[] => [
    {
      promise,
      title:
        promise === 'refused_never_admitted'
          ? `A request the spec refuses was answered ${status}`
          : `Answered ${status}, not the refusal the spec's order of evaluation gives`,
      lines: [`Received: ${status} for ${method} ${path} / Expected: ${expected}`],
      exchange,
    },
  ];
  if (typeof verdict === 'object') {
    if (status >= 200 && status <= 299)
      return broken('refused_never_admitted', `an Error (${verdict.status}), because ${verdict.why}`);
    const excused =
      status === 429 ||
      verdict.status === status ||
      (verdict.alsoAccepted?.includes(status) ?? false) ||
      (status === 401 && !verdict.auth);
    if (judging.exactStatuses && !excused)
      return broken(
        'earliest_refusal_answered',
        `${[verdict.status, ...(verdict.alsoAccepted ?? [])].join(' or ')} (or 429 for the quota), because ${verdict.why}: authentication and quota first, then routing, then validation`,
      );
    return [];
  }
  if (verdict === 'passes' && judging.exactStatuses && STAGE_STATUSES.includes(status)) {
    const reason =
      status === 415
        ? `its Content-Type ${requestHeaderOf(exchange, 'content-type') ?? '(none)'} is JSON`
        : status === 413
          ? "its body is within the spec's limit"
          : `${method} is documented for ${path}`;
    return broken('earliest_refusal_answered', `no ${status}: ${reason}`);
  }
  return [];
}
