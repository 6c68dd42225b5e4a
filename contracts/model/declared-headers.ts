import { deprecationVerdict } from '../core/deprecation-headers.js';
import type { DocumentedOperation } from '../core/spec-document.js';
import { headerOf, type Exchange } from '../core/exchange.js';
import type { BrokenPromise } from './broken-promise.js';

/**
 * What an answer's headers may declare about its operation: a deprecation only where the spec marks
 * the operation deprecated, and there always the spec's own (every answer, errors included).
 */
export function declaredHeaderBreaks(
  operation: DocumentedOperation,
  exchange: Exchange,
  judgeValues: boolean,
): BrokenPromise[] {
  if (!operation.deprecated) {
    const declared = ['Deprecation', 'Sunset'].filter((name) => headerOf(exchange, name) !== undefined);
    if (declared.length === 0) return [];
    return [
      {
        promise: 'deprecation_only_where_declared',
        title: `${operation.operationId} declares a deprecation the spec does not`,
        lines: [
          `Received: ${declared.map((name) => `${name}: ${headerOf(exchange, name)}`).join(', ')} / Expected: no ${declared.join(' or ')} (the spec does not mark ${operation.method} ${operation.path} deprecated)`,
        ],
        exchange,
      },
    ];
  }
  if (!judgeValues) return [];
  const verdict = deprecationVerdict(exchange, `${operation.operationId} ${exchange.status}`);
  if (verdict.ok) return [];
  return [{ promise: 'deprecation_headers_as_declared', ...verdict.problem, exchange }];
}
