import { PROMISE_NAMES } from '../model/promise-rules.js';
import { RULE_NAMES, RULES } from '../rules/rule-table.js';
import { coverageText } from '../report/matrix-report.js';
import { xmlText } from '../report/xml-text.js';
import { unansweredTestcase, unansweredText } from '../report/unanswered-report.js';
import type { Reachability, UnansweredExchange } from '../transport/unanswered.js';
import type { TrafficSummary, TrafficViolation } from './traffic-judge.js';

/** What a watch (or a replay against one target) reports: where, how long, and what the traffic showed. */
export interface WatchReport {
  upstream: string;
  startedAt: string;
  durationMs: number;
  summary: TrafficSummary;
  /** Requests the upstream did not answer (refused, reset, timed out: 502 or 504 to the client). */
  upstreamErrors: number;
  /** The first of them in full. */
  unanswered: UnansweredExchange[];
  /** What the unanswered requests decide: exit 2 when nothing was answered, 1 when some were not. */
  reachability: Reachability;
  exitCode: 0 | 1 | 2;
}

// Every response rule of the suite's conformance, so JUnit lists the rules that held, not only those broken.
export const RESPONSE_RULES = [
  'undocumented_status',
  'undocumented_content_type',
  'body_not_json',
  'body_schema',
  'missing_header',
  'invalid_header',
];

/**
 * Every rule real traffic is judged by: the response rules, the model's promises, and the rules under
 * the spec the model judges on each exchange, so a report lists those that held as well as those broken.
 */
export const TRAFFIC_RULES: readonly string[] = [
  ...RESPONSE_RULES,
  ...PROMISE_NAMES,
  ...RULE_NAMES.filter((rule) => RULES[rule].model),
];

/** The traffic's rules, and any other a violation named, so no failure is left out of a report. */
function rulesOf(summary: TrafficSummary): string[] {
  return [...new Set([...TRAFFIC_RULES, ...Object.keys(summary.byRule)])];
}

/** The line printed as a violation is found: operation, rule, what came against what was due, and `curl`. */
export function violationLine(violation: TrafficViolation): string {
  return [
    `VIOLATION  ${violation.operation} ${violation.status}  ${violation.rule}: ${violation.title}`,
    ...violation.lines.map((line) => `    ${line}`),
    `    ${violation.curl}`,
  ].join('\n');
}

/** The closing text: exchanges per operation x status, coverage, violations by rule, deprecated calls. */
export function watchSummaryText(report: WatchReport): string {
  const { summary } = report;
  const lines = [
    `Watched ${summary.exchanges} exchanges with ${report.upstream} in ${(report.durationMs / 1000).toFixed(1)} s${report.upstreamErrors > 0 ? `; ${report.upstreamErrors} requests got no answer from it` : ''}`,
    ...unansweredText(report.upstreamErrors, report.unanswered, report.reachability),
  ];
  const rows = Object.entries(summary.byOperationStatus);
  if (rows.length > 0)
    lines.push('Exchanges (operation status: count):', ...rows.map(([key, count]) => `  ${key}: ${count}`));
  lines.push(coverageText(summary.coverage));
  const rules = Object.entries(summary.byRule).sort(([, a], [, b]) => b - a);
  if (rules.length === 0) lines.push('Violations: none');
  else {
    lines.push(`Violations: ${rules.reduce((sum, [, count]) => sum + count, 0)}, by rule:`);
    for (const [rule, count] of rules) {
      const first = summary.violations.find((violation) => violation.rule === rule);
      lines.push(`  ${rule}: ${count}${first ? ` (first: ${first.operation} ${first.status}, ${first.title})` : ''}`);
    }
  }
  const warnings = Object.entries(summary.warningsByRule).sort(([, a], [, b]) => b - a);
  if (warnings.length > 0) {
    lines.push(
      `Warnings (SHOULDs of the rules under the spec; --strict makes them violations): ${warnings.reduce((sum, [, count]) => sum + count, 0)}, by rule:`,
    );
    for (const [rule, count] of warnings) {
      const first = summary.warnings.find((warning) => warning.rule === rule);
      lines.push(`  ${rule}: ${count}${first ? ` (first: ${first.operation} ${first.status}, ${first.title})` : ''}`);
    }
  }
  if (summary.judgedBySizeOnly > 0)
    lines.push(
      `${summary.judgedBySizeOnly} exchanges had a body over the size limit: judged by status and headers only`,
    );
  for (const deprecated of summary.deprecated) {
    const left =
      deprecated.daysLeft === undefined
        ? ''
        : deprecated.daysLeft >= 0
          ? `, ${deprecated.daysLeft} days before its sunset ${deprecated.sunset}`
          : `, ${-deprecated.daysLeft} days after its sunset ${deprecated.sunset}`;
    lines.push(`Deprecated: ${deprecated.calls} calls to ${deprecated.operation}${left}, from:`);
    for (const client of deprecated.clients)
      lines.push(`  ${client.calls} x ${client.userAgent}${client.origin ? ` (Origin ${client.origin})` : ''}`);
  }
  return lines.join('\n');
}

/** The JSON report (`--json`). */
export function watchJson(report: WatchReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

/**
 * The JUnit report (`--junit`): `target_answered` (failed when requests got no answer), then one
 * testcase per rule (every response rule and every promise of the model), failed with its violations
 * when the traffic broke it; exchanges and coverage as properties.
 */
export function watchJunit(report: WatchReport): string {
  const { summary } = report;
  const rules = rulesOf(summary);
  const unansweredFails = report.reachability.exitCode !== 0 ? 1 : 0;
  const failures = rules.filter((rule) => (summary.byRule[rule] ?? 0) > 0).length + unansweredFails;
  const tests = rules.length + 1;
  const seconds = (report.durationMs / 1000).toFixed(3);
  const cases = rules.map((rule) => {
    const open = `    <testcase classname="watch" name="${xmlText(rule)}" time="0">`;
    const broken = summary.violations.filter((violation) => violation.rule === rule);
    const count = summary.byRule[rule] ?? 0;
    if (count === 0) return `${open}</testcase>`;
    const text = broken
      .slice(0, 20)
      .map((violation) =>
        [
          `${violation.operation} ${violation.status}: ${violation.title}`,
          ...violation.lines,
          `Reproduce with: ${violation.curl}`,
        ].join('\n'),
      )
      .join('\n\n');
    return `${open}\n      <failure message="${xmlText(`${count} exchanges broke ${rule}`)}" type="TrafficViolation">${xmlText(text)}</failure>\n    </testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="petstore contract watch" tests="${tests}" failures="${failures}" time="${seconds}">`,
    `  <testsuite name="${xmlText(`watch (${report.upstream})`)}" tests="${tests}" failures="${failures}" errors="0" skipped="0" timestamp="${report.startedAt}" time="${seconds}">`,
    '    <properties>',
    `      <property name="upstream" value="${xmlText(report.upstream)}"/>`,
    `      <property name="exchanges" value="${summary.exchanges}"/>`,
    `      <property name="coverage.percent" value="${summary.coverage.percent.toFixed(1)}"/>`,
    '    </properties>',
    unansweredTestcase('watch', report.upstreamErrors, report.unanswered, report.reachability),
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
