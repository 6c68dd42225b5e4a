import { operationsOnPath } from '../core/spec-operations.js';
import { specValidators } from '../conformance/spec-validators.js';
import { headerOf, mediaTypeOf, type Exchange } from '../core/exchange.js';
import type { BrokenPromise } from './broken-promise.js';

/**
 * Every error answer, on any path (one no operation has included), is the spec's `Error` served as
 * JSON, its `status` the HTTP status; a 405 says in `Allow` which methods the path has (RFC 9110 §15.5.6).
 */
export function errorAnswerBreaks(exchange: Exchange, path: string): BrokenPromise[] {
  if (exchange.status < 400 || exchange.request.method === 'HEAD' || exchange.request.method === 'OPTIONS') return [];
  const fail = (title: string, line: string): BrokenPromise[] => [
    { promise: 'errors_are_error_bodies', title, lines: [line], exchange },
  ];
  const validate = specValidators().component('Error');
  if (mediaTypeOf(exchange) !== 'application/json' || !validate(exchange.json)) {
    return fail(
      `A ${exchange.status} is not the spec's Error`,
      `Received: ${headerOf(exchange, 'content-type') ?? '(no Content-Type)'} ${exchange.text.slice(0, 120).replace(/\s+/g, ' ')} / Expected: application/json {code, message, status}`,
    );
  }
  const status = (exchange.json as { status: unknown }).status;
  if (status !== exchange.status)
    return fail(
      'The Error body names another status than the answer',
      `Received: HTTP ${exchange.status} with "status": ${JSON.stringify(status)} / Expected: "status": ${exchange.status}`,
    );
  if (exchange.status === 405) {
    const methods = (operationsOnPath(path) ?? []).map(({ method }) => method).sort();
    const allow = (headerOf(exchange, 'allow') ?? '')
      .split(',')
      .map((method) => method.trim().toUpperCase())
      .filter((method) => method !== '' && method !== 'HEAD' && method !== 'OPTIONS')
      .sort();
    if (allow.join() !== methods.join())
      return fail(
        'A 405 does not say which methods the path has',
        `Received: Allow: ${headerOf(exchange, 'allow') ?? '(none)'} / Expected: ${methods.join(', ')}`,
      );
  }
  return [];
}
