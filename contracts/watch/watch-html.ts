import type { HtmlReportInput } from '../report/html-report.js';
import type { ReplayReport } from './replay.js';
import type { WatchReport } from './watch-report.js';

/** The rules a session's traffic was judged by, as matrix rows: failed where it broke them. */
function ruleRows(rules: readonly string[], reports: readonly WatchReport[]): HtmlReportInput['matrix'] {
  return rules.map((rule) => ({
    check: rule,
    cells: reports.map(({ summary }) => {
      const count = summary.byRule[rule] ?? 0;
      return count > 0
        ? { outcome: 'failed' as const, note: `${count} exchanges broke it` }
        : { outcome: 'passed' as const };
    }),
  }));
}

/**
 * The HTML report's content of a watch session, or of a replay against each of its targets (one
 * column each): the rules x targets matrix, coverage, every violation with its curl, what the
 * replayed writes created, and the calls to deprecated operations.
 * @example htmlReport(htmlInputOfTraffic('watch', [report], rules))
 */
export function htmlInputOfTraffic(
  kind: 'watch' | 'replay',
  reports: ReadonlyArray<WatchReport & { label?: string; created?: ReplayReport['created'] }>,
  rules: readonly string[],
  exitCode: number,
): HtmlReportInput {
  const targets = reports.map((report) => report.label ?? report.upstream);
  return {
    title: `${kind === 'watch' ? 'Watch' : 'Replay'}: ${targets.join(' · ')}`,
    verdict: `Exit ${exitCode}: ${reports
      .map(
        ({ summary }, index) =>
          `${targets[index]} ${summary.exchanges} exchanges, ${summary.violations.length} violations`,
      )
      .join('; ')}`,
    exitCode,
    generatedAt: new Date().toISOString(),
    targets,
    matrix: ruleRows(rules, reports),
    coverage: reports.map(({ summary }, index) => ({
      target: targets[index]!,
      items: summary.coverage.items,
      percent: summary.coverage.percent,
    })),
    failures: reports.flatMap(({ summary }, index) =>
      summary.violations.map((violation) => ({
        target: targets[index]!,
        check: violation.rule,
        title: `${violation.operation} ${violation.status}: ${violation.title}`,
        lines: violation.lines,
        curl: violation.curl,
      })),
    ),
    waits: [],
    created: reports.flatMap((report, index) =>
      report.created
        ? [
            {
              target: targets[index]!,
              marker: report.created.marker,
              records: report.created.records.length,
              ids: report.created.records.map(({ record }) => String(record.id)).join(', '),
            },
          ]
        : [],
    ),
    deprecated: reports.flatMap(({ summary }) =>
      summary.deprecated.map((calls) => ({
        operation: calls.operation,
        calls: calls.calls,
        ...(calls.sunset && { sunset: calls.sunset }),
        clients: calls.clients.map((client) => `${client.calls} x ${client.userAgent}`).join(', '),
      })),
    ),
    notes: reports.flatMap(({ reachability }) => (reachability.verdict ? [reachability.verdict] : [])),
  };
}
