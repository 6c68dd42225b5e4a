import { warningParts, warningsOf } from './check-warnings.js';
import { findingsByCause } from './findings-by-cause.js';
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
        ({ target, summary, incomplete, results }) =>
          `${target.label} ${summary.passed} passed, ${summary.failed} failed, ${summary.skipped} skipped${warningCount(results)}${incomplete.length > 0 ? ` (INCOMPLETE: ${incomplete.join('; ')})` : ''}`,
      )
      .join('; ')}`,
    exitCode: report.exitCode,
    generatedAt: new Date().toISOString(),
    targets,
    matrix: checks.map((check) => ({
      check,
      cells: report.targets.map(({ results }, index) => {
        const result = results.find((each) => each.check === check);
        const note = result?.failure?.title ?? result?.reason;
        const outcome = result?.outcome ?? 'skipped';
        const warned = result ? warningsOf(result).length : 0;
        return {
          outcome,
          ...(note !== undefined && { note }),
          ...(outcome !== 'passed' && { href: anchorOf(outcome, index, check) }),
          ...(warned > 0 && { warned, warningsHref: warningsAnchor(index, check) }),
        };
      }),
    })),
    context: contextOf(report),
    causes: report.targets.flatMap(({ target, results }, index) =>
      findingsByCause(results).map(({ id, kind, what, checks: met, first, unidentified }) => ({
        target: target.label,
        id,
        kind: unidentified ? 'a failure without a finding id' : kind,
        what,
        checks: met,
        first: first.title,
        ...(first.curl !== undefined && { curl: first.curl }),
        ...(first.status !== undefined && { status: first.status }),
        anchor: anchorOf('failed', index, met[0]!),
      })),
    ),
    ...warningRows(report),
    skips: report.targets.flatMap(({ target, results }, index) =>
      results
        .filter((result) => result.outcome === 'skipped')
        .map((result) => ({
          target: target.label,
          check: result.check,
          reason: result.reason ?? '',
          anchor: anchorOf('skipped', index, result.check),
        })),
    ),
    evidence: report.targets.flatMap(({ target, evidence }) =>
      evidence
        ? [
            {
              target: target.label,
              tried: evidence.tried.length,
              catalogue: evidence.catalogue,
              notTried: evidence.notTried,
            },
          ]
        : [],
    ),
    coverage: report.targets.map(({ target, coverage }) => ({
      target: target.label,
      items: coverage.items,
      percent: coverage.percent,
    })),
    failures: report.targets.flatMap(({ target, results }, index) =>
      results
        .filter((result) => result.outcome === 'failed' && result.failure)
        .map((result) => ({
          target: target.label,
          anchor: anchorOf('failed', index, result.check),
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

/** Where a failure or a skip of one check on one target stands in the page. */
function anchorOf(outcome: 'failed' | 'skipped', target: number, check: string): string {
  return `${outcome === 'failed' ? 'failure' : 'skip'}-${target}-${check}`;
}

/**
 * The run's warnings grouped as its failures are: one row per target, rule and what came, with every
 * check that met it (each check's name the anchor its matrix cell links to) and the first curl.
 */
function warningRows(report: ContractReport): Pick<HtmlReportInput, 'warnings' | 'warningCount'> {
  const rows = new Map<string, NonNullable<HtmlReportInput['warnings']>[number]>();
  const anchored = new Set<string>();
  let count = 0;
  report.targets.forEach(({ target, results }, index) => {
    for (const result of results)
      for (const text of warningsOf(result)) {
        count += 1;
        const parts = warningParts(text);
        const key = JSON.stringify([index, parts.rule, parts.received]);
        const row = rows.get(key) ?? { target: target.label, ...parts, checks: [] };
        rows.set(key, row);
        if (row.checks.some(({ check }) => check === result.check)) continue;
        // A check's first row on this target carries the anchor its matrix cell links to.
        const anchor = warningsAnchor(index, result.check);
        row.checks.push({ check: result.check, ...(!anchored.has(anchor) && { anchor }) });
        anchored.add(anchor);
      }
  });
  return { warnings: [...rows.values()], warningCount: count };
}

/** Where a check's warnings on one target stand in the page. */
function warningsAnchor(target: number, check: string): string {
  return `warnings-${target}-${check}`;
}

/** `, 3 warnings` for a verdict, or nothing. */
function warningCount(results: Parameters<typeof warningsOf>[0][]): string {
  const count = results.reduce((sum, result) => sum + warningsOf(result).length, 0);
  return count === 0 ? '' : `, ${count} warning${count === 1 ? '' : 's'}`;
}

/** The run's context, a row each: what a reader of the page needs to weigh and repeat it. */
function contextOf(report: ContractReport): Array<{ name: string; value: string }> {
  return [
    ...(report.flags ? [{ name: 'command', value: `petstore-contract ${report.flags.join(' ')}` }] : []),
    { name: 'seed', value: String(report.seed) },
    ...(report.versions
      ? [{ name: 'versions', value: `harness ${report.versions.harness}, spec ${report.versions.spec}` }]
      : []),
    ...report.targets.map(({ target, durationMs, requests, keyLimit }) => ({
      name: target.label,
      value: `${(durationMs / 1000).toFixed(1)} s, ${requests} requests${keyLimit !== undefined ? `, the key's plan: ${keyLimit} requests a minute (X-RateLimit-Limit)` : ''}, capabilities: ${target.capabilities.join(', ')}`,
    })),
  ];
}
