import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { CHECKS } from '../checks/registry.js';
import { junitReport } from '../report/junit-report.js';
import { jsonReport, type SuiteReport } from '../report/suite-report.js';
import { checkLine, summaryText } from '../report/terminal-report.js';
import { summarise, type CheckResult } from '../runner/check-result.js';
import { isExitTwoError } from '../targets/target-errors.js';
import { skipReason, type RunningTarget } from '../targets/target.js';
import { HelpRequested, parseContractCli } from './cli-options.js';
import { runSuiteInJest } from './jest-suite-process.js';
import { startTargetFor } from './start-target.js';

/** Where the CLI writes and what it reads from its environment (injected, for tests). */
export interface CliIo {
  out(line: string): void;
  err(line: string): void;
  env: NodeJS.ProcessEnv;
}

async function writeReport(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, text);
}

/** Prints one line per check in registry order: a skipped check's line comes when its turn comes. */
function orderedPrinter(planned: ReadonlyArray<{ name: string; skipped?: CheckResult }>, out: (line: string) => void) {
  let next = 0;
  const flushSkipsBefore = (stop: number) => {
    for (; next < stop; next += 1) {
      const skipped = planned[next]!.skipped;
      if (skipped) out(checkLine(skipped));
    }
  };
  return {
    printResult(result: CheckResult) {
      const index = planned.findIndex(({ name }) => name === result.check);
      flushSkipsBefore(index);
      out(checkLine(result));
      next = Math.max(next, index + 1);
    },
    finish: () => flushSkipsBefore(planned.length),
  };
}

async function runAgainst(target: RunningTarget, options: { junit?: string; json?: string }, io: CliIo): Promise<number> {
  const { descriptor } = target;
  const startedAt = new Date();
  const where = descriptor.label === descriptor.baseUrl ? descriptor.label : `${descriptor.label} (${descriptor.baseUrl})`;
  io.out(`Contract suite against ${where}, ${CHECKS.length} checks`);
  const planned = CHECKS.map((check) => {
    const reason = skipReason(check.needs, descriptor);
    const skipped: CheckResult | undefined =
      reason === undefined ? undefined : { check: check.name, verifies: check.verifies, outcome: 'skipped', reason, notes: [], durationMs: 0, requests: 0, observed: [] };
    return { name: check.name, ...(skipped && { skipped }) };
  });
  const printer = orderedPrinter(planned, io.out);
  const run = await runSuiteInJest(descriptor, (event) => {
    if (event.type === 'note') io.out(`      ${event.check}: ${event.message}`);
    else printer.printResult(event.result);
  });
  printer.finish();
  const reported = new Map(run.events.flatMap((event) => (event.type === 'result' ? [[event.result.check, event.result] as const] : [])));
  const results = planned.flatMap(({ name, skipped }) => {
    const result = skipped ?? reported.get(name);
    return result ? [result] : [];
  });
  const summary = summarise(results);
  if (results.length !== CHECKS.length || (run.exitCode !== 0 && summary.failed === 0)) {
    io.err(`contract: the suite did not complete (jest exited ${run.exitCode}; ${results.length} of ${CHECKS.length} checks reported). Jest said:\n${run.output}`);
    return 2;
  }
  const durationMs = Date.now() - startedAt.getTime();
  io.out(summaryText(results, summary, durationMs / 1000));
  const exitCode = summary.failed > 0 ? 1 : 0;
  const report: SuiteReport = {
    target: { kind: descriptor.kind, label: descriptor.label, baseUrl: descriptor.baseUrl, capabilities: descriptor.capabilities },
    startedAt: startedAt.toISOString(),
    durationMs,
    summary,
    exitCode,
    results,
  };
  if (options.junit) await writeReport(options.junit, junitReport(report));
  if (options.json) await writeReport(options.json, jsonReport(report));
  return exitCode;
}

/**
 * The contract suite's command line (design.md section 4). Resolves with the exit code: 0 every
 * applicable check passed, 1 a check failed, 2 bad usage or an unreachable target.
 * @example process.exitCode = await runContractCli(['--target', 'fake'], { out: console.log, err: console.error, env: process.env });
 */
export async function runContractCli(argv: readonly string[], io: CliIo): Promise<number> {
  let options;
  try {
    options = parseContractCli(argv, (text) => io.out(text.trimEnd()));
  } catch (error) {
    if (error instanceof HelpRequested) return 0;
    io.err(`contract: ${(error as Error).message}`);
    return 2;
  }
  let target: RunningTarget;
  try {
    target = await startTargetFor(options, io.env, io.err);
  } catch (error) {
    const message = (error as Error).message;
    io.err(`contract: ${isExitTwoError(error) ? message : `could not start the ${options.target} target: ${message}`}`);
    return 2;
  }
  try {
    return await runAgainst(target, options, io);
  } finally {
    await target.close();
  }
}
