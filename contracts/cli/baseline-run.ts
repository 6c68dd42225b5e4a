import { documentedSpec } from '../core/spec-document.js';
import { operationOfRequest } from '../core/spec-operations.js';
import { existsSync } from 'node:fs';
import {
  baselineOf,
  baselineText,
  judgeBaseline,
  readBaseline,
  type BaselineEntry,
  type Finding,
} from '../report/baseline.js';
import type { CheckResult } from '../runner/check-result.js';
import type { TrafficViolation } from '../watch/traffic-judge.js';
import { writeReport, type CliIo } from './cli-common.js';

/** Today, as a baseline's `until` is written (UTC). */
export const today = (): string => new Date().toISOString().slice(0, 10);

/** The operation a failure names in its title or lines (`... (createCategory)`), when it names one. */
function operationNamed(text: string): string | undefined {
  return Object.keys(documentedSpec().operations).find((operationId) => new RegExp(`\\b${operationId}\\b`).test(text));
}

/** The operation of the request a failure's curl sends, on the target at `baseUrl`. */
function operationOfCurl(curl: string | undefined, baseUrl: string): string | undefined {
  const sent = curl && /^curl -X (\S+) '([^']+)'/.exec(curl);
  return sent ? operationOfRequest(sent[1]!, sent[2]!, baseUrl)?.operationId : undefined;
}

/**
 * A failed check of the suite on the target at `baseUrl`, as a baseline matches it: by the id of what
 * broke (a promise or a rule: an entry's `promise` names either) and its operation, both from the
 * check's first finding; the text is read only for a result that carries no findings (an older report).
 */
export function findingOfResult(result: CheckResult, baseUrl: string): Finding {
  const title = result.failure?.title ?? 'failed';
  const [first] = result.findings ?? [];
  if (first) {
    return {
      check: result.check,
      title,
      ...(first.operation !== undefined && { operation: first.operation }),
      ...(first.kind !== 'check' && { promise: first.id }),
    };
  }
  const promise = /^Broken (?:promise|rule) (\w+):/.exec(title)?.[1];
  const operation =
    operationNamed([title, ...(result.failure?.lines ?? [])].join('\n')) ??
    operationOfCurl(result.failure?.curl, baseUrl);
  return {
    check: result.check,
    title,
    ...(operation !== undefined && { operation }),
    ...(promise !== undefined && { promise }),
  };
}

/** A violation `watch` or `replay` saw, as a baseline matches it: its rule is the check. */
export function findingOfViolation(violation: TrafficViolation): Finding {
  return { check: violation.rule, operation: violation.operation, title: violation.title };
}

/**
 * Applies `--baseline` (prints what it excused, what no longer fails, what expired) and writes
 * `--update-baseline`. Resolves with the failures that still count.
 */
export async function applyBaseline(
  findings: readonly Finding[],
  options: { baseline?: string; entries?: readonly BaselineEntry[]; update?: boolean },
  io: CliIo,
): Promise<{ failing: number; verdict?: ReturnType<typeof judgeBaseline> }> {
  if (options.update) {
    const file = options.baseline ?? 'contract-baseline.json';
    await writeReport(file, baselineOf(findings, today(), options.entries ?? []));
    io.out(`Baseline written to ${file}: ${findings.length} failures accepted for 30 days; write why in each entry`);
  }
  if (!options.baseline || !options.entries) return { failing: findings.length };
  const verdict = judgeBaseline(options.entries, findings, today());
  for (const line of baselineText(verdict, options.baseline)) io.out(line);
  return { failing: verdict.failing.length, verdict };
}

/**
 * How many violations still count after `--baseline` (all of them without one; those past the kept
 * ones always count, unseen), and the lines that say so; undefined when the baseline file is bad (said on stderr).
 */
export async function baselineJudged(
  violations: readonly TrafficViolation[],
  notKept: number,
  options: { baseline?: string; updateBaseline?: boolean },
  io: CliIo,
): Promise<{ failing: number; lines: string[] } | undefined> {
  let entries;
  try {
    if (options.baseline && !(options.updateBaseline && !existsSync(options.baseline)))
      entries = await readBaseline(options.baseline);
  } catch (error) {
    io.err(`watch: ${(error as Error).message}`);
    return undefined;
  }
  const lines: string[] = [];
  const { failing } = await applyBaseline(
    violations.map(findingOfViolation),
    {
      ...(options.baseline && { baseline: options.baseline }),
      ...(entries && { entries }),
      ...(options.updateBaseline && { update: true }),
    },
    // Kept to print after the summary, so they close the report.
    { ...io, out: (line) => lines.push(line) },
  );
  return { failing: failing + notKept, lines };
}
