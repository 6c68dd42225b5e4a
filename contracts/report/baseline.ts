import { readFile } from 'node:fs/promises';
import { UsageError } from '../targets/target-errors.js';

/**
 * One accepted failure of a baseline file (`--baseline`): a check (or, for `watch` and `replay`, a
 * rule) that is known to fail, optionally only on one operation or for one promise, why it is
 * accepted, and until when. Past `until` it fails the run again.
 */
export interface BaselineEntry {
  check: string;
  operation?: string;
  promise?: string;
  why: string;
  /** The last day it is accepted, `YYYY-MM-DD` (UTC). */
  until: string;
}

/** A failure as a baseline matches it: the check or rule, and where known the operation and the promise. */
export interface Finding {
  check: string;
  operation?: string;
  promise?: string;
  title: string;
}

/** What a baseline made of a run's failures. */
export interface BaselineVerdict {
  /** Failures an entry accepts: listed, not counted. */
  excused: Array<{ finding: Finding; entry: BaselineEntry }>;
  /** Failures no live entry accepts: they decide the exit status. */
  failing: Finding[];
  /** Entries that matched nothing this run: the failure they accept is gone (remove them). */
  noLongerFailing: BaselineEntry[];
  /** Entries past their date: they accept nothing any more. */
  expired: BaselineEntry[];
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Reads a baseline file; a bad one is a usage error naming the file and the entry. */
export async function readBaseline(file: string): Promise<BaselineEntry[]> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(`--baseline ${file}: ${code === 'ENOENT' ? 'no such file' : (error as Error).message}`);
  }
  const accepted = (parsed as { accepted?: unknown })?.accepted;
  if (!Array.isArray(accepted)) throw new UsageError(`--baseline ${file}: expected { "accepted": [ ... ] }`);
  return accepted.map((entry: Partial<BaselineEntry>, index) => {
    const problem =
      typeof entry?.check !== 'string' || entry.check === ''
        ? 'a "check" (its name, or a rule of watch)'
        : typeof entry.why !== 'string' || entry.why.trim() === ''
          ? 'a "why" (the reason the failure is accepted)'
          : typeof entry.until !== 'string' || !DAY.test(entry.until) || Number.isNaN(Date.parse(entry.until))
            ? 'an "until" date, YYYY-MM-DD'
            : undefined;
    if (problem) throw new UsageError(`--baseline ${file}: entry ${index + 1} needs ${problem}`);
    return entry as BaselineEntry;
  });
}

const matches = (entry: BaselineEntry, finding: Finding) =>
  entry.check === finding.check &&
  (entry.operation === undefined || entry.operation === finding.operation) &&
  (entry.promise === undefined || entry.promise === finding.promise);

/**
 * Sorts a run's failures by the baseline, as of `today` (`YYYY-MM-DD`): excused by a live entry, or
 * failing; and the entries that matched nothing, and those expired.
 * @example judgeBaseline(entries, findings, '2026-11-25')
 */
export function judgeBaseline(
  entries: readonly BaselineEntry[],
  findings: readonly Finding[],
  today: string,
): BaselineVerdict {
  const live = entries.filter((entry) => entry.until >= today);
  const excused: BaselineVerdict['excused'] = [];
  const failing: Finding[] = [];
  const used = new Set<BaselineEntry>();
  for (const finding of findings) {
    const entry = live.find((candidate) => matches(candidate, finding));
    if (entry) {
      excused.push({ finding, entry });
      used.add(entry);
    } else failing.push(finding);
  }
  return {
    excused,
    failing,
    noLongerFailing: live.filter((entry) => !used.has(entry)),
    expired: entries.filter((entry) => entry.until < today),
  };
}

/** The baseline `--update-baseline` writes: every failure of the run, accepted for 30 days, its why to be written. */
export function baselineOf(findings: readonly Finding[], today: string, kept: readonly BaselineEntry[] = []): string {
  const until = new Date(Date.parse(today) + 30 * 86_400_000).toISOString().slice(0, 10);
  const entries: BaselineEntry[] = [];
  for (const finding of findings) {
    const known = kept.find((entry) => matches(entry, finding) && entry.until >= today);
    const entry: BaselineEntry = known ?? {
      check: finding.check,
      ...(finding.operation !== undefined && { operation: finding.operation }),
      ...(finding.promise !== undefined && { promise: finding.promise }),
      why: `accepted by --update-baseline on ${today}: ${finding.title}`,
      until,
    };
    if (!entries.includes(entry) && !entries.some((other) => JSON.stringify(other) === JSON.stringify(entry)))
      entries.push(entry);
  }
  return `${JSON.stringify({ accepted: entries }, null, 2)}\n`;
}

/** The summary's lines on the baseline: what it excused, what no longer fails, what expired. */
export function baselineText(verdict: BaselineVerdict, file: string): string[] {
  const where = (entry: BaselineEntry) =>
    `${entry.check}${entry.operation ? ` on ${entry.operation}` : ''}${entry.promise ? ` (${entry.promise})` : ''}`;
  return [
    `Baseline ${file}: ${verdict.excused.length} failures excused, ${verdict.failing.length} not in it`,
    ...verdict.excused.map(
      ({ finding, entry }) => `  excused: ${finding.check}: ${finding.title} (until ${entry.until}: ${entry.why})`,
    ),
    ...verdict.noLongerFailing.map((entry) => `  no longer fails: ${where(entry)}; remove it from the baseline`),
    ...verdict.expired.map((entry) => `  expired ${entry.until}: ${where(entry)} fails the run again`),
  ];
}
