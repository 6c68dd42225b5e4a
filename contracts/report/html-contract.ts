import type { HtmlReportInput } from './html-report.js';
import type { ContractReport } from './suite-report.js';

/**
 * The HTML report's content of a suite run: the matrix of its checks against its targets, each
 * target's coverage, failures, waits and created records.
 * @example htmlReport(htmlInputOfContract(report))
 */
export function htmlInputOfContract(report: ContractReport): HtmlReportInput {
  const targets = report.targets.map(({ target }) => target.label);
  const checks = report.targets[0]?.results.map(({ check }) => check) ?? [];
  return {
    title: `Contract suite, seed ${report.seed}: ${targets.join(' · ')}`,
    verdict: `Exit ${report.exitCode}: ${report.targets
      .map(
        ({ target, summary }) =>
          `${target.label} ${summary.passed} passed, ${summary.failed} failed, ${summary.skipped} skipped`,
      )
      .join('; ')}`,
    exitCode: report.exitCode,
    generatedAt: new Date().toISOString(),
    targets,
    matrix: checks.map((check) => ({
      check,
      cells: report.targets.map(({ results }) => {
        const result = results.find((each) => each.check === check);
        const note = result?.failure?.title ?? result?.reason;
        return { outcome: result?.outcome ?? 'skipped', ...(note !== undefined && { note }) };
      }),
    })),
    coverage: report.targets.map(({ target, coverage }) => ({
      target: target.label,
      items: coverage.items,
      percent: coverage.percent,
    })),
    failures: report.targets.flatMap(({ target, results }) =>
      results
        .filter((result) => result.outcome === 'failed' && result.failure)
        .map((result) => ({
          target: target.label,
          check: result.check,
          title: result.failure!.title,
          lines: result.failure!.lines,
          ...(result.failure!.curl !== undefined && { curl: result.failure!.curl }),
        })),
    ),
    waits: report.targets.flatMap(({ target, waits }) => waits.map((wait) => ({ target: target.label, ...wait }))),
    created: report.targets.flatMap(({ target, created }) =>
      created
        ? [
            {
              target: target.label,
              marker: created.marker,
              records: created.records.length,
              ids: created.records.map(({ record }) => String(record.id)).join(', '),
            },
          ]
        : [],
    ),
    deprecated: [],
    notes: [
      ...report.targets.flatMap(({ reachability }) => (reachability.verdict ? [reachability.verdict] : [])),
      ...(report.baseline
        ? [`Baseline: ${report.baseline.excused.length} failures excused, ${report.baseline.failing.length} not in it`]
        : []),
      'Deprecated calls: the suite calls deprecated operations on purpose; watch and replay report those of real traffic.',
    ],
  };
}
