import type { Exchange } from '../core/exchange.js';
import { METADATA_RULES, REPRESENTATION_RULES, type ExchangeRule } from './answer-rules.js';
import { CORS_AND_CACHE_RULES } from './cors-rules.js';
import { FIELD_RULES } from './field-rules.js';
import { RULES, severityOf, type RuleName } from './rule-table.js';
import { SECURITY_RULES } from './security-rules.js';

/** Every rule of the table that one exchange alone can show broken, in the table's order. */
export const EXCHANGE_RULES: readonly ExchangeRule[] = [
  ...REPRESENTATION_RULES,
  ...FIELD_RULES,
  ...METADATA_RULES,
  ...SECURITY_RULES,
  ...CORS_AND_CACHE_RULES,
];

/** One rule an exchange broke, and whether that fails the run or only warns. */
export interface RuleBreak {
  rule: RuleName;
  severity: 'failure' | 'warning';
  title: string;
  lines: string[];
  exchange: Exchange;
}

/**
 * Judges one exchange by every rule of the table that applies to it; counts in `tried` each rule that
 * applied (the evidence a run gathered about the rules, whatever it found).
 */
export function ruleBreaks(exchange: Exchange, strict: boolean, tried?: Map<RuleName, number>): RuleBreak[] {
  const broken: RuleBreak[] = [];
  for (const rule of EXCHANGE_RULES) {
    if (!rule.applies(exchange)) continue;
    tried?.set(rule.rule, (tried.get(rule.rule) ?? 0) + 1);
    const lines = rule.breaks(exchange);
    if (lines.length === 0) continue;
    const { source, says } = RULES[rule.rule];
    broken.push({
      rule: rule.rule,
      severity: severityOf(rule.rule, strict),
      title: `${exchange.request.method} answered ${exchange.status}: ${says} (${source})`,
      lines,
      exchange,
    });
  }
  return broken;
}
