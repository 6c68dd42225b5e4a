import { responseViolations, snippet, type ConformanceOptions } from '../conformance/response-conformance.js';
import { integerHeaderVerdict } from '../core/header-value.js';
import { specValidators, schemaViolations } from '../conformance/spec-validators.js';
import { DEPRECATION_HEADERS } from '../core/deprecation-headers.js';
import { headerOf, mediaTypeOf, type Exchange } from '../core/exchange.js';
import { CheckFailure } from './check.js';

/** What the request was about, for the first line of a failure ("for name longer than 100 characters"). */
function about(context: string | undefined): string {
  return context ? ` (${context})` : '';
}

/**
 * Fails unless the status is one of `expected`.
 * @example expectStatus(exchange, [400], 'name missing')
 */
export function expectStatus(exchange: Exchange, expected: readonly number[], context?: string): void {
  if (expected.includes(exchange.status)) return;
  throw new CheckFailure(
    `Unexpected status${about(context)}`,
    [`Received: ${exchange.status} / Expected: ${expected.join(', ')}`, `Body: ${snippet(exchange.text)}`],
    exchange,
  );
}

/** Fails with every violation of the operation's documented responses (status, type, body, headers). */
export function expectConforms(
  operationId: string,
  exchange: Exchange,
  context?: string,
  options?: ConformanceOptions,
): void {
  const violations = responseViolations(operationId, exchange, {
    ignoreHeaders: DEPRECATION_HEADERS,
    ...options,
  });
  const [first, ...rest] = violations;
  if (!first) return;
  const lines = [
    ...first.lines,
    ...rest.flatMap((violation) => [`- ${violation.title}`, ...violation.lines.map((line) => `  ${line}`)]),
  ];
  throw new CheckFailure(`${first.title}${about(context)}`, lines, exchange);
}

/**
 * Fails unless the response is an `Error` body (all three fields) served as JSON, whose `status` is the
 * HTTP status and whose `code` is `code` when given.
 */
export function expectErrorBody(exchange: Exchange, code?: string | readonly string[], context?: string): void {
  if (mediaTypeOf(exchange) !== 'application/json') {
    throw new CheckFailure(
      `Error response is not JSON${about(context)}`,
      [
        `Received: ${headerOf(exchange, 'content-type') ?? '(no Content-Type)'} / Expected: application/json`,
        `Body: ${snippet(exchange.text)}`,
      ],
      exchange,
    );
  }
  const validate = specValidators().component('Error');
  if (!validate(exchange.json)) {
    throw new CheckFailure(
      `Error body violates the Error schema${about(context)}`,
      [...schemaViolations(validate.errors), `Received: ${snippet(exchange.text)}`],
      exchange,
    );
  }
  const body = exchange.json as { code: string; status: number };
  if (body.status !== exchange.status) {
    throw new CheckFailure(
      `Error.status differs from the HTTP status${about(context)}`,
      [`Received: Error.status ${body.status} / Expected: ${exchange.status}`],
      exchange,
    );
  }
  // Where the spec names more than one code for a case and does not say which, any of them is right.
  const codes = code === undefined ? undefined : typeof code === 'string' ? [code] : code;
  if (codes !== undefined && !codes.includes(body.code)) {
    throw new CheckFailure(
      `Unexpected error code${about(context)}`,
      [`Received: ${body.code} / Expected: ${codes.join(' or ')}`],
      exchange,
    );
  }
}

/** The integer value of a header, failing when it is missing or not plain digits. */
export function integerHeader(exchange: Exchange, name: string, context?: string): number {
  const verdict = integerHeaderVerdict(exchange, name, context);
  if (!verdict.ok) throw new CheckFailure(verdict.problem.title, verdict.problem.lines, exchange);
  return verdict.value;
}

/** Fails with `title` and `lines` when `condition` is false; `exchange` is the answer that shows it (for curl). */
export function expectThat(
  condition: boolean,
  title: string,
  lines: readonly string[],
  exchange: Exchange,
): asserts condition {
  if (!condition) throw new CheckFailure(title, lines, exchange);
}
