import type { ContractReport, SuiteReport } from './suite-report.js';
import { unansweredTestcase } from './unanswered-report.js';
import { xmlText } from './xml-text.js';
import { warningsOf } from './check-warnings.js';
import { waitsPastBudgetText } from '../runner/run-bounds.js';

const seconds = (milliseconds: number) => (milliseconds / 1000).toFixed(3);
const property = (name: string, value: string) => `      <property name="${xmlText(name)}" value="${xmlText(value)}"/>`;

/** `waits_within_budget`, failed with each wait the target asked for past the run's whole bound; only when there is one. */
function waitsTestcase(report: SuiteReport): string[] {
  if (report.waitsPastBudget.length === 0) return [];
  const text = waitsPastBudgetText(report.waitsPastBudget).join('\n');
  const message = `${report.waitsPastBudget.length} waits past the run's bound: their checks are not completed`;
  return [
    `    <testcase classname="contract.${xmlText(report.target.kind)}" name="waits_within_budget" time="0">`,
    `      <failure message="${xmlText(message)}" type="WaitPastBudget">${xmlText(text)}</failure>`,
    '    </testcase>',
  ];
}

/**
 * A check's warnings as a skipped testcase of their own (`<check> warnings`): CI tools list skipped cases
 * with their message, where a property or a line of output goes unseen; the check's own case keeps its
 * verdict (a warning does not fail a run unless --strict).
 */
function warningsTestcase(report: SuiteReport, check: string, warnings: readonly string[]): string {
  const message = `${warnings.length} warning${warnings.length === 1 ? '' : 's'} (a SHOULD the target broke; --strict makes it a failure): ${warnings[0]!.slice(0, 200)}`;
  return [
    `    <testcase classname="contract.${xmlText(report.target.kind)}" name="${xmlText(`${check} warnings`)}" time="0">`,
    `      <skipped message="${xmlText(message)}">${xmlText(warnings.join('\n'))}</skipped>`,
    '    </testcase>',
  ].join('\n');
}

/** A target's counts as its testsuite states them: every check, target_answered, waits past the bound, each check's warnings. */
function countsOf(report: SuiteReport) {
  const { summary } = report;
  const warned = report.results.filter((result) => warningsOf(result).length > 0).length;
  const pastBudget = report.waitsPastBudget.length > 0 ? 1 : 0;
  return {
    tests: summary.passed + summary.failed + summary.skipped + 1 + pastBudget + warned,
    failures: summary.failed + (report.reachability.exitCode !== 0 ? 1 : 0) + pastBudget,
    skipped: summary.skipped + warned,
    warnings: report.results.reduce((sum, result) => sum + warningsOf(result).length, 0),
  };
}

function testsuite(report: SuiteReport, run: ContractReport): string[] {
  const { target, coverage } = report;
  const counts = countsOf(report);
  const cases = report.results.map((result) => {
    const open = `    <testcase classname="contract.${xmlText(target.kind)}" name="${xmlText(result.check)}" time="${seconds(result.durationMs)}">`;
    const warnings = warningsOf(result);
    const warned = warnings.length > 0 ? `\n${warningsTestcase(report, result.check, warnings)}` : '';
    if (result.outcome === 'skipped')
      return `${open}\n      <skipped message="${xmlText(result.reason ?? '')}"/>\n    </testcase>${warned}`;
    if (result.outcome === 'failed' && result.failure) {
      const body = [
        result.verifies,
        ...result.failure.lines,
        ...(result.failure.curl ? [`Reproduce with: ${result.failure.curl}`] : []),
      ].join('\n');
      return `${open}\n      <failure message="${xmlText(result.failure.title)}" type="CheckFailure">${xmlText(body)}</failure>\n    </testcase>${warned}`;
    }
    return `${open}</testcase>${warned}`;
  });
  return [
    `  <testsuite name="${xmlText(`petstore contract suite (${target.label})${report.incomplete.length > 0 ? ': INCOMPLETE' : ''}`)}" tests="${counts.tests}" failures="${counts.failures}" errors="0" skipped="${counts.skipped}" timestamp="${report.startedAt}" time="${seconds(report.durationMs)}">`,
    '    <properties>',
    property('target', target.baseUrl),
    property('capabilities', target.capabilities.join(',')),
    property('seed', String(run.seed)),
    property('requests', String(report.requests)),
    property('warnings', String(counts.warnings)),
    property('complete', report.incomplete.length === 0 ? 'yes' : `no: ${report.incomplete.join('; ')}`),
    property('coverage.percent', coverage.percent.toFixed(1)),
    property('coverage.exercised', String(coverage.exercised)),
    property('coverage.total', String(coverage.total)),
    ...coverage.items.map((item) => property(`coverage.${item.id}`, item.exercised ? 'exercised' : 'not exercised')),
    '    </properties>',
    unansweredTestcase(
      `contract.${target.kind}`,
      report.unanswered.count,
      report.unanswered.requests,
      report.reachability,
    ),
    ...cases,
    ...waitsTestcase(report),
    '  </testsuite>',
  ];
}

/**
 * The JUnit XML report (`--junit`): one testsuite per target, `target_answered` (failed when requests
 * got no answer) and one testcase per check, with `<failure>`
 * (title as message; the Received/Expected lines and the curl command as text) or `<skipped>` (the
 * reason), and `<check> warnings`, skipped, for a check whose answers broke a SHOULD; the seed, requests
 * sent, the warnings' count and coverage (each item exercised or not) as properties.
 * @example await writeFile('reports/contract.xml', junitReport(report));
 */
export function junitReport(run: ContractReport): string {
  const totals = run.targets.reduce(
    (sum, report) => {
      const counts = countsOf(report);
      return {
        tests: sum.tests + counts.tests,
        failures: sum.failures + counts.failures,
        skipped: sum.skipped + counts.skipped,
        durationMs: sum.durationMs + report.durationMs,
      };
    },
    { tests: 0, failures: 0, skipped: 0, durationMs: 0 },
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="petstore contract suite" tests="${totals.tests}" failures="${totals.failures}" skipped="${totals.skipped}" time="${seconds(totals.durationMs)}">`,
    ...run.targets.flatMap((report) => testsuite(report, run)),
    '</testsuites>',
    '',
  ].join('\n');
}
