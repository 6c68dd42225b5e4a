import { answeredBeforeAnyOperation } from '../core/described-bucket.js';
import { RULES, severityOf, type RuleName } from '../rules/rule-table.js';
import type { ContractRequest, Exchange } from '../core/exchange.js';
import { NoAnswer } from '../transport/raw-request.js';
import { heldText, type BrokenPromise } from '../model/broken-promise.js';
import { CheckFailure, isCheckFailure, type CheckContext } from './check.js';

/** The origin of a web app calling the interface from a browser. */
export const BROWSER_ORIGIN = 'https://app.example';

/** One exchange with the path's methods, or undefined when the connection ended without an answer. */
export async function sendOrNothing(
  send: CheckContext['send'],
  request: ContractRequest,
): Promise<Exchange | undefined> {
  try {
    return await send(request);
  } catch (error) {
    if (error instanceof NoAnswer) return undefined;
    throw error;
  }
}

/** A rule broken, as the check reports it: a failure, or a warning (a SHOULD outside --strict, or a parser's refusal). */
export function reportRule(
  context: CheckContext,
  rule: RuleName,
  title: string,
  lines: string[],
  exchange: Exchange | undefined,
  { warning = false } = {},
): void {
  // A parser's refusal is never the service's failure, --strict or not (design section 7).
  const severity = warning ? 'warning' : severityOf(rule, context.strict);
  if (!exchange) {
    if (severity === 'warning') context.note(`warning ${rule}: ${title}; ${lines.join('; ')}`);
    else throw new CheckFailure(title, [...lines, `Rule (${RULES[rule].source}): ${RULES[rule].says}`]);
    return;
  }
  context.report({ promise: rule, title, lines, exchange, ...(severity === 'warning' && { severity }) });
}

/**
 * Runs a check's expectations that hold one MUST of the rule table or one promise of the model: a failure
 * they throw names it, so its finding carries that id (a variant breaking it is seen failing for it).
 * @example await underRule('undefined_methods_refused', () => expectStatus(exchange, [405], what));
 */
export async function underRule<T>(id: BrokenPromise['promise'], expectations: () => T | Promise<T>): Promise<T> {
  try {
    return await expectations();
  } catch (error) {
    if (!isCheckFailure(error) || error.broke !== undefined) throw error;
    throw new CheckFailure(error.title, [...error.lines, heldText(id)], error.exchange, error.sequence, id);
  }
}

/**
 * Whether an answer came before any operation (a parser's refusal, bare or dressed by the service's
 * error handler), not the service's routing: the spec lets such a request be answered 400, 408 or 431.
 */
export const parserRefusal = answeredBeforeAnyOperation;
