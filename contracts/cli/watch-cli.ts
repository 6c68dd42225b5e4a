import { Command, Option } from 'commander';
import { readFile } from 'node:fs/promises';
import type { Capability } from '../core/capabilities.js';
import { replayAgainst, type ReplayReport } from '../watch/replay.js';
import { readHar } from '../watch/har.js';
import { DEFAULT_MAX_BODY_BYTES, startWatchProxy } from '../watch/watch-proxy.js';
import { createdText } from '../report/terminal-report.js';
import { violationLine, watchJson, watchJunit, watchSummaryText, type WatchReport } from '../watch/watch-report.js';
import { validatedBaseUrl } from '../targets/url-target.js';
import { isExitTwoError } from '../targets/target-errors.js';
import type { RunningTarget } from '../targets/target.js';
import { collect, commandOf, parseAllow, parseWith, wholeNumber, writeReport, type CliIo } from './cli-common.js';
import { startTargetFor } from './start-target.js';

/** The options of `watch`, parsed. */
export interface WatchCliOptions {
  upstream: string;
  host: string;
  port: number;
  duration?: number;
  maxBodyBytes: number;
  json?: string;
  junit?: string;
  har?: string;
  harKeys: boolean;
}

/** What `watch`'s exit status means. */
export const WATCH_EXIT = 'Exit: 0 the traffic showed no violation; 1 it did; 2 bad usage.';
/** What `replay`'s exit status means. */
export const REPLAY_EXIT =
  'Exit: 0 every target answered as recorded, as far as the spec demands, and kept its promises; 1 one did not; 2 bad usage.';

/** `watch`'s command line, under the suite's `command`. */
export function watchProgram(command: string): Command {
  return new Command(`${command} watch`)
    .description(
      "A proxy in front of the service: forwards every request unchanged and judges every exchange with the suite's conformance and model of the spec's promises.",
    )
    .requiredOption('--upstream <url>', "the service's base address, ending in /v1", (value) =>
      validatedBaseUrl(value, '--upstream'),
    )
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <n>', 'port to listen on (0: any free port)', wholeNumber('--port', 0, 65_535), 4800)
    .option(
      '--duration <seconds>',
      'stop after this many seconds (default: at Ctrl-C or SIGTERM)',
      wholeNumber('--duration', 1, 31_536_000),
    )
    .option(
      '--max-body-bytes <n>',
      'bodies up to this size are judged and recorded; larger ones are forwarded and judged by size only',
      wholeNumber('--max-body-bytes', 0, 1024 ** 3),
      DEFAULT_MAX_BODY_BYTES,
    )
    .option('--json <file>', 'write a JSON report on exit')
    .option('--junit <file>', 'write a JUnit XML report on exit (one testcase per rule)')
    .option('--har <file>', 'write the traffic as HAR 1.2 on exit (keys redacted)')
    .option('--har-keys', 'keep API keys in the HAR file (it then holds secrets)', false)
    .addHelpText('after', `\n${WATCH_EXIT}`);
}

/** `replay`'s command line, under the suite's `command`. */
export function replayProgram(command: string): Command {
  return new Command(`${command} replay`)
    .description(
      'Sends the requests of a HAR file, in order, to each target and reports where the answers differ in ways the spec does not allow.',
    )
    .argument('<file.har>', "a HAR 1.2 file: from watch --har, a browser's devtools, or Playwright's recordHar")
    .addOption(
      new Option('--target <target>', 'fake | prism | a base URL ending in /v1; repeat it for several')
        .argParser(collect)
        .makeOptionMandatory(),
    )
    .option('--api-key <key>', 'the key for a URL target (default: env PETSTORE_API_KEY)')
    .option('--allow <list>', 'what a URL target permits: writes (replays the recorded writes)', parseAllow)
    .option('--json <file>', 'write a JSON report')
    .addHelpText('after', `\n${REPLAY_EXIT}`);
}

/** Runs `watch` until `--duration`, SIGINT or SIGTERM, then prints and writes its reports. Resolves with the exit code. */
export async function runWatchCli(argv: readonly string[], io: CliIo, stop: Promise<void>): Promise<number> {
  const parsed = parseWith(watchProgram(commandOf(io)), argv, io);
  if (typeof parsed === 'number') return parsed;
  const options = parsed.opts<WatchCliOptions>();
  const startedAt = new Date();
  let upstreamErrors = 0;
  let proxy;
  try {
    proxy = await startWatchProxy({
      upstream: options.upstream,
      host: options.host,
      port: options.port,
      maxBodyBytes: options.maxBodyBytes,
      har: options.har !== undefined,
      onViolation: (violation) => io.out(violationLine(violation)),
      onUpstreamError: (line) => {
        upstreamErrors += 1;
        io.err(`watch: ${line}; answered 502`);
      },
    });
  } catch (error) {
    io.err(`watch: cannot listen on ${options.host}:${options.port}: ${(error as Error).message}`);
    return 2;
  }
  io.out(
    `Watching ${options.upstream} through ${proxy.baseUrl}: point clients at it; ${options.duration ? `stopping after ${options.duration} s` : 'Ctrl-C stops and reports'}`,
  );
  await Promise.race([
    stop,
    ...(options.duration ? [new Promise((resolve) => setTimeout(resolve, options.duration! * 1000))] : []),
  ]);
  await proxy.close();
  const summary = proxy.summary();
  const report: WatchReport = {
    upstream: options.upstream,
    startedAt: startedAt.toISOString(),
    durationMs: Date.now() - startedAt.getTime(),
    summary,
    upstreamErrors,
    exitCode: Object.keys(summary.byRule).length > 0 ? 1 : 0,
  };
  io.out(watchSummaryText(report));
  if (options.json) await writeReport(options.json, watchJson(report));
  if (options.junit) await writeReport(options.junit, watchJunit(report));
  if (options.har && proxy.har)
    await writeReport(options.har, `${JSON.stringify(proxy.har.toHar({ keepKeys: options.harKeys }), null, 2)}\n`);
  return report.exitCode;
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
  const options = parsed.opts<{ target: string[]; apiKey?: string; allow?: Capability[]; json?: string }>();
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
  const targets: RunningTarget[] = [];
  try {
    for (const target of options.target)
      targets.push(
        await startTargetFor(
          target,
          { allow: options.allow ?? [], ...(options.apiKey !== undefined && { apiKey: options.apiKey }) },
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
  return reports.some((report) => report.exitCode === 1) ? 1 : 0;
}
