import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Transform } from 'node:stream';
import { Pool, type Dispatcher } from 'undici';
import type { AddressInfo } from 'node:net';
import { answerHeaders, badGateway, forwardedHeaders, headerRecord, Tee, teed, upstreamCertificates } from './forwarding.js';
import { parsedJson, type Exchange } from '../transport/exchange.js';
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
  /** Called once per request the upstream did not answer (502 to the client). */
  onUpstreamError?: (line: string) => void;
  /** Keep every exchange for a HAR file. */
  har?: boolean;
}

/** A watching proxy that is listening. */
export interface RunningWatchProxy {
  /** Where clients send their requests: the proxy's origin plus the upstream's path (`http://127.0.0.1:4800/v1`). */
  baseUrl: string;
  /** What the traffic has shown so far: exchanges, coverage, violations, deprecated calls. */
  summary(): TrafficSummary;
  /** The exchanges recorded so far (with `har: true`). */
  har: HarRecorder | undefined;
  /** Stops listening and ends every connection; the exchanges already answered are judged before it resolves. */
  close(): Promise<void>;
}

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/**
 * A reverse proxy in front of the service that forwards every request and answer unchanged (method,
 * path, query, headers but `Host` and hop-by-hop fields, body bytes, streamed) and judges every exchange
 * after its answer has gone to the client, with the suite's own conformance and model
 * ({@link TrafficJudge}). A violation never changes an answer.
 * @example const proxy = await startWatchProxy({ upstream: 'https://staging.example.com/v1', onViolation: print });
 */
export async function startWatchProxy(options: WatchProxyOptions): Promise<RunningWatchProxy> {
  const upstream = new URL(options.upstream);
  // undici's pool, not node:http's client: with keep-alive it costs the proxy about a quarter less CPU per
  // exchange, and on a machine the proxy shares with its clients and the service that is throughput.
  // No timeouts of its own: a slow upstream is the client's to give up on, as it would be without the proxy.
  const pool = new Pool(upstream.origin, {
    headersTimeout: 0,
    bodyTimeout: 0,
    ...(upstream.protocol === 'https:' && { connect: { ca: upstreamCertificates() } }),
  });
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const judge = new TrafficJudge(options.upstream.replace(/\/$/, ''));
  const har = options.har ? new HarRecorder() : undefined;

  // Exchanges are judged after their answers went out, a batch per turn of the event loop.
  let toJudge: Array<() => void> = [];
  const judgeBatch = () => {
    const batch = toJudge;
    toJudge = [];
    for (const judgeOne of batch) judgeOne();
  };

  const forward = (incoming: IncomingMessage, outgoing: ServerResponse) => {
    const started = Date.now();
    const ticket = judge.sending();
    const path = incoming.url ?? '/';
    const method = incoming.method ?? 'GET';
    const { fields: headers, length: declaredLength, chunked } = forwardedHeaders(incoming.rawHeaders, upstream.host);
    const requestBody = new Tee(limit);
    const responseBody = new Tee(limit);
    let status = 0;
    let answerFields: string[] = [];
    // How long the answer says it is: its last chunk goes out with `end`, headers and body in one write.
    let expectedLength = -1;
    let cancel: ((reason?: Error) => void) | undefined;
    let resumeUpstream = () => {};
    let clientGone = false;
    let settled = false;
    const abandon = () => {
      if (settled) return;
      settled = true;
      judge.abandoned(ticket);
    };
    const judgeLater = () => {
      if (toJudge.length === 0) setImmediate(judgeBatch);
      toJudge.push(() => {
        const text = responseBody.complete ? responseBody.bytes().toString('utf8') : '';
        const exchange: Exchange = {
          request: { method, url: `${upstream.origin}${path}`, headers: headerRecord(headers), ...(requestBody.size > 0 && { body: requestBody.complete ? new Uint8Array(requestBody.bytes()) : '' }) },
          status,
          headers: answerHeaders(answerFields),
          text,
          json: responseBody.complete ? parsedJson(text) : undefined,
        };
        for (const violation of judge.answered(ticket, exchange, { bySizeOnly: !responseBody.complete || !requestBody.complete })) options.onViolation?.(violation);
        har?.add(exchange, { started: new Date(started), durationMs: Date.now() - started, requestSize: requestBody.size, responseSize: responseBody.size, httpVersion: `HTTP/${incoming.httpVersion}` });
      });
    };

    const send = (body: Buffer | Transform | null) => pool.dispatch({ method: method as Dispatcher.HttpMethod, path, headers, body }, {
      onConnect(abort) {
        cancel = abort;
      },
      onHeaders(statusCode, rawHeaders, resume, statusText) {
        status = statusCode;
        const answer = forwardedHeaders(rawHeaders, undefined);
        answerFields = answer.fields;
        expectedLength = method === 'HEAD' || answer.length === undefined || !Number.isSafeInteger(answer.length) ? -1 : answer.length;
        outgoing.writeHead(statusCode, statusText, answerFields);
        resumeUpstream = resume;
        return true;
      },
      onData(chunk) {
        responseBody.add(chunk);
        if (responseBody.size === expectedLength) {
          outgoing.end(chunk);
          return true;
        }
        if (outgoing.write(chunk)) return true;
        // The client reads slower than the upstream sends: the upstream waits until it has caught up.
        outgoing.once('drain', resumeUpstream);
        return false;
      },
      onComplete() {
        if (!outgoing.writableEnded) outgoing.end();
        if (settled) return;
        settled = true;
        // Judged once the client has the whole answer: the judging is never on its path.
        judgeLater();
      },
      onError(error: Error & { code?: string }) {
        // Cancelled because the client went away: nobody to answer, and nothing the upstream did wrong.
        if (clientGone) return abandon();
        if (!outgoing.headersSent) {
          const message = `the upstream ${options.upstream} did not answer ${method} ${path} (${error.code ?? error.message})`;
          options.onUpstreamError?.(message);
          badGateway(outgoing, message);
        } else outgoing.destroy();
        abandon();
      },
    });
    if (declaredLength === undefined && !chunked) send(null);
    else if (!chunked && declaredLength !== undefined && declaredLength <= limit) {
      // A body within the limit is read whole before it goes on (as nginx buffers request bodies): one
      // write to the upstream where a stream would cost a write per chunk, and most bodies are one chunk.
      incoming.on('data', (chunk: Buffer) => requestBody.add(chunk));
      incoming.on('end', () => send(requestBody.bytes()));
    } else send(teed(incoming, requestBody));
    // The client went away before its answer: the upstream request goes too.
    outgoing.on('close', () => {
      if (!outgoing.writableFinished) {
        clientGone = true;
        cancel?.();
        abandon();
      }
    });
  };

  const server = createServer(forward);
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host ?? '127.0.0.1';
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    baseUrl: `http://${shownHost}:${port}${upstream.pathname.replace(/\/$/, '')}`,
    summary: () => judge.summary(),
    har,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await pool.destroy();
      // Answers judged on the next turn are in before the report is read.
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
}
