import { connect as connectTcp, createServer, isIP, type AddressInfo } from 'node:net';
import { connect as connectTls } from 'node:tls';
import { answerHeaders, headerRecord, upstreamCertificates } from './forwarding.js';
import {
  ProxiedConnection,
  type ConnectionEvents,
  type ForwardedExchange,
  type UpstreamAddress,
  type UpstreamFailure,
} from './proxy-connection.js';
import { UnansweredLog } from '../transport/unanswered.js';
import { parsedJson, type Exchange } from '../core/exchange.js';
import { HarRecorder } from './har.js';
import { TrafficJudge, type TrafficSummary, type TrafficViolation } from './traffic-judge.js';

/** Options of {@link startWatchProxy}. */
export interface WatchProxyOptions {
  /** The service's base address, ending in `/v1` (`https://staging.example.com/v1`). */
  upstream: string;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0: any free port. */
  port?: number;
  /** Bodies up to this many bytes are judged (and recorded); larger ones are forwarded and judged by size only. Default 1 MiB. */
  maxBodyBytes?: number;
  /** Called with each violation as soon as the exchange that shows it is judged. */
  onViolation?: (violation: TrafficViolation) => void;
  /** Called once per request the upstream did not answer (502, or 504 after `answerTimeoutMs`, to the client). */
  onUpstreamError?: (failure: UpstreamFailure) => void;
  /** How long the upstream may take to begin an answer before the client gets a 504. Default 30 s. */
  answerTimeoutMs?: number;
  /** Keep every exchange for a HAR file. */
  har?: boolean;
  /**
   * The proxy sees every request of the keys it watches (`watch --exclusive-key`): quota promises are
   * then judged exactly. Default false: others may use the keys beside the proxy.
   */
  exclusiveKey?: boolean;
  /** Headers added to every forwarded request (`--header`): on the wire only, never judged nor recorded. */
  extraHeaders?: ReadonlyArray<readonly [string, string]>;
  /** `--strict`: a SHOULD of the rule table is a violation, not a warning. */
  strict?: boolean;
}

/** A watching proxy that is listening. */
export interface RunningWatchProxy {
  /** Where clients send their requests: the proxy's origin plus the upstream's path (`http://127.0.0.1:4800/v1`). */
  baseUrl: string;
  /** The port it listens on (the one bound, when asked for 0). */
  port: number;
  /** What the traffic has shown so far: exchanges, coverage, violations, deprecated calls. */
  summary(): TrafficSummary;
  /** Requests the upstream did not answer (the proxy answered 502/504 in its place). */
  unanswered: UnansweredLog;
  /** The exchanges recorded so far (with `har: true`). */
  har: HarRecorder | undefined;
  /** Stops listening and ends every connection; the exchanges already answered are judged before it resolves. */
  close(): Promise<void>;
}

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/**
 * A reverse proxy in front of the service that forwards every request and answer unchanged (method,
 * path, query, headers but `Host` and hop-by-hop fields, body bytes, as they come) and judges every
 * exchange after its answer has gone to the client, with the suite's own conformance and model
 * ({@link TrafficJudge}). A violation never changes an answer.
 * @example const proxy = await startWatchProxy({ upstream: 'https://staging.example.com/v1', onViolation: print });
 */
export async function startWatchProxy(options: WatchProxyOptions): Promise<RunningWatchProxy> {
  const upstream = new URL(options.upstream);
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const judge = new TrafficJudge(options.upstream.replace(/\/$/, ''), {
    sharedKey: !options.exclusiveKey,
    strict: options.strict ?? false,
  });
  const har = options.har ? new HarRecorder() : undefined;
  const unanswered = new UnansweredLog();

  // Exchanges are judged after their answers went out, a batch per turn of the event loop.
  let toJudge: ForwardedExchange[] = [];
  const judgeOne = (forwarded: ForwardedExchange) => {
    const { requestBody, responseBody } = forwarded;
    const text = responseBody.complete ? responseBody.bytes().toString('utf8') : '';
    const exchange: Exchange = {
      request: {
        method: forwarded.method,
        url: `${upstream.origin}${forwarded.target}`,
        headers: headerRecord(forwarded.fields),
        ...(requestBody.size > 0 && { body: requestBody.complete ? new Uint8Array(requestBody.bytes()) : '' }),
      },
      status: forwarded.status,
      headers: answerHeaders(forwarded.answerFields),
      text,
      json: responseBody.complete ? parsedJson(text) : undefined,
    };
    for (const violation of judge.answered(forwarded.ticket, exchange, {
      bySizeOnly: !responseBody.complete || !requestBody.complete,
    }))
      options.onViolation?.(violation);
    har?.add(exchange, {
      started: new Date(forwarded.started),
      durationMs: Date.now() - forwarded.started,
      requestSize: requestBody.size,
      responseSize: responseBody.size,
      httpVersion: `HTTP/${forwarded.version}`,
    });
  };
  const judgeBatch = () => {
    const batch = toJudge;
    toJudge = [];
    for (const forwarded of batch) judgeOne(forwarded);
  };
  const events: ConnectionEvents = {
    sending: () => judge.sending(),
    answered(exchange) {
      if (toJudge.length === 0) setImmediate(judgeBatch);
      toJudge.push(exchange);
    },
    abandoned: (exchange) => judge.abandoned(exchange.ticket),
    upstreamError(failure) {
      unanswered.add({ request: failure.request, why: failure.why, answeredByProxy: failure.status });
      options.onUpstreamError?.(failure);
    },
  };

  const address = {
    ...upstreamAddress(upstream, options.upstream),
    extraFields: (options.extraHeaders ?? []).flatMap(([name, value]) => [name, value]),
  };
  const connections = new Set<ProxiedConnection>();
  const server = createServer((client) => {
    const connection = new ProxiedConnection(client, address, events, limit, options.answerTimeoutMs);
    connections.add(connection);
    client.once('close', () => connections.delete(connection));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host ?? '127.0.0.1';
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    baseUrl: `http://${shownHost}:${port}${upstream.pathname.replace(/\/$/, '')}`,
    port,
    summary: () => judge.summary(),
    unanswered,
    har,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const connection of connections) connection.destroy();
      await closed;
      // Answers judged on the next turn are in before the report is read.
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
}

/** How every connection reaches the upstream; the CAs are read once, not per connection. */
function upstreamAddress(upstream: URL, base: string): UpstreamAddress {
  const host = upstream.hostname.replace(/^\[|\]$/g, '');
  if (upstream.protocol !== 'https:') {
    const port = Number(upstream.port) || 80;
    return { base, host: upstream.host, connect: () => connectTcp({ host, port }) };
  }
  const tls = {
    host,
    port: Number(upstream.port) || 443,
    ...(isIP(host) === 0 && { servername: host }),
    ca: upstreamCertificates(),
    ALPNProtocols: ['http/1.1'],
  };
  return { base, host: upstream.host, connect: () => connectTls(tls) };
}
