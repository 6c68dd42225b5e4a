import { suiteSettings, TargetSession } from '../runner/target-session.js';
import { specDocument } from '../../spec/spec-artifacts.js';
import { operationOfRequest } from '../core/spec-operations.js';
import { answerDifferences } from '../protocol/answered-alike.js';
import type { RunningTarget } from '../targets/target.js';
import { parsedJson, type ContractRequest, type Exchange } from '../core/exchange.js';
import type { CreatedRecord } from '../model/record-ledger.js';
import type { RecordedExchange } from './har.js';
import { TrafficJudge } from './traffic-judge.js';
import type { WatchReport } from './watch-report.js';
import { reachabilityOf, UnansweredLog, whyUnanswered } from '../transport/unanswered.js';

/** Where a replayed answer differs from the recorded one in a way the spec does not allow. */
export interface ReplayDifference {
  /** The entry's position in the HAR file. */
  entry: number;
  request: string;
  what: string;
  recorded: string;
  replayed: string;
}

/** A replay against one target. */
export interface ReplayReport {
  target: string;
  /** Entries sent, and entries left out with why. */
  sent: number;
  skipped: Array<{ entry: number; request: string; why: string }>;
  differences: ReplayDifference[];
  /** Answers that differ only by a 429 (rate limits depend on the pace and the key): noted, not differences. */
  rateLimitedDifferently: number;
  /** The replayed traffic, judged as the proxy judges traffic: conformance and the model's promises. */
  traffic: WatchReport;
  /** On a URL target: the mark the replayed writes carry, and every record they created there. */
  created?: { marker: string; records: CreatedRecord[] };
  exitCode: 0 | 1 | 2;
}

// Fields that belong to one connection or that the sender sets itself; a recorded key is never replayed.
const NOT_REPLAYED = new Set([
  'host',
  'content-length',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'authorization',
  'cookie',
  'accept-encoding',
  'content-type',
]);

// The spec's servers all end in the same base path (`/v1`): what a recorded API request's URL holds.
const BASE_PATH = new URL(
  (specDocument() as unknown as { servers: Array<{ url: string }> }).servers[0]!.url,
).pathname.replace(/\/$/, '');
const BASE_PATH_SEGMENT = new RegExp(`${BASE_PATH}(?=/|$)`);

/** The path (with query) of a recorded URL under the API's base path (`/v1`), or undefined for anything else (the page, its scripts). */
export function apiPathOf(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  const at = parsed.pathname.search(BASE_PATH_SEGMENT);
  if (at < 0) return undefined;
  return `${parsed.pathname.slice(at + BASE_PATH.length)}${parsed.search}`;
}

/**
 * The recorded request as the suite sends it: its key replaced by the target's (an unknown key by a key
 * the target cannot know; no key stays none), its body and other fields as recorded.
 */
function replayedRequest(recorded: RecordedExchange, path: string): ContractRequest {
  const header = (name: string) => recorded.headers.find(([field]) => field.toLowerCase() === name)?.[1];
  const authorization = header('authorization');
  const refusedKey = recorded.response.status === 401 && authorization !== undefined && authorization.trim() !== '';
  const contentType = header('content-type');
  return {
    method: recorded.method,
    path,
    auth:
      authorization === undefined || authorization.trim() === ''
        ? 'none'
        : refusedKey
          ? { bearer: 'replayed-unknown-key' }
          : 'key',
    headers: Object.fromEntries(recorded.headers.filter(([name]) => !NOT_REPLAYED.has(name.toLowerCase()))),
    ...(recorded.body !== undefined && { rawBody: recorded.body, contentType: contentType ?? null }),
  };
}

/**
 * How the replayed answer differs from the recorded one where the spec leaves no room ({@link
 * answerDifferences}, without the content: ids, dates and lists differ between two services, and the model
 * judges those on each side).
 */
function differencesOf(
  recorded: RecordedExchange,
  replayed: Exchange,
  request: string,
  operationId: string | undefined,
): ReplayDifference[] {
  const was = {
    status: recorded.response.status,
    headers: recorded.response.headers,
    text: recorded.response.text,
    json: parsedJson(recorded.response.text),
    request: replayed.request,
  } as Exchange;
  return answerDifferences(replayed, was, { ...(operationId && { operationId }), content: false }).map(
    ({ what, expected, received }) => ({
      entry: recorded.index,
      request,
      what,
      recorded: expected,
      replayed: received,
    }),
  );
}

/** Options of {@link replayAgainst}. */
export interface ReplayOptions {
  /** A URL target only gets the recorded writes when allowed (`--allow writes`); the fake and Prism always. */
  writes: boolean;
  /** Called with each note of the session (a wait for the target's quota). */
  onNote?: (message: string) => void;
  /** Requests the target did not answer are reported, not failed (`--allow-upstream-errors`). */
  allowUpstreamErrors?: boolean;
  /** Others use the target's key too: quota promises are judged only where unseen traffic cannot explain an answer. */
  sharedKey?: boolean;
  /** Headers added to every replayed request (`--header`), never judged nor shown. */
  extraHeaders?: ReadonlyArray<readonly [string, string]>;
  /** `--strict`: a SHOULD of the rule table is a violation, not a warning. */
  strict?: boolean;
}

/**
 * Sends the recorded requests, in order, to one target through the suite's own session (paced, its
 * fake reset first, its records marked on a URL) and reports where the answers differ from the
 * recording in ways the spec does not allow, with the replayed traffic judged by the suite's model.
 * @example const report = await replayAgainst(readHar(text, 'session.har'), fake, { writes: true });
 */
export async function replayAgainst(
  recorded: readonly RecordedExchange[],
  target: RunningTarget,
  options: ReplayOptions,
): Promise<ReplayReport> {
  const { descriptor } = target;
  const session = new TargetSession(
    descriptor,
    suiteSettings({
      live: descriptor.paced,
      sharedKey: options.sharedKey ?? false,
      strict: options.strict ?? false,
      ...(options.extraHeaders && { extraHeaders: { headers: options.extraHeaders, shown: false } }),
    }),
  );
  // The judge counts and lists the rule table's SHOULDs (Warnings) of every exchange, so the session's
  // note of the first of each (a suite check's way of showing them) would only say it twice.
  const tally = session.begin((message) => {
    if (!message.startsWith('warning ')) options.onNote?.(message);
  });
  const judge = new TrafficJudge(descriptor.baseUrl, { strict: options.strict ?? false });
  const startedAt = new Date();
  await session.resetTarget();
  const skipped: ReplayReport['skipped'] = [];
  const differences: ReplayDifference[] = [];
  let rateLimitedDifferently = 0;
  let sent = 0;
  const unanswered = new UnansweredLog();
  for (const entry of recorded) {
    const request = `${entry.method} ${entry.url}`;
    const path = apiPathOf(entry.url);
    if (path === undefined) {
      skipped.push({ entry: entry.index, request, why: `not under ${BASE_PATH}` });
      continue;
    }
    if (entry.method === 'OPTIONS') {
      skipped.push({ entry: entry.index, request, why: 'a CORS preflight (the browser sends its own)' });
      continue;
    }
    if (entry.bodyNotRecorded) {
      skipped.push({
        entry: entry.index,
        request,
        why: "its request body is not in the file (over the recorder's size limit): sending it without would be another request",
      });
      continue;
    }
    if (!['GET', 'HEAD'].includes(entry.method) && descriptor.kind === 'url' && !options.writes) {
      skipped.push({
        entry: entry.index,
        request,
        why: 'a write, and the target does not allow writes (--allow writes)',
      });
      continue;
    }
    let exchange: Exchange;
    try {
      exchange = await session.send(replayedRequest(entry, path));
    } catch (error) {
      const why = whyUnanswered(error);
      unanswered.add({ request: `${entry.method} ${path}`, why });
      options.onNote?.(`entry ${entry.index} ${entry.method} ${path}: no answer from the target (${why})`);
      tally.broken.splice(0);
      continue;
    }
    sent += 1;
    judge.record(exchange, [...tally.broken.splice(0), ...tally.warnings.splice(0)]);
    const operationId = operationOfRequest(
      exchange.request.method,
      exchange.request.url,
      descriptor.baseUrl,
    )?.operationId;
    if ((entry.response.status === 429) !== (exchange.status === 429)) {
      rateLimitedDifferently += 1;
      continue;
    }
    differences.push(...differencesOf(entry, exchange, `${entry.method} ${path}`, operationId));
  }
  const summary = judge.summary();
  const reachability = reachabilityOf(sent, unanswered.count, options.allowUpstreamErrors ?? false);
  const traffic: WatchReport = {
    upstream: descriptor.baseUrl,
    startedAt: startedAt.toISOString(),
    durationMs: Date.now() - startedAt.getTime(),
    summary,
    upstreamErrors: unanswered.count,
    unanswered: unanswered.list(),
    reachability,
    exitCode: Math.max(reachability.exitCode, summary.violations.length > 0 ? 1 : 0) as 0 | 1 | 2,
  };
  const created =
    session.marker === undefined ? undefined : { marker: session.marker, records: session.model.created() };
  return {
    target: descriptor.label,
    sent,
    skipped,
    differences,
    rateLimitedDifferently,
    traffic,
    ...(created && { created }),
    exitCode: Math.max(traffic.exitCode, differences.length > 0 ? 1 : 0) as 0 | 1 | 2,
  };
}
