import { CheckNotApplicable, RequestBudgetExhausted, TimeBudgetExhausted } from '../checks/check.js';
import { bucketOfRequest } from '../core/described-bucket.js';
import type { ContractRequest } from '../core/exchange.js';
import { operationOfRequest } from '../core/spec-operations.js';
import { BUDGET_USED_UP, type TimeBudget } from './run-bounds.js';
import type { SuiteSettings } from './suite-settings.js';

/** Where a run stands when requests are about to go out: what it sent, its bounds, why its key is spent (if it is). */
export interface RunStanding {
  sent: number;
  spentKey: string | undefined;
  settings: SuiteSettings;
  time: TimeBudget;
  baseUrl: string;
}

/**
 * Lets requests go out (one, or those of one connection), or throws why not: the key is spent (for a
 * request that carries it), `--max-requests` has no room for them all, `--max-minutes` is used up, or one
 * is outside `--operations`. The caller counts them once admitted.
 * @example admitRequests([request], { sent: 3, spentKey: undefined, settings, time, baseUrl })
 */
export function admitRequests(requests: readonly ContractRequest[], run: RunStanding): void {
  if (run.spentKey !== undefined && requests.some((request) => bucketOfRequest(request) === 'key'))
    throw new TimeBudgetExhausted(run.spentKey);
  const { maxRequests, operations } = run.settings;
  if (maxRequests !== undefined && run.sent + requests.length > maxRequests) {
    throw new RequestBudgetExhausted(`${BUDGET_USED_UP} (--max-requests ${maxRequests})`);
  }
  run.time.beforeRequest();
  for (const request of operations ? requests : []) {
    const operationId = operationOfRequest(request.method, `${run.baseUrl}${request.path}`, run.baseUrl)?.operationId;
    if (operationId === undefined || !operations!.has(operationId))
      throw new CheckNotApplicable(
        `it sends ${operationId ?? `${request.method} ${request.path.split('?')[0]} (no operation)`}, outside --operations ${[...operations!].join(',')}`,
      );
  }
}
