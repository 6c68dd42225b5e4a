import Handlebars from 'handlebars';
import type { CoverageItem } from '../coverage/coverage.js';
import { HTML_TEMPLATE } from './html-template.js';

/** One cell of the check x target matrix. */
export interface MatrixCell {
  outcome: 'passed' | 'failed' | 'skipped';
  /** The failure's title or the skip's reason. */
  note?: string;
  /** The anchor of the failure (or skip) it stands for, in the page. */
  href?: string;
  /** How many warnings the check's answers gave (SHOULDs broken): shown in the cell, linked to them. */
  warned?: number;
  /** The anchor of those warnings. */
  warningsHref?: string;
}

/**
 * What the HTML report shows, the same for a suite run, a watch session and a replay: built from each
 * one's report by its own command, so this module knows none of them.
 */
export interface HtmlReportInput {
  title: string;
  /** One sentence: the exit status and why. */
  verdict: string;
  exitCode: number;
  generatedAt: string;
  targets: string[];
  /** Rows of checks (or rules) against the targets, in the order of `targets`. */
  matrix: Array<{ check: string; cells: MatrixCell[] }>;
  /** Per target, every operation x status x header item, exercised or not. */
  /** Each target's items, and its percent as the terminal prints it (what it cannot give left out). */
  coverage: Array<{ target: string; items: CoverageItem[]; percent: number }>;
  failures: Array<{ target: string; check: string; title: string; lines: string[]; curl?: string; anchor?: string }>;
  /** What the run was: duration, requests per target, flags, versions, the key's plan, the seed. */
  context?: Array<{ name: string; value: string }>;
  /** Every failed check under a cause (what broke and what went wrong), each with its own first reproduction. */
  causes?: Array<{
    target: string;
    id: string;
    kind: string;
    /** What went wrong (`expected ...`); a failure without a finding id says so in `kind`. */
    what: string;
    checks: string[];
    first: string;
    curl?: string;
    /** The status the reproduction got: what running the curl must show again. */
    status?: number;
    anchor?: string;
  }>;
  /**
   * The warnings (a SHOULD the target broke, a parser's refusal): the run passes them, a reader must see
   * them. One row per target, rule and what came, with every check that met it.
   */
  warnings?: Array<{
    target: string;
    rule: string;
    /** What came, in one line (`Received: ... / Expected: ...`). */
    received: string;
    /** The first warning whole: the rule's words, every line. */
    text: string;
    curl?: string;
    /** Each check that met it; `anchor` where the check's matrix cell links. */
    checks: Array<{ check: string; anchor?: string }>;
  }>;
  /** How many warnings the rows hold in all. */
  warningCount?: number;
  /** Every check not run, and why, as text (not only as a cell's title). */
  skips?: Array<{ target: string; check: string; reason: string; anchor: string }>;
  /** Per target, what of the evidence catalogue the run tried, and what it did not and why. */
  evidence?: Array<{
    target: string;
    tried: number;
    catalogue: number;
    notTried: Array<{ entry: string; why: string }>;
  }>;
  waits: Array<{ target: string; check: string; why: string; startedAfter: number; seconds: number; outcome: string }>;
  created: Array<{ target: string; marker: string; records: number; ids: string }>;
  deprecated: Array<{ operation: string; calls: number; sunset?: string; clients: string }>;
  /** Lines a reader needs beside the rest (unanswered requests, a baseline's verdict). */
  notes: string[];
}

const MARK = { passed: 'PASS', failed: 'FAIL', skipped: 'SKIP' } as const;

/** One heat-map cell's items: per target, exercised or not, or an answer that target can never be made to give. */
type CellItem = { target: string; exercised: boolean; unreachable?: string };

/**
 * A documented cell: the share of the targets that can give it whose answers exercised it. A cell no
 * target can be made to give (a declared 500 on a live service) is drawn apart from a gap, with why.
 */
function heatCell(row: string, header: string, items: readonly CellItem[]) {
  const reachable = items.filter((item) => item.unreachable === undefined);
  const cannot = items.filter((item) => item.unreachable !== undefined);
  const cannotText = cannot.map((item) => `${item.target} cannot: ${item.unreachable}`).join('; ');
  if (reachable.length === 0)
    return {
      documented: true,
      cannot: true,
      share: 0,
      title: `${row} ${header}: no target can give it (${cannotText})`,
    };
  const exercised = reachable.filter((item) => item.exercised);
  return {
    documented: true,
    cannot: false,
    share: Math.round((exercised.length / reachable.length) * 100),
    title: `${row} ${header}: exercised on ${exercised.map((item) => item.target).join(', ') || 'no target'}${cannotText ? `; ${cannotText}` : ''}`,
  };
}

/** The coverage as a heat map: a row per operation and status, a column per header, the share of targets that exercised it. */
function heatMap(coverage: HtmlReportInput['coverage']) {
  const headers = [...new Set(coverage.flatMap(({ items }) => items.map((item) => item.header ?? '(status)')))].sort(
    (a, b) => (a === '(status)' ? -1 : b === '(status)' ? 1 : a.localeCompare(b)),
  );
  const rows = [...new Set(coverage.flatMap(({ items }) => items.map((item) => `${item.operationId} ${item.status}`)))];
  return {
    headers,
    rows: rows.map((row) => ({
      row,
      cells: headers.map((header) => {
        const items = coverage.flatMap(({ target, items: all }) =>
          all
            .filter((item) => `${item.operationId} ${item.status}` === row && (item.header ?? '(status)') === header)
            .map((item) => ({
              target,
              exercised: item.exercised,
              ...(item.unreachable !== undefined && { unreachable: item.unreachable }),
            })),
        );
        if (items.length === 0) return { documented: false, share: 0, title: `${row}: ${header} is not documented` };
        return heatCell(row, header, items);
      }),
    })),
  };
}

let compiled: HandlebarsTemplateDelegate | undefined;

/**
 * The report as one self-contained HTML file: styles and the little script that copies a curl are
 * inline, nothing is fetched when it is opened. Handlebars escapes every value (answers and requests
 * are the target's and the client's text, never trusted as markup).
 * @example await writeReport('reports/contract.html', htmlReport(input));
 */
export function htmlReport(input: HtmlReportInput): string {
  compiled ??= Handlebars.create().compile(HTML_TEMPLATE, { strict: false });
  const longest = Math.max(1, ...input.waits.map((wait) => wait.startedAfter + wait.seconds));
  return compiled({
    ...input,
    passed: input.exitCode === 0,
    matrix: input.matrix.map(({ check, cells }) => ({
      check,
      cells: cells.map((cell) => ({
        ...cell,
        mark: MARK[cell.outcome],
        ...(cell.warned && { warnedLabel: `${cell.warned} warning${cell.warned === 1 ? '' : 's'}` }),
      })),
    })),
    heat: heatMap(input.coverage),
    coveragePercents: input.coverage.map(({ target, percent }) => ({ target, percent: percent.toFixed(1) })),
    waits: input.waits.map((wait) => ({
      ...wait,
      left: ((wait.startedAfter / longest) * 100).toFixed(2),
      width: Math.max(0.5, (wait.seconds / longest) * 100).toFixed(2),
    })),
  });
}
