// The one helper every test of the fake uses to read a response: it fails the test when the response
// departs from the spec, so the fake cannot drift from spec/openapi.yaml unnoticed.
import { responseViolations } from '../../contracts/conformance/response-conformance.js';
import { specValidators } from '../../contracts/conformance/spec-validators.js';
import type { Exchange } from '../../contracts/core/exchange.js';

/** Which documented operation a response answers; `undocumented` for 404/405 outside every operation. */
export type OperationRef = string | 'undocumented';

async function toExchange(response: Response, request?: Request): Promise<Exchange> {
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const headers = Object.fromEntries([...response.headers].map(([name, value]) => [name.toLowerCase(), value]));
  return {
    request: { method: request?.method ?? 'GET', url: request?.url ?? response.url, headers: {} },
    status: response.status,
    headers,
    text,
    json,
  };
}

/**
 * Reads a response of the fake and throws unless it conforms to the spec: a documented status,
 * Content-Type, body schema and headers; undocumented answers (404/405) must be `Error` bodies whose
 * `status` is the HTTP status, with the `X-RateLimit-*` headers.
 * @example const { status, json } = await conforming('listCategories', await fetch(url, init));
 */
export async function conforming(operationId: OperationRef, response: Response, request?: Request): Promise<Exchange> {
  const exchange = await toExchange(response, request);
  const problems =
    operationId === 'undocumented'
      ? undocumentedViolations(exchange)
      : responseViolations(operationId, exchange).map((v) => `${v.title}: ${v.lines.join(' | ')}`);
  const error = exchange.json as { status?: unknown } | undefined;
  if (exchange.status >= 400 && error?.status !== exchange.status)
    problems.push(`Error.status ${String(error?.status)} != HTTP ${exchange.status}`);
  if (problems.length > 0) {
    throw new Error(
      `${operationId}: the fake's ${exchange.status} response departs from the spec:\n- ${problems.join('\n- ')}\nBody: ${exchange.text}`,
    );
  }
  return exchange;
}

function undocumentedViolations(exchange: Exchange): string[] {
  const problems: string[] = [];
  const validate = specValidators().component('Error');
  if (!validate(exchange.json)) problems.push(`not an Error body: ${JSON.stringify(validate.errors)}`);
  for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
    if (!/^\d+$/.test(exchange.headers[name] ?? '')) problems.push(`header ${name} missing or not an integer`);
  }
  if (!exchange.headers['content-type']?.startsWith('application/json'))
    problems.push('Content-Type is not application/json');
  return problems;
}
