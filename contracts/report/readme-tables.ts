import { BROKEN_VARIANTS } from '../broken-variants/index.js';
import { FAULTS } from '../checks/evaluation-order-checks.js';
import { CHECKS } from '../checks/registry.js';
import { PROMISES, PROMISE_NAMES } from '../model/promise-rules.js';
import { DISTINCTIONS } from '../protocol/distinctions.js';
import { SENTENCE_TABLE } from '../spec/sentence-table.js';
import { EQUIVALENCES } from '../protocol/equivalences.js';

// The README's tables are these, generated from the code; readme-tables.test.ts fails when they drift.
const cell = (text: string) => text.replace(/\|/g, '\\|');

/** Every check: what it verifies, what it needs of a target, and the broken variants that make it fail. */
export function checkTableMarkdown(): string {
  return [
    '| Check | Verifies | Needs | Broken variants that it catches |',
    '|---|---|---|---|',
    ...CHECKS.map(({ name, verifies, needs }) => {
      const variants = BROKEN_VARIANTS.filter(({ caughtBy }) => caughtBy.includes(name)).map((variant) => `\`${variant.name}\``);
      return `| \`${name}\` | ${cell(verifies)} | ${needs.length > 0 ? needs.join(', ') : '—'} | ${variants.join(', ')} |`;
    }),
  ].join('\n');
}

/** The protocol equivalences the suite holds targets to. */
export function equivalenceTableMarkdown(): string {
  return [
    '| Equivalence | Basis | Must be treated alike |',
    '|---|---|---|',
    ...EQUIVALENCES.map(({ name, basis, rule }) => `| \`${name}\` | ${basis} | ${cell(rule)} |`),
  ].join('\n');
}

/** The other side: near misses of a spec path that are other resources, so a target must answer them 404. */
export function distinctionTableMarkdown(): string {
  return [
    '| Distinction | Basis | Not the same resource |',
    '|---|---|---|',
    ...DISTINCTIONS.map(({ name, basis, rule }) => `| \`${name}\` | ${basis} | ${cell(rule)} |`),
  ].join('\n');
}

/** The promises the run's one model holds every exchange to, and what a target must support for each. */
export function promiseTableMarkdown(): string {
  return [
    '| Promise | Held over every exchange of the run | Needs |',
    '|---|---|---|',
    ...PROMISE_NAMES.map((name) => `| \`${name}\` | ${cell(PROMISES[name].promise)} | ${PROMISES[name].needs.length > 0 ? PROMISES[name].needs.join(', ') : '—'} |`),
  ].join('\n');
}

/** Every sentence of the spec's prose and what verifies it, or why it is not checked. */
export function sentenceTableMarkdown(): string {
  const names = (list: readonly string[] = []) => (list.length > 0 ? list.map((name) => `\`${name}\``).join(', ') : '—');
  return [
    '| Sentence of `spec/openapi.yaml` | Verified by | Not checked, where and why |',
    '|---|---|---|',
    ...SENTENCE_TABLE.map(({ sentence, verifiedBy, notCheckable }) => `| ${cell(sentence)} | ${names(verifiedBy)} | ${notCheckable ? cell(notCheckable) : '—'} |`),
  ].join('\n');
}

/** The faults the order-of-evaluation checks combine, by the stage that must find them. */
export function faultTableMarkdown(): string {
  return [
    '| Stage | Fault | Answer |',
    '|---|---|---|',
    ...FAULTS.map(({ stage, name, status, code }) => `| ${stage} | ${name} | ${status} \`${code}\` |`),
  ].join('\n');
}
