import type { SuiteReport } from './suite-report.js';

function xmlText(value: string): string {
  // XML 1.0 cannot carry most control characters, even escaped.
  return value
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

const seconds = (milliseconds: number) => (milliseconds / 1000).toFixed(3);

/**
 * The JUnit XML report (`--junit`): one testcase per check, with `<failure>` (title as message; the
 * Received/Expected lines and the curl command as text) or `<skipped>` (the reason).
 * @example await writeFile('reports/contract.xml', junitReport(report));
 */
export function junitReport(report: SuiteReport): string {
  const { summary, target } = report;
  const total = summary.passed + summary.failed + summary.skipped;
  const suiteName = `petstore contract suite (${target.label})`;
  const cases = report.results.map((result) => {
    const open = `    <testcase classname="contract.${xmlText(target.kind)}" name="${xmlText(result.check)}" time="${seconds(result.durationMs)}">`;
    if (result.outcome === 'skipped') return `${open}\n      <skipped message="${xmlText(result.reason ?? '')}"/>\n    </testcase>`;
    if (result.outcome === 'failed' && result.failure) {
      const body = [result.verifies, ...result.failure.lines, ...(result.failure.curl ? [`Reproduce with: ${result.failure.curl}`] : [])].join('\n');
      return `${open}\n      <failure message="${xmlText(result.failure.title)}" type="CheckFailure">${xmlText(body)}</failure>\n    </testcase>`;
    }
    return `${open}</testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xmlText(suiteName)}" tests="${total}" failures="${summary.failed}" skipped="${summary.skipped}" time="${seconds(report.durationMs)}">`,
    `  <testsuite name="${xmlText(suiteName)}" tests="${total}" failures="${summary.failed}" errors="0" skipped="${summary.skipped}" timestamp="${report.startedAt}" time="${seconds(report.durationMs)}">`,
    '    <properties>',
    `      <property name="target" value="${xmlText(target.baseUrl)}"/>`,
    `      <property name="capabilities" value="${xmlText(target.capabilities.join(','))}"/>`,
    '    </properties>',
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
