import { CHECKS } from '../checks/registry.js';
import { coverageOf } from '../coverage/coverage.js';
import { junitReport } from '../report/junit-report.js';
import { coverageText, matrixText } from '../report/matrix-report.js';
import { disagreementsOf, jsonReport, type ContractReport, type SuiteReport } from '../report/suite-report.js';
import { checkLine, createdText, summaryText } from '../report/terminal-report.js';
import { summarise } from '../runner/check-result.js';
import { runChecks, sessionOf } from '../runner/run-check.js';
import { LEFT_OUT, suiteSettings, type SuiteSettings } from '../runner/target-session.js';
import { isExitTwoError } from '../targets/target-errors.js';
import type { RunningTarget } from '../targets/target.js';
import { contractOptions, contractProgram, type ContractCliOptions } from './cli-options.js';
import { commandOf, parseWith, writeReport, type CliIo } from './cli-common.js';
import { startTargetFor } from './start-target.js';
import { runReplayCli, runWatchCli } from './watch-cli.js';

export type { CliIo } from './cli-common.js';

/** Runs every check against one target, in this process, printing each result as it comes. */
async function runAgainst(target: RunningTarget, settings: SuiteSettings, io: CliIo): Promise<SuiteReport> {
  const { descriptor } = target;
  const startedAt = new Date();
  const where =
    descriptor.label === descriptor.baseUrl ? descriptor.label : `${descriptor.label} (${descriptor.baseUrl})`;
  io.out(
    `Contract suite against ${where}: ${CHECKS.length} checks, ${settings.runs} generated cases per property, seed ${settings.seed}${settings.maxRequests ? `, at most ${settings.maxRequests} requests` : ''}${settings.maxMinutes ? `, at most ${settings.maxMinutes} min` : ''}`,
  );
  const results = await runChecks(CHECKS, descriptor, {
    settings,
    onNote: (check, message) => io.out(`      ${check}: ${message}`),
    onResult: (result) => io.out(checkLine(result)),
  });
  const summary = summarise(results);
  const durationMs = Date.now() - startedAt.getTime();
  const requests = results.reduce((sum, result) => sum + result.requests, 0);
  const coverage = coverageOf(results.flatMap((result) => result.observed));
  io.out(`${summaryText(results, summary, durationMs / 1000)}; ${requests} requests sent to ${descriptor.label}`);
  io.out(coverageText(coverage));
  const leftOut = results.filter((result) => result.outcome === 'skipped' && result.reason?.startsWith(LEFT_OUT));
  if (leftOut.length > 0)
    io.out(
      `Left out to fit --max-minutes ${settings.maxMinutes}: ${leftOut.map((result) => result.check).join(', ')} (run without it, or with more minutes, for these)`,
    );
  const session = sessionOf(descriptor, settings);
  const created =
    session.marker === undefined ? undefined : { marker: session.marker, records: session.model.created() };
  if (created) io.out(createdText(created));
  const rulesTried = [...session.model.rulesTried().keys()];
  io.out(
    `Evidence: ${session.kindsTried} facets of generated cases (each schema constraint broken; each member, class of character, length boundary and class of number sent) and ${rulesTried.length} rules of the table applied to answers (${rulesTried.join(', ')})`,
  );
  io.out(`Replay these cases with: --seed ${settings.seed}`);
  return {
    target: {
      kind: descriptor.kind,
      label: descriptor.label,
      baseUrl: descriptor.baseUrl,
      capabilities: descriptor.capabilities,
    },
    startedAt: startedAt.toISOString(),
    durationMs,
    summary,
    runs: settings.runs,
    requests,
    coverage,
    ...(created && { created }),
    exitCode: summary.failed > 0 ? 1 : 0,
    results,
  };
}

/** Starts or connects to every target first, so an unreachable one stops the run before anything is sent. */
async function startTargets(options: ContractCliOptions, io: CliIo): Promise<RunningTarget[] | undefined> {
  if (
    options.targets.some((target) => target === 'fake' || target === 'prism') &&
    (options.allow.length > 0 || options.apiKey !== undefined)
  ) {
    io.err('note: --api-key and --allow are for URL targets; fake and prism imply what they support');
  }
  const started: RunningTarget[] = [];
  for (const target of options.targets) {
    try {
      const running = await startTargetFor(target, options, io.env);
      // Two targets of one kind (fake twice) get distinct labels, so the matrix can tell them apart.
      const clash = started.filter(({ descriptor }) => descriptor.label === running.descriptor.label).length;
      if (clash > 0) running.descriptor.label = `${running.descriptor.label}#${clash + 1}`;
      started.push(running);
    } catch (error) {
      const message = (error as Error).message;
      io.err(`contract: ${isExitTwoError(error) ? message : `could not start the ${target} target: ${message}`}`);
      await Promise.all(started.map((running) => running.close()));
      return undefined;
    }
  }
  return started;
}

/**
 * The contract suite's command line (docs/explanation/design.md section 4), and its `watch` and `replay` commands.
 * Resolves with the exit code: 0 every applicable check passed (and coverage reached `--min-coverage`),
 * 1 a check failed or coverage fell short, 2 bad usage or an unreachable target. `stop` ends a `watch`.
 * @example process.exitCode = await runContractCli(['--target', 'fake'], { out: console.log, err: console.error, env: process.env, command: 'petstore-contract' });
 */
export async function runContractCli(
  argv: readonly string[],
  io: CliIo,
  stop: Promise<void> = new Promise(() => undefined),
): Promise<number> {
  if (argv[0] === 'watch') return runWatchCli(argv.slice(1), io, stop);
  if (argv[0] === 'replay') return runReplayCli(argv.slice(1), io);
  const parsed = parseWith(contractProgram(commandOf(io)), argv, io, 'contract');
  if (typeof parsed === 'number') return parsed;
  const options = contractOptions(parsed);
  const targets = await startTargets(options, io);
  if (!targets) return 2;
  const seed = suiteSettings({ live: false, ...(options.seed !== undefined && { seed: options.seed }) }).seed;
  const reports: SuiteReport[] = [];
  try {
    for (const [index, target] of targets.entries()) {
      if (index > 0) io.out('');
      const settings = suiteSettings({
        live: target.descriptor.paced,
        seed,
        ...(options.runs !== undefined && { runs: options.runs }),
        ...(options.maxRequests !== undefined && { maxRequests: options.maxRequests }),
        ...(options.maxMinutes !== undefined && { maxMinutes: options.maxMinutes }),
        ...(options.maxConcurrency !== undefined && { maxConcurrency: options.maxConcurrency }),
        ...(options.strict && { strict: true }),
      });
      reports.push(await runAgainst(target, settings, io));
    }
  } finally {
    await Promise.all(targets.map((target) => target.close()));
  }
  const belowCoverage =
    options.minCoverage === undefined ? [] : reports.filter(({ coverage }) => coverage.percent < options.minCoverage!);
  for (const { target, coverage } of belowCoverage)
    io.out(
      `Coverage of ${target.label} is ${coverage.percent.toFixed(1)}%, below --min-coverage ${options.minCoverage}`,
    );
  const exitCode = reports.some((report) => report.exitCode === 1) || belowCoverage.length > 0 ? 1 : 0;
  const report: ContractReport = {
    seed,
    ...(options.maxRequests !== undefined && { maxRequests: options.maxRequests }),
    ...(options.maxMinutes !== undefined && { maxMinutes: options.maxMinutes }),
    ...(options.minCoverage !== undefined && { minCoverage: options.minCoverage }),
    exitCode,
    targets: reports,
    disagreements: disagreementsOf(reports),
  };
  if (reports.length > 1) io.out(matrixText(report));
  if (options.junit) await writeReport(options.junit, junitReport(report));
  if (options.json) await writeReport(options.json, jsonReport(report));
  return exitCode;
}
