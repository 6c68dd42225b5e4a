import { Command, Option } from 'commander';
import { readFile } from 'node:fs/promises';
import type { Capability } from '../core/capabilities.js';
import { replayAgainst, type ReplayReport } from '../watch/replay.js';
import { readHar } from '../watch/har.js';
import { createdText } from '../report/terminal-report.js';
import { watchSummaryText } from '../watch/watch-report.js';
import { isExitTwoError } from '../targets/target-errors.js';
import type { RunningTarget } from '../targets/target.js';
import { collect, commandOf, parseAllow, parseWith, reportsWritable, writeReport, type CliIo } from './cli-common.js';
import { nothingSeen } from '../transport/unanswered.js';
import { startTargetFor } from './start-target.js';
import { packageVersion } from './version.js';
import { extraHeader } from './extra-headers.js';
import { baselineJudged } from './baseline-run.js';
import { htmlReport } from '../report/html-report.js';
import { htmlInputOfTraffic } from '../watch/watch-html.js';
import { TRAFFIC_RULES } from '../watch/watch-report.js';

/** What `replay`'s exit status means. */
export const REPLAY_EXIT =
  'Exit: 0 every target answered as recorded, as far as the spec demands, and kept its promises; 1 one did not, or left some requests unanswered (unless --allow-upstream-errors); 2 bad usage, a report path that cannot be written, a target answered none of them, or the HAR holds no request (unless --allow-empty).';

/** `replay`'s command line, under the suite's `command`. */
export function replayProgram(command: string): Command {
  return new Command(`${command} replay`)
    .description(
      'Sends the requests of a HAR file, in order, to each target and reports where the answers differ in ways the spec does not allow.',
    )
    .version(packageVersion(), '-V, --version', 'the version of the harness')
    .argument('<file.har>', "a HAR 1.2 file: from watch --har, a browser's devtools, or Playwright's recordHar")
    .addOption(
      new Option('--target <target>', 'fake | prism | a base URL ending in /v1; repeat it for several')
        .argParser(collect)
        .makeOptionMandatory(),
    )
    .option('--api-key <key>', 'the key for a URL target (default: env PETSTORE_API_KEY)')
    .option('--allow <list>', 'what a URL target permits: writes (replays the recorded writes)', parseAllow)
    .option(
      '--baseline <file>',
      'JSON { accepted: [{ check (a rule), operation?, why, until }] } of known violations: only others fail the run; excused, no longer seen and expired entries are listed',
    )
    .option('--update-baseline', "write every violation of this replay to --baseline's file, accepted for 30 days")
    .option('--json <file>', 'write a JSON report')
    .option(
      '--html <file>',
      'write one self-contained HTML report: rules x targets, coverage heat map, violations with curl, what was created',
    )
    .option(
      '--allow-upstream-errors',
      'requests a target did not answer are reported but do not fail the run; a target that answered none still exits 2',
      false,
    )
    .option(
      '--header <Name: value>',
      'add a header to every replayed request; repeatable; never judged nor shown in a curl',
      extraHeader,
    )
    .option(
      '--exclusive-key',
      'nobody else uses the key of a URL target while the replay runs: judge its quota exactly (the fake and Prism always are)',
      false,
    )
    .option(
      '--strict',
      'a SHOULD of the rules under the spec (RFC SHOULDs, OWASP hardening such as Cache-Control: no-store) is a violation that fails the run; without it, it is listed under Warnings',
      false,
    )
    .option(
      '--allow-empty',
      'a HAR with no request to replay exits 0 (by default it exits 2: nothing replayed passes nothing)',
      false,
    )
    .addHelpText('after', `\n${REPLAY_EXIT}`);
}

function replayText(report: ReplayReport): string {
  const lines = [
    `Replay against ${report.target}: ${report.sent} requests sent, ${report.skipped.length} entries left out${report.rateLimitedDifferently > 0 ? `, ${report.rateLimitedDifferently} answers differ only by a 429 (pace and key decide those)` : ''}`,
  ];
  const reasons = new Map<string, number>();
  for (const { why } of report.skipped) reasons.set(why, (reasons.get(why) ?? 0) + 1);
  for (const [why, count] of reasons) lines.push(`  left out ${count}: ${why}`);
  if (report.differences.length === 0) lines.push('Differences the spec does not allow: none');
  else {
    lines.push(`Differences the spec does not allow: ${report.differences.length}`);
    for (const difference of report.differences)
      lines.push(
        `  entry ${difference.entry} ${difference.request}: ${difference.what} recorded ${difference.recorded}, answered ${difference.replayed}`,
      );
  }
  lines.push(watchSummaryText(report.traffic).split('\n').slice(1).join('\n'));
  if (report.created) lines.push(createdText(report.created));
  return lines.join('\n');
}

/** Runs `replay`: every target started first, then the recorded requests sent to each in turn. Resolves with the exit code. */
export async function runReplayCli(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseWith(replayProgram(commandOf(io)), argv, io);
  if (typeof parsed === 'number') return parsed;
  const options = parsed.opts<{
    target: string[];
    apiKey?: string;
    allow?: Capability[];
    json?: string;
    allowUpstreamErrors: boolean;
    exclusiveKey: boolean;
    strict: boolean;
    header?: Array<[string, string]>;
    baseline?: string;
    updateBaseline?: boolean;
    html?: string;
    allowEmpty: boolean;
  }>();
  const file = parsed.args[0]!;
  let recorded;
  try {
    recorded = readHar(await readFile(file, 'utf8'), file);
  } catch (error) {
    io.err(
      `replay: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? `no such file: ${file}` : (error as Error).message}`,
    );
    return 2;
  }
  if (recorded.length === 0) {
    const { exitCode, verdict } = nothingSeen(options.allowEmpty);
    (exitCode === 0 ? io.out : io.err)(`replay: ${file} holds no request to replay. ${verdict}`);
    return exitCode;
  }
  if (!(await reportsWritable('replay', { '--json': options.json, '--html': options.html }, io))) return 2;
  const targets: RunningTarget[] = [];
  try {
    for (const target of options.target)
      targets.push(
        await startTargetFor(
          target,
          {
            allow: options.allow ?? [],
            ...(options.apiKey !== undefined && { apiKey: options.apiKey }),
            ...(options.header && { header: options.header }),
          },
          io.env,
        ),
      );
  } catch (error) {
    io.err(
      `replay: ${isExitTwoError(error) ? (error as Error).message : `could not start a target: ${(error as Error).message}`}`,
    );
    await Promise.all(targets.map((target) => target.close()));
    return 2;
  }
  const reports: ReplayReport[] = [];
  try {
    for (const target of targets) {
      const report = await replayAgainst(recorded, target, {
        writes: (options.allow ?? []).includes('writes'),
        allowUpstreamErrors: options.allowUpstreamErrors,
        // The fake and Prism were started for this replay: nobody else has their key.
        sharedKey: target.descriptor.kind === 'url' && !options.exclusiveKey,
        ...(options.header && { extraHeaders: options.header }),
        strict: options.strict,
        onNote: (message) => io.out(`      ${message}`),
      });
      io.out(replayText(report));
      reports.push(report);
    }
  } finally {
    await Promise.all(targets.map((target) => target.close()));
  }
  if (options.json)
    await writeReport(
      options.json,
      `${JSON.stringify({ file, entries: recorded.length, targets: reports }, null, 2)}\n`,
    );
  const judged = await baselineJudged(
    reports.flatMap(({ traffic }) => traffic.summary.violations),
    reports.reduce((sum, { traffic }) => sum + traffic.summary.violationsNotKept, 0),
    options,
    io,
  );
  if (judged === undefined) return 2;
  for (const line of judged.lines) io.out(line);
  // Differences from the recording always count; the baseline speaks for the rules the traffic broke.
  const exitCode = Math.max(
    judged.failing > 0 ? 1 : 0,
    ...reports.map((report) => Math.max(report.traffic.reachability.exitCode, report.differences.length > 0 ? 1 : 0)),
  );
  if (options.html) {
    const traffic = reports.map(({ traffic: each, target, created }) => ({
      ...each,
      label: target,
      ...(created && { created }),
    }));
    await writeReport(options.html, htmlReport(htmlInputOfTraffic('replay', traffic, TRAFFIC_RULES, exitCode)));
  }
  return exitCode;
}
