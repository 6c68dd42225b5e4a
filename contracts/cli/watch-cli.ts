import { Command } from 'commander';
import { DEFAULT_MAX_BODY_BYTES, startWatchProxy } from '../watch/watch-proxy.js';
import {
  TRAFFIC_RULES,
  violationLine,
  watchJson,
  watchJunit,
  watchSummaryText,
  type WatchReport,
} from '../watch/watch-report.js';
import { validatedBaseUrl } from '../targets/url-target.js';
import { commandOf, parseWith, reportsWritable, wholeNumber, writeReport, type CliIo } from './cli-common.js';
import { nothingSeen, reachabilityOf } from '../transport/unanswered.js';
import { clearReadyFile, readyLineText, writeReadyFile } from './readiness.js';
import { packageVersion } from './version.js';
import { extraHeader } from './extra-headers.js';
import { baselineJudged } from './baseline-run.js';
import { htmlReport } from '../report/html-report.js';
import { htmlInputOfTraffic } from '../watch/watch-html.js';

// The rules real traffic is judged by: the rows of the HTML report's matrix.

/** The options of `watch`, parsed. */
export interface WatchCliOptions {
  upstream: string;
  allowEmpty: boolean;
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
  strict: boolean;
  readyFile?: string;
  header?: Array<[string, string]>;
  baseline?: string;
  updateBaseline?: boolean;
  html?: string;
}

/** What `watch`'s exit status means. */
export const WATCH_EXIT =
  'Exit: 0 the traffic showed no violation and every request was answered; 1 it showed one, or some requests got no answer from the upstream (502/504 from watch; unless --allow-upstream-errors); 2 bad usage, a report path that cannot be written, the upstream answered none of the requests, or no exchange was seen at all (unless --allow-empty).';
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
    .option(
      '--strict',
      'a SHOULD of the rules under the spec (RFC SHOULDs, OWASP hardening such as Cache-Control: no-store) is a violation that fails the run; without it, it is listed under Warnings',
      false,
    )
    .option(
      '--allow-empty',
      'a run that saw no exchange exits 0 (by default it exits 2: a gate that saw nothing passes nothing)',
      false,
    )
    .addHelpText('after', `\n${WATCH_EXIT}`);
}

/** Runs `watch` until `--duration`, SIGINT or SIGTERM, then prints and writes its reports. Resolves with the exit code. */
export async function runWatchCli(argv: readonly string[], io: CliIo, stop: Promise<void>): Promise<number> {
  const parsed = parseWith(watchProgram(commandOf(io)), argv, io);
  if (typeof parsed === 'number') return parsed;
  const options = parsed.opts<WatchCliOptions>();
  const reports = {
    '--json': options.json,
    '--junit': options.junit,
    '--html': options.html,
    '--har': options.har,
  };
  if (!(await reportsWritable('watch', reports, io))) return 2;
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
      strict: options.strict,
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
  const reachability =
    summary.exchanges === 0 && proxy.unanswered.count === 0
      ? nothingSeen(options.allowEmpty)
      : reachabilityOf(summary.exchanges, proxy.unanswered.count, options.allowUpstreamErrors);
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
