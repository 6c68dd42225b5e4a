import { schemaViolations, specValidators } from './spec-validators.js';
import { headerOf, mediaTypeOf, type Exchange } from '../core/exchange.js';
import { parseHeaderValue } from '../core/header-value.js';

/** One way a response departs from what the spec documents for it. */
export interface Violation {
  kind:
    | 'undocumented_status'
    | 'undocumented_content_type'
    | 'body_not_json'
    | 'body_schema'
    | 'missing_header'
    | 'invalid_header';
  title: string;
  lines: string[];
}

/** Options of {@link responseViolations}. */
export interface ConformanceOptions {
  /**
   * Documented headers judged by another check, so that one fault is reported once under the check
   * that owns it (the deprecation trio belongs to `deprecation_headers`).
   */
  ignoreHeaders?: readonly string[];
}

/**
 * Every way the response departs from the operation's documented responses: status, Content-Type,
 * body schema, and documented headers (present when required, integers where integers are due).
 * @example responseViolations('listCategories', exchange) // [] when it conforms
 */
export function responseViolations(
  operationId: string,
  exchange: Exchange,
  options: ConformanceOptions = {},
): Violation[] {
  const validators = specValidators();
  const documented = validators.response(operationId, exchange.status);
  if (!documented) {
    return [
      {
        kind: 'undocumented_status',
        title: 'Undocumented HTTP status code',
        lines: [`Received: ${exchange.status} / Documented: ${validators.documentedStatuses(operationId).join(', ')}`],
      },
    ];
  }
  const violations: Violation[] = [];
  const mediaTypes = Object.keys(documented.content);
  const mediaType = mediaTypeOf(exchange);
  if (mediaTypes.length > 0) {
    if (!mediaType || !mediaTypes.includes(mediaType)) {
      violations.push({
        kind: 'undocumented_content_type',
        title: 'Undocumented Content-Type',
        lines: [`Received: ${headerOf(exchange, 'content-type') ?? '(none)'} / Documented: ${mediaTypes.join(', ')}`],
      });
    } else if (exchange.json === undefined) {
      violations.push({
        kind: 'body_not_json',
        title: 'Response body is not JSON',
        lines: [`Received: ${snippet(exchange.text)}`],
      });
    } else {
      const validate = validators.body(operationId, exchange.status, mediaType);
      if (validate && !validate(exchange.json)) {
        violations.push({
          kind: 'body_schema',
          title: `Response violates the ${documented.status} schema`,
          lines: [...schemaViolations(validate.errors), `Received: ${snippet(exchange.text)}`],
        });
      }
    }
  }
  const ignored = new Set((options.ignoreHeaders ?? []).map((name) => name.toLowerCase()));
  for (const header of documented.headers) {
    if (ignored.has(header.name.toLowerCase())) continue;
    const raw = headerOf(exchange, header.name);
    if (raw === undefined) {
      if (header.required) {
        violations.push({
          kind: 'missing_header',
          title: `Missing header ${header.name}`,
          lines: [`Documented as required for ${documented.status}`],
        });
      }
      continue;
    }
    const parsed = parseHeaderValue(raw, header.schema);
    const validate = validators.schema(header.schema);
    if (!parsed.ok || !validate(parsed.value)) {
      const why = parsed.ok
        ? schemaViolations(validate.errors).map((line) => line.replace(/^body/, 'value'))
        : [parsed.reason];
      violations.push({
        kind: 'invalid_header',
        title: `Invalid header ${header.name}`,
        lines: [...why, `Received: ${header.name}: ${raw}`],
      });
    }
  }
  return violations;
}

/** The start of a body, on one line, for failure messages. */
export function snippet(text: string, length = 300): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat === '') return '(empty body)';
  return flat.length > length ? `${flat.slice(0, length)}…` : flat;
}
