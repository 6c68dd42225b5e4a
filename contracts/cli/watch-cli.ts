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
import { reachabilityOf } from '../transport/unanswered.js';
import { clearReadyFile, readyLineText, writeReadyFile } from './readiness.js';
import { packageVersion } from './version.js';
import { extraHeader } from './extra-headers.js';
import { baselineJudged } from './baseline-run.js';
import { htmlReport } from '../report/html-report.js';
import { htmlInputOfTraffic } from '../watch/watch-html.js';
import { RESPONSE_RULES } from '../watch/watch-report.js';
import { PROMISE_NAMES } from '../model/promise-rules.js';

// The rules real traffic is judged by: the rows of the HTML report's matrix.
const TRAFFIC_RULES = [...RESPONSE_RULES, ...PROMISE_NAMES];

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
  allowUpstreamErrors: boolean;
  upstreamTimeout: number;
  exclusiveKey: boolean;
  readyFile?: string;
  header?: Array<[string, string]>;
  baseline?: string;
  updateBaseline?: boolean;
  html?: string;
}

/** What `watch`'s exit status means. */
export const WATCH_EXIT =
  'Exit: 0 the traffic showed no violation and every request was answered; 1 it showed one, or some requests got no answer from the upstream (502/504 from watch; unless --allow-upstream-errors); 2 bad usage, or the upstream answered none of the requests.';
/** What `replay`'s exit status means. */
export const REPLAY_EXIT =
  'Exit: 0 every target answered as recorded, as far as the spec demands, and kept its promises; 1 one did not, or left some requests unanswered (unless --allow-upstream-errors); 2 bad usage, or a target answered none of them.';

/** `watch`'s command line, under the suite's `command`. */
export function watchProgram(command: string): Command {
  return new Command(`${command} watch`)
    .description(
      "A proxy in front of the service: forwards every request unchanged and judges every exchange with the suite's conformance and model of the spec's promises.",
    )
    .version(packageVersion(), '-V, --version', 'the version of the harness')
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
    .option(
      '--ready-file <file>',
      'once listening, write the readiness line there too (whole, never half; removed at start and on exit): wait for it before sending traffic',
    )
    .option(
      '--baseline <file>',
      'JSON { accepted: [{ check (a rule), operation?, why, until }] } of known violations: only others fail the run; excused, no longer seen and expired entries are listed',
    )
    .option('--update-baseline', "write every violation of this run to --baseline's file, accepted for 30 days")
    .option('--json <file>', 'write a JSON report on exit')
    .option(
      '--html <file>',
      'write one self-contained HTML report on exit: rules x upstream, coverage heat map, violations with curl, deprecated calls',
    )
    .option('--junit <file>', 'write a JUnit XML report on exit (one testcase per rule)')
    .option('--har <file>', 'write the traffic as HAR 1.2 on exit (keys redacted)')
    .option('--har-keys', 'keep API keys in the HAR file (it then holds secrets)', false)
    .option(
      '--upstream-timeout <seconds>',
      'how long the upstream may take to begin an answer; past it the client gets 504 gateway_timeout',
      wholeNumber('--upstream-timeout', 1, 3600),
      30,
    )
    .option(
      '--allow-upstream-errors',
      'requests the upstream did not answer (502/504 from watch) are reported but do not fail the run; a run in which none was answered still exits 2',
      false,
    )
    .option(
      '--header <Name: value>',
      "add a header to every forwarded request (a gateway's, tracing's); repeatable; never judged, recorded or shown in a curl",
      extraHeader,
    )
    .option(
      '--exclusive-key',
      'every request of the watched keys goes through this proxy: judge the quota exactly (each admitted request costs one, no 429 while requests were announced left). Default: others may use the keys too, so only what their traffic cannot explain is judged',
      false,
    )
    .addHelpText('after', `\n${WATCH_EXIT}`);
}

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
    .addHelpText('after', `\n${REPLAY_EXIT}`);
}

/** Runs `watch` until `--duration`, SIGINT or SIGTERM, then prints and writes its reports. Resolves with the exit code. */
export async function runWatchCli(argv: readonly string[], io: CliIo, stop: Promise<void>): Promise<number> {
  const parsed = parseWith(watchProgram(commandOf(io)), argv, io);
  if (typeof parsed === 'number') return parsed;
  const options = parsed.opts<WatchCliOptions>();
  const startedAt = new Date();
  if (options.readyFile) await clearReadyFile(options.readyFile);
  let proxy;
  try {
    proxy = await startWatchProxy({
      upstream: options.upstream,
      host: options.host,
      port: options.port,
      maxBodyBytes: options.maxBodyBytes,
      har: options.har !== undefined,
      answerTimeoutMs: options.upstreamTimeout * 1000,
      exclusiveKey: options.exclusiveKey,
      ...(options.header && { extraHeaders: options.header }),
      onViolation: (violation) => io.out(violationLine(violation)),
      onUpstreamError: ({ message, status }) => io.err(`watch: ${message}; answered ${status}`),
    });
  } catch (error) {
    io.err(`watch: cannot listen on ${options.host}:${options.port}: ${(error as Error).message}`);
    return 2;
  }
  io.out(
    `Watching ${options.upstream} through ${proxy.baseUrl}: point clients at it; ${options.duration ? `stopping after ${options.duration} s` : 'Ctrl-C stops and reports'}`,
  );
  const ready = readyLineText({
    event: 'ready',
    baseUrl: proxy.baseUrl,
    host: options.host,
    port: proxy.port,
    upstream: options.upstream,
    pid: process.pid,
  });
  io.out(ready);
  if (options.readyFile) await writeReadyFile(options.readyFile, ready);
  await Promise.race([
    stop,
    ...(options.duration ? [new Promise((resolve) => setTimeout(resolve, options.duration! * 1000))] : []),
  ]);
  await proxy.close();
  if (options.readyFile) await clearReadyFile(options.readyFile);
  const summary = proxy.summary();
  const reachability = reachabilityOf(summary.exchanges, proxy.unanswered.count, options.allowUpstreamErrors);
  const judged = await baselineJudged(summary.violations, summary.violationsNotKept, options, io);
  if (judged === undefined) return 2;
  const report: WatchReport = {
    upstream: options.upstream,
    startedAt: startedAt.toISOString(),
    durationMs: Date.now() - startedAt.getTime(),
    summary,
    upstreamErrors: proxy.unanswered.count,
    unanswered: proxy.unanswered.list(),
    reachability,
    exitCode: Math.max(reachability.exitCode, judged.failing > 0 ? 1 : 0) as 0 | 1 | 2,
  };
  io.out(watchSummaryText(report));
  for (const line of judged.lines) io.out(line);
  if (options.json) await writeReport(options.json, watchJson(report));
  if (options.junit) await writeReport(options.junit, watchJunit(report));
  if (options.html)
    await writeReport(options.html, htmlReport(htmlInputOfTraffic('watch', [report], TRAFFIC_RULES, report.exitCode)));
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
  const options = parsed.opts<{
    target: string[];
    apiKey?: string;
    allow?: Capability[];
    json?: string;
    allowUpstreamErrors: boolean;
    exclusiveKey: boolean;
    header?: Array<[string, string]>;
    baseline?: string;
    updateBaseline?: boolean;
    html?: string;
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
        allowUpstreamErrors: options.allowUpstreamErrors,
        // The fake and Prism were started for this replay: nobody else has their key.
        sharedKey: target.descriptor.kind === 'url' && !options.exclusiveKey,
        ...(options.header && { extraHeaders: options.header }),
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
