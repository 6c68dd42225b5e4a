import { CHECKS } from '../checks/registry.js';
import { coverageOf } from '../coverage/coverage.js';
import { junitReport } from '../report/junit-report.js';
import { coverageText, matrixText } from '../report/matrix-report.js';
import { disagreementsOf, jsonReport, type ContractReport, type SuiteReport } from '../report/suite-report.js';
import { checkLine, createdText, summaryText } from '../report/terminal-report.js';
import { summarise } from '../runner/check-result.js';
import { sessionOf } from '../runner/run-check.js';
import { runChecks } from '../runner/run-checks.js';
import { INTERRUPTED, LEFT_OUT, suiteSettings, type SuiteSettings } from '../runner/target-session.js';
import { DEFAULT_MAX_MINUTES, DEFAULT_MAX_REQUESTS, waitsPastBudgetText } from '../runner/run-bounds.js';
import { estimateRunCost, expectedRequests, runCostText } from '../runner/run-cost.js';
import {
  evidenceAgreementText,
  evidenceCatalogue,
  evidenceSummary,
  evidenceText,
} from '../runner/evidence-catalogue.js';
import { isExitTwoError } from '../targets/target-errors.js';
import type { RunningTarget } from '../targets/target.js';
import { contractOptions, contractProgram, type ContractCliOptions } from './cli-options.js';
import { commandOf, parseWith, reportsWritable, writeReport, type CliIo } from './cli-common.js';
import { packageVersion } from './version.js';
import { specDocument } from '../../spec/spec-artifacts.js';
import { startTargetFor } from './start-target.js';
import { runChecksCli } from './checks-cli.js';
import { existsSync } from 'node:fs';
import { readBaseline, type BaselineEntry } from '../report/baseline.js';
import { applyBaseline, findingOfResult } from './baseline-run.js';
import { selectChecks } from '../runner/check-selection.js';
import { operationsNamed } from '../runner/operation-selection.js';
import { htmlReport } from '../report/html-report.js';
import { htmlInputOfContract } from '../report/html-contract.js';
import type { Check } from '../checks/check.js';
import { reachabilityOf } from '../transport/unanswered.js';
import { unansweredText } from '../report/unanswered-report.js';
import { runWatchCli } from './watch-cli.js';
import { runReplayCli } from './replay-cli.js';
import { RunProgress, waitCountdown } from './progress.js';
import { incompleteLine, incompleteness } from './incompleteness.js';

export type { CliIo } from './cli-common.js';

/**
 * The command line as a report may show it: the key's value (`--api-key K`, `--api-key=K`) and every
 * `--header` value (a gateway's token) as `***`.
 */
function shownFlags(argv: readonly string[]): string[] {
  return argv.map((word, index) => {
    const secret = ['--api-key', '--header'].find((flag) => word.startsWith(`${flag}=`));
    if (secret) return `${secret}=***`;
    const previous = argv[index - 1];
    if (previous === '--api-key') return '***';
    if (previous === '--header') return `${word.split(':')[0]}: ***`;
    return word;
  });
}

/** Runs every check against one target, in this process, printing each result as it comes. */
async function runAgainst(
  target: RunningTarget,
  settings: SuiteSettings,
  io: CliIo,
  checks: readonly Check[],
): Promise<SuiteReport> {
  const { descriptor } = target;
  const startedAt = new Date();
  const where =
    descriptor.label === descriptor.baseUrl ? descriptor.label : `${descriptor.label} (${descriptor.baseUrl})`;
  io.out(
    `Contract suite against ${where}: ${checks.length} checks, ${settings.runs} generated cases per property, seed ${settings.seed}${settings.maxRequests ? `, at most ${settings.maxRequests} requests` : ''}${settings.maxMinutes ? `, at most ${settings.maxMinutes} min` : ''}`,
  );
  const session = sessionOf(descriptor, settings);
  let costStated = !descriptor.paced;
  const progress = new RunProgress(checks.length);
  const results = await runChecks(checks, descriptor, {
    settings,
    onPlan: (message) => io.out(message),
    onNote: (check, message) => io.out(`      ${check}: ${message}`),
    onResult: (result) => {
      io.out(`${checkLine(result)}  ${progress.done(result.check, session.sent)}`);
      // From the target's first answers (the key's limit), before any check drives a window.
      if (costStated || session.keyLimit === undefined) return;
      costStated = true;
      const cost = estimateRunCost({
        runs: settings.runs,
        keyLimit: session.keyLimit,
        capabilities: descriptor.capabilities,
        checks: checks.map((check) => check.name),
        ...(settings.maxMinutes !== undefined && { maxMinutes: settings.maxMinutes }),
        ...(settings.maxRequests !== undefined && { maxRequests: settings.maxRequests }),
        ...(session.evidencePlan?.rehearsal && { rehearsal: session.evidencePlan.rehearsal }),
      });
      progress.estimate = expectedRequests(cost);
      io.out(runCostText(cost, settings));
    },
  });
  const summary = summarise(results);
  const durationMs = Date.now() - startedAt.getTime();
  const requests = results.reduce((sum, result) => sum + result.requests, 0);
  const coverage = coverageOf(
    results.flatMap((result) => result.observed),
    descriptor.lacking,
  );
  const evidence = evidenceSummary({
    catalogue: evidenceCatalogue(),
    tried: session.evidence.tried,
    results,
    descriptor,
    ...(settings.operations && { operations: settings.operations }),
    ...(session.evidencePlan && { triedBy: session.evidencePlan.triedBy }),
  });
  const incomplete = incompleteness(results, evidence);
  io.out(
    `${summaryText(results, summary, durationMs / 1000)}; ${requests} requests sent to ${descriptor.label}${incomplete.length > 0 ? `; INCOMPLETE: ${incomplete.join('; ')}` : ''}`,
  );
  io.out(coverageText(coverage));
  const leftOut = results.filter((result) => result.outcome === 'skipped' && result.reason?.startsWith(LEFT_OUT));
  if (leftOut.length > 0)
    io.out(
      `Left out to fit --max-minutes ${settings.maxMinutes}: ${leftOut.map((result) => result.check).join(', ')} (run without it, or with more minutes, for these)`,
    );
  const unanswered = session.unanswered;
  const reachability = reachabilityOf(
    requests - unanswered.count,
    unanswered.count,
    settings.allowUpstreamErrors ?? false,
  );
  for (const line of unansweredText(unanswered.count, unanswered.list(), reachability)) io.out(line);
  const created =
    session.marker === undefined ? undefined : { marker: session.marker, records: session.model.created() };
  if (created) io.out(createdText(created));
  for (const line of evidenceText(evidence, descriptor.label)) io.out(line);
  for (const line of waitsPastBudgetText(session.waitsPastBudget)) io.out(line);
  const interrupted = results.filter((result) => result.reason?.startsWith(INTERRUPTED)).length;
  if (interrupted > 0)
    io.out(
      `Interrupted: ${interrupted} checks not completed; the verdict is a failure, and every report asked for is written`,
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
    unanswered: { count: unanswered.count, requests: unanswered.list() },
    reachability,
    waitsPastBudget: session.waitsPastBudget,
    waits: session.waits,
    evidence,
    incomplete,
    ...(session.keyLimit !== undefined && { keyLimit: session.keyLimit }),
    exitCode: Math.max(
      reachability.exitCode,
      summary.failed > 0 || session.waitsPastBudget.length > 0 || interrupted > 0 ? 1 : 0,
    ) as 0 | 1 | 2,
    results,
  };
}

/** `--max-requests` and `--max-minutes` as given, else the defaults on a live target (none on the fake or Prism). */
function bounds(options: ContractCliOptions, live: boolean): Pick<SuiteSettings, 'maxRequests' | 'maxMinutes'> {
  const maxRequests = options.maxRequests ?? (live ? DEFAULT_MAX_REQUESTS : undefined);
  const maxMinutes = options.maxMinutes ?? (live ? DEFAULT_MAX_MINUTES : undefined);
  return {
    ...(maxRequests !== undefined && { maxRequests }),
    ...(maxMinutes !== undefined && { maxMinutes }),
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
      if (running.descriptor.diagnosis) io.out(running.descriptor.diagnosis);
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
  // `help` and `help watch` are `--help` and `watch --help`, as in git and npm.
  if (argv[0] === 'help') return runContractCli([...argv.slice(1, 2), '--help'], io, stop);
  if (argv[0] === 'watch') return runWatchCli(argv.slice(1), io, stop);
  if (argv[0] === 'replay') return runReplayCli(argv.slice(1), io);
  if (argv[0] === 'checks') return runChecksCli(argv.slice(1), io);
  const parsed = parseWith(contractProgram(commandOf(io)), argv, io, 'contract');
  if (typeof parsed === 'number') return parsed;
  const options = contractOptions(parsed);
  const selection = selectChecks(CHECKS, {
    ...(options.checks && { only: options.checks }),
    ...(options.skipChecks && { skip: options.skipChecks }),
  });
  const named = options.operations && operationsNamed(options.operations);
  if (named && named.unknown.length > 0) {
    io.err(`contract: --operations: "${named.unknown.join('", "')}" is neither an operationId nor a tag of the spec`);
    return 2;
  }
  if ('unmatched' in selection) {
    io.err(
      `contract: no check is named "${selection.unmatched.join('", "')}" (${commandOf(io)} checks lists them; * and ? match any run of characters and one)`,
    );
    return 2;
  }
  let baseline: BaselineEntry[] | undefined;
  try {
    // --update-baseline keeps the entries of a file that exists (their why and date); it need not exist yet.
    if (options.baseline && !(options.updateBaseline && !existsSync(options.baseline)))
      baseline = await readBaseline(options.baseline);
  } catch (error) {
    io.err(`contract: ${(error as Error).message}`);
    return 2;
  }
  const reportFiles = {
    '--junit': options.junit,
    '--json': options.json,
    '--html': options.html,
    ...(options.updateBaseline && { '--baseline': options.baseline }),
  };
  if (!(await reportsWritable('contract', reportFiles, io))) return 2;
  const targets = await startTargets(options, io);
  if (!targets) return 2;
  const seed = suiteSettings({ live: false, ...(options.seed !== undefined && { seed: options.seed }) }).seed;
  // The first SIGINT/SIGTERM stops the run where it is; its reports are still written.
  const stopping = new AbortController();
  void stop.then(() => stopping.abort());
  const reports: SuiteReport[] = [];
  try {
    for (const [index, target] of targets.entries()) {
      if (index > 0) io.out('');
      const settings = suiteSettings({
        live: target.descriptor.paced,
        seed,
        ...(options.runs !== undefined && { runs: options.runs }),
        // A live target is always bounded: the defaults keep a run to a CI slot and off an enterprise quota.
        ...bounds(options, target.descriptor.paced),
        signal: stopping.signal,
        ...(named && { operations: named.operations }),
        ...(options.header && {
          extraHeaders: { headers: options.header, shown: options.curlWithHeaders ?? false },
        }),
        ...(options.maxConcurrency !== undefined && { maxConcurrency: options.maxConcurrency }),
        ...(options.strict && { strict: true }),
        ...(options.allowUpstreamErrors && { allowUpstreamErrors: true }),
        ...(options.sharedKey && { sharedKey: true }),
        onWait: waitCountdown(io),
      });
      reports.push(await runAgainst(target, settings, io, selection.checks));
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
  // A failure the baseline accepts does not count; everything else a target's report found does.
  const findings = reports.flatMap(({ results, target }) =>
    results.filter((result) => result.outcome === 'failed').map((result) => findingOfResult(result, target.baseUrl)),
  );
  const { failing, verdict } = await applyBaseline(
    findings,
    {
      ...(options.baseline && { baseline: options.baseline }),
      ...(baseline && { entries: baseline }),
      ...(options.updateBaseline && { update: true }),
    },
    io,
  );
  const beyondChecks = reports.map((report) =>
    Math.max(
      report.reachability.exitCode,
      report.waitsPastBudget.length > 0 || report.results.some((result) => result.reason?.startsWith(INTERRUPTED))
        ? 1
        : 0,
    ),
  );
  const incompleteTargets = options.requireComplete ? reports.filter(({ incomplete }) => incomplete.length > 0) : [];
  for (const { target, incomplete } of incompleteTargets)
    io.out(`--require-complete: the run on ${target.label} is incomplete (${incomplete.join('; ')}): exit 1`);
  const exitCode = Math.max(
    0,
    belowCoverage.length > 0 || failing > 0 || incompleteTargets.length > 0 ? 1 : 0,
    ...beyondChecks,
  ) as 0 | 1 | 2;
  const report: ContractReport = {
    seed,
    flags: shownFlags(argv),
    versions: {
      harness: packageVersion(),
      spec: String((specDocument() as { info?: { version?: unknown } }).info?.version),
    },
    ...(options.maxRequests !== undefined && { maxRequests: options.maxRequests }),
    ...(options.maxMinutes !== undefined && { maxMinutes: options.maxMinutes }),
    ...(options.minCoverage !== undefined && { minCoverage: options.minCoverage }),
    exitCode,
    targets: reports,
    disagreements: disagreementsOf(reports),
    ...(verdict && { baseline: verdict }),
  };
  if (reports.length > 1) io.out(matrixText(report));
  const held = reports.flatMap(({ target, evidence }) => (evidence ? [{ label: target.label, evidence }] : []));
  if (held.length > 1) for (const line of evidenceAgreementText(held)) io.out(line);
  if (options.junit) await writeReport(options.junit, junitReport(report));
  if (options.json) await writeReport(options.json, jsonReport(report));
  if (options.html) await writeReport(options.html, htmlReport(htmlInputOfContract(report)));
  // The last line says what a person scrolling to the end must not miss: the run did not do all it was asked.
  const last = incompleteLine(reports, options.requireComplete ?? false);
  if (last) io.out(last);
  return exitCode;
}
