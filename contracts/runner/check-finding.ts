import type { CheckName } from '../core/contract-ids.js';
import { operationOfRequest } from '../core/spec-operations.js';
import type { ContractId } from '../checks/check.js';
import type { Exchange } from '../core/exchange.js';
import { brokenHeading, heldText, type BrokenPromise } from '../model/broken-promise.js';
import { PROMISES } from '../model/promise-rules.js';
import { curlCommand } from '../transport/curl-command.js';

/**
 * One thing a check found broken, as data made where it was found: what broke (a promise of the model,
 * a rule under the spec, or the check's own expectation, by a stable id), on which operation, with the
 * first exchange that showed it and how many did. Reports render it; baselines and grouping use `id`
 * and `operation`, never the text.
 */
export interface CheckFinding {
  /** The promise's or the rule's name (`charged_once_per_admitted_request`, `date_on_answers`), or the check's own. */
  id: ContractId;
  kind: 'promise' | 'rule' | 'check';
  /** The operation of the first exchange that showed it, when the request was one of the spec's. */
  operation?: string;
  title: string;
  /** `Received: ... / Expected: ...`, then what the promise or rule holds. */
  lines: string[];
  /** The first exchange that showed it, as `curl` (key redacted), and the status it got. */
  curl?: string;
  status?: number;
  /** How many exchanges of the check showed it. */
  count: number;
}

/** The operation an exchange was for, or undefined off the spec's paths. */
function operationOf(exchange: Exchange, baseUrl: string): string | undefined {
  return operationOfRequest(exchange.request.method, exchange.request.url, baseUrl)?.operationId;
}

/**
 * The distinct findings among what the model reported during a check: one per promise or rule and
 * operation, the first exchange kept, the rest counted.
 * @example findingsOfBroken(tally.broken, descriptor.baseUrl, descriptor.apiKey)
 */
export function findingsOfBroken(broken: readonly BrokenPromise[], baseUrl: string, apiKey: string): CheckFinding[] {
  const byCause = new Map<string, CheckFinding>();
  for (const found of broken) {
    const operation = operationOf(found.exchange, baseUrl);
    const key = `${found.promise} ${operation ?? ''}`;
    const seen = byCause.get(key);
    if (seen) {
      seen.count += 1;
      continue;
    }
    const involved = (found.involved ?? [])
      .filter((exchange) => exchange !== found.exchange)
      .map((exchange) => `  ${curlCommand(exchange.request, apiKey)}  # also involved, answered ${exchange.status}`);
    byCause.set(key, {
      id: found.promise,
      kind: found.promise in PROMISES ? 'promise' : 'rule',
      ...(operation !== undefined && { operation }),
      title: `${brokenHeading(found.promise)}: ${found.title}`,
      lines: [...found.lines, heldText(found.promise), ...involved],
      curl: curlCommand(found.exchange.request, apiKey),
      status: found.exchange.status,
      count: 1,
    });
  }
  return [...byCause.values()];
}

/** A check's own failure: its id is the promise or rule it says broke, else the check's name. */
export function findingOfCheck(
  check: CheckName,
  failure: { title: string; lines: string[]; curl?: string; status?: number },
  exchange: Exchange | undefined,
  baseUrl: string,
  broke?: BrokenPromise['promise'],
): CheckFinding {
  const operation = exchange && operationOf(exchange, baseUrl);
  const kind = broke === undefined ? 'check' : broke in PROMISES ? 'promise' : 'rule';
  return { id: broke ?? check, kind, ...(operation !== undefined && { operation }), ...failure, count: 1 };
}

/** A finding as lines of a report: its title, its lines, how often, and the curl that reproduces it. */
export function findingLines(finding: CheckFinding): string[] {
  const where = finding.operation ? ` (${finding.operation})` : '';
  const often = finding.count > 1 ? ` (${finding.count} exchanges of this check showed it; the first is below)` : '';
  return [
    `${finding.title}${where}${often}`,
    ...finding.lines,
    ...(finding.curl ? [`Reproduce with: ${finding.curl}`] : []),
  ];
}
