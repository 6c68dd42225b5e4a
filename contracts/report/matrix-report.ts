import type { Coverage, CoverageItem } from '../coverage/coverage.js';
import type { ContractReport, SuiteReport } from './suite-report.js';

const MARK = { passed: 'PASS', failed: 'FAIL', skipped: 'SKIP' } as const;

/**
 * The coverage of one target as two lines or more: the ratio, then what was not exercised, one
 * operation's status per entry (`listOrders 429`, or the headers missing from an exercised one).
 * @example coverageText(report.coverage)
 */
export function coverageText(coverage: Coverage): string {
  const head = `Coverage: ${coverage.exercised} of ${coverage.total} documented operation x status x header exercised (${coverage.percent.toFixed(1)}%)`;
  const missedStatuses = new Set(
    coverage.items
      .filter((item) => !item.header && !item.exercised)
      .map((item) => `${item.operationId} ${item.status}`),
  );
  const named = (items: CoverageItem[]) =>
    items.flatMap((item) => {
      if (!item.header) return [`${item.operationId} ${item.status}`];
      return missedStatuses.has(`${item.operationId} ${item.status}`)
        ? []
        : [`${item.operationId} ${item.status} ${item.header}`];
    });
  const missed = named(coverage.items.filter((item) => !item.exercised && item.unreachable === undefined));
  const lines = [head, ...(missed.length === 0 ? [] : [`  not exercised: ${missed.join(', ')}`])];
  const unreachable = new Map<string, CoverageItem[]>();
  for (const item of coverage.items)
    if (item.unreachable !== undefined)
      unreachable.set(item.unreachable, [...(unreachable.get(item.unreachable) ?? []), item]);
  for (const [why, items] of unreachable)
    lines.push(`  not counted, this target cannot give them: ${named(items).join(', ')} (${why})`);
  return lines.join('\n');
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/**
 * The check x target matrix, then every check on which the targets disagree, said plainly.
 * @example matrixText(contractReport)
 */
export function matrixText(report: ContractReport): string {
  const targets = report.targets;
  const header = ['check', ...targets.map(({ target }) => target.label)];
  const rows = (targets[0]?.results ?? []).map(({ check }) => [
    check,
    ...targets.map(
      (suite: SuiteReport) => MARK[suite.results.find((result) => result.check === check)?.outcome ?? 'skipped'],
    ),
  ]);
  const totals = [
    ['coverage', ...targets.map(({ coverage }) => `${coverage.percent.toFixed(1)}%`)],
    ['requests', ...targets.map(({ requests }) => String(requests))],
  ];
  const verdict =
    report.disagreements.length === 0
      ? 'The targets agree on every check they all ran.'
      : [
          `The targets disagree on ${report.disagreements.length} check${report.disagreements.length === 1 ? '' : 's'}:`,
          ...report.disagreements.map(
            ({ check, passedOn, failedOn }) =>
              `- ${check}: passes on ${passedOn.join(', ')}; fails on ${failedOn.map(({ target, title }) => `${target} (${title})`).join(', ')}`,
          ),
        ].join('\n');
  return ['', `Check x target (seed ${report.seed}):`, table([header, ...rows, ...totals]), '', verdict].join('\n');
}
