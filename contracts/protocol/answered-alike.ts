import { isDeepStrictEqual } from 'node:util';
import { snippet } from '../conformance/response-conformance.js';
import { documentedOperation, resolveSchema, type JsonSchema } from '../core/spec-document.js';
import { operationsOnPath } from '../core/spec-operations.js';
import { errorCodeOf, mediaTypeOf, type ContractRequest, type Exchange } from '../core/exchange.js';

/** One way an answer differs from the answer it must be alike: `what`, and each side as people read it. */
export interface AnswerDifference {
  what: string;
  expected: string;
  received: string;
}

/** Options of {@link answerDifferences}. */
export interface AlikeOptions {
  /** The operation both requests reach: its documented headers and the members its service assigns. */
  operationId?: string;
  /**
   * Whether the content is compared too. Two answers of one service to one request must hold the same
   * content; two services (a replay against another target) hold other records, so only the rest is.
   */
  content: boolean;
}

/**
 * How `answer` differs from `expected` where the spec leaves a service no room: the status, the error
 * code, the media type, which required headers the spec documents for that status are there, and the
 * content with what the service assigns set aside (the members of the response the request cannot carry:
 * a created record's `id`). An error's message is free wording, and rate-limit values move with the pace,
 * so neither is compared. The one meaning of "answered alike" that every check and the replay use.
 * @example answerDifferences(respelt, plain, { operationId: 'listCategories', content: true }) // []
 */
export function answerDifferences(answer: Exchange, expected: Exchange, options: AlikeOptions): AnswerDifference[] {
  if (answer.status !== expected.status)
    return [{ what: 'status', expected: statusOf(expected), received: statusOf(answer) }];
  const found: AnswerDifference[] = [];
  const differ = (what: string, before: string | undefined, after: string | undefined) => {
    if (before !== after) found.push({ what, expected: before ?? '(none)', received: after ?? '(none)' });
  };
  differ('error code', errorCodeOf(expected), errorCodeOf(answer));
  differ('media type', mediaTypeOf(expected), mediaTypeOf(answer));
  const operation = options.operationId ? documentedOperation(options.operationId) : undefined;
  const documented = operation?.responses[String(answer.status)];
  for (const { name } of documented?.headers.filter(({ required }) => required) ?? []) {
    const presence = (exchange: Exchange) =>
      exchange.headers[name.toLowerCase()] === undefined ? 'absent' : 'present';
    differ(`header ${name}`, presence(expected), presence(answer));
  }
  if (options.content && found.length === 0 && errorCodeOf(expected) === undefined) {
    const assigned = assignedMembers(operation?.requestBody?.content['application/json']);
    const content = (exchange: Exchange) => withoutMembers(exchange.json ?? exchange.text, assigned);
    if (!isDeepStrictEqual(content(answer), content(expected)))
      found.push({ what: 'content', expected: snippet(expected.text, 200), received: snippet(answer.text, 200) });
  }
  return found;
}

/** Whether two answers are alike ({@link answerDifferences} finds nothing). */
export function answeredAlike(answer: Exchange, expected: Exchange, options: AlikeOptions): boolean {
  return answerDifferences(answer, expected, options).length === 0;
}

/** The operation a request of a check is for (its method on its path's template), for {@link AlikeOptions}. */
export function operationIdOf(request: Pick<ContractRequest, 'method' | 'path'>): string | undefined {
  const path = request.path.split('?')[0]!;
  return operationsOnPath(path)?.find(({ method }) => method === request.method)?.operationId;
}

/** The differences as one line each: `status: expected 200, received 404`. */
export function differenceLines(differences: readonly AnswerDifference[]): string[] {
  return differences.map(({ what, expected, received }) => `${what}: expected ${expected}, received ${received}`);
}

function statusOf(exchange: Exchange): string {
  const code = errorCodeOf(exchange);
  return code ? `${exchange.status} ${code}` : String(exchange.status);
}

/**
 * What a service assigns in an answer to a request with this body schema: undefined for a request without
 * one (a read: nothing of its answer is set aside), else a test that is true for a member the body cannot
 * carry. A member the body does carry is the client's and must come back alike.
 */
function assignedMembers(bodySchema: JsonSchema | undefined): ((member: string) => boolean) | undefined {
  if (!bodySchema) return undefined;
  const carried = new Set(Object.keys((resolveSchema(bodySchema).properties ?? {}) as object));
  return (member) => !carried.has(member);
}

function withoutMembers(content: unknown, assigned: ((member: string) => boolean) | undefined): unknown {
  if (!assigned || typeof content !== 'object' || content === null || Array.isArray(content)) return content;
  return Object.fromEntries(Object.entries(content).filter(([member]) => !assigned(member)));
}
