import { BROKEN_VARIANTS } from '../broken-variants/index.js';
import { THE_SPEC, type Requirement } from '../core/requirement.js';
import { REQUEST_DEFECTS } from '../checks/evaluation-order-checks.js';
import { CHECKS } from '../checks/registry.js';
import { PROMISES, PROMISE_NAMES } from '../model/promise-rules.js';
import { DISTINCTIONS } from '../protocol/distinctions.js';
import { EQUIVALENCES } from '../protocol/equivalences.js';
import { RULES, RULE_NAMES } from '../rules/rule-table.js';
import { SENTENCE_TABLE } from '../sentences/sentence-table.js';

// The docs' tables are these, generated from the code; test/docs/docs.test.ts fails when they drift.
// Cells are written as they appear: text is escaped where it is prose, names are set in code spans.
const cell = (text: string) => text.replace(/\|/g, '\\|');
const code = (name: string) => `\`${name}\``;
const list = (names: readonly string[] = []) => (names.length > 0 ? names.join(', ') : '—');

function markdownTable(headings: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  return [
    `| ${headings.join(' | ')} |`,
    `|${headings.map(() => '---').join('|')}|`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');
}

/** Every check: what it verifies, what it needs of a target, and the broken variants that make it fail. */
export function checkTableMarkdown(): string {
  return markdownTable(
    ['Check', 'Verifies', 'Needs', 'Broken variants that it catches'],
    CHECKS.map(({ name, verifies, needs }) => {
      const variants = BROKEN_VARIANTS.filter(({ caughtBy }) => caughtBy.includes(name)).map((variant) =>
        code(variant.name),
      );
      return [code(name), cell(verifies), list(needs), variants.join(', ')];
    }),
  );
}

/** The protocol equivalences the suite holds targets to. */
export function equivalenceTableMarkdown(): string {
  return markdownTable(
    ['Equivalence', 'Basis', 'Must be treated alike'],
    EQUIVALENCES.map(({ name, basis, rule }) => [code(name), basis, cell(rule)]),
  );
}

/** The other side: near misses of a spec path that are other resources, so a target must answer them 404. */
export function distinctionTableMarkdown(): string {
  return markdownTable(
    ['Distinction', 'Basis', 'Not the same resource'],
    DISTINCTIONS.map(({ name, basis, rule }) => [code(name), basis, cell(rule)]),
  );
}

/** A requirement as a cell: the quote, where it stands, and whose requirement it is. */
function requirementCell({ quote, where, binds }: Requirement): string {
  const whose = { server: 'the server', sender: 'the sender of the request', nobody: 'nobody (guidance)' }[binds];
  return `${cell(`“${quote}”`)} (${where === THE_SPEC ? 'the spec' : where}; binds ${whose})`;
}

/** The promises the run's one model holds every exchange to, the sentence that makes each, and what a target must support. */
export function promiseTableMarkdown(): string {
  return markdownTable(
    ['Promise', 'Held over every exchange of the run', 'Strength', 'The requirement, quoted', 'Needs'],
    PROMISE_NAMES.map((name) => {
      const promise = PROMISES[name];
      return [
        code(name),
        cell(promise.promise),
        promise.strength,
        requirementCell(promise.requirement),
        list(promise.needs),
      ];
    }),
  );
}

/** The rules under the spec: source, strength and the requirement that gives it, where each applies, and what holds it. */
export function ruleTableMarkdown(): string {
  return markdownTable(
    ['Rule', 'Strength', 'The requirement, quoted', 'Applies to', 'What it says', 'Held by'],
    RULE_NAMES.map((name) => {
      const rule = RULES[name];
      const heldBy = [...(rule.model ? ['the model, on every exchange'] : []), ...rule.checks.map(code)];
      return [
        code(name),
        rule.strength,
        requirementCell(rule.requirement),
        rule.appliesTo,
        cell(rule.says),
        heldBy.join(', '),
      ];
    }),
  );
}

/** Every sentence of the spec's prose and what verifies it, or why it is not checked. */
export function sentenceTableMarkdown(): string {
  return markdownTable(
    ['Sentence of `spec/openapi.yaml`', 'Verified by', 'Not checked, where and why'],
    SENTENCE_TABLE.map(({ sentence, verifiedBy = [], notCheckable }) => [
      cell(sentence),
      list(verifiedBy.map(code)),
      notCheckable ? cell(notCheckable) : '—',
    ]),
  );
}

/** The request defects the order-of-evaluation checks combine, by the stage that must find them. */
export function faultTableMarkdown(): string {
  return markdownTable(
    ['Stage', 'Defect', 'Answer'],
    REQUEST_DEFECTS.map(({ stage, name, status, code: errorCode }) => [
      String(stage),
      name,
      `${status} ${code(errorCode)}`,
    ]),
  );
}
