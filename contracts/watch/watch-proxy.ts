import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Transform, pipeline } from 'node:stream';
import { Pool, type Dispatcher } from 'undici';
import { existsSync, readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import type { AddressInfo } from 'node:net';
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

// Where the system keeps its CA bundle (OpenSSL's variable first, then Debian's and Red Hat's paths).
const SYSTEM_CA_FILES = ['/etc/ssl/certs/ca-certificates.crt', '/etc/pki/tls/certs/ca-bundle.crt'];

/**
 * The CAs an HTTPS upstream is verified with: Node's own and the system's (a company CA that signs
 * staging is in the system's bundle, not in Node's).
 */
export function upstreamCertificates(env: NodeJS.ProcessEnv = process.env): string[] {
  const file = [env.SSL_CERT_FILE, ...SYSTEM_CA_FILES].find((candidate) => candidate !== undefined && existsSync(candidate));
  return file ? [...rootCertificates, readFileSync(file, 'utf8')] : [...rootCertificates];
}

// Hop-by-hop fields (RFC 9110 §7.6.1) belong to one connection and are never forwarded.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/** A message's header lines as forwarded, and what they say of its body. */
interface ForwardedHeaders {
  /** `[name, value, name, value, ...]` without hop-by-hop fields, `Host` replaced (or dropped). */
  fields: string[];
  /** Its `Content-Length`, when it has a readable one. */
  length?: number;
  /** It came with `Transfer-Encoding` (a body of unknown length). */
  chunked: boolean;
}

const latin1 = (field: string | Buffer) => (typeof field === 'string' ? field : field.toString('latin1'));

/**
 * The raw header lines (node:http's strings or undici's bytes) as forwarded, read in one pass: the
 * proxy reads every message's headers, so it reads them once.
 */
function forwardedHeaders(raw: ReadonlyArray<string | Buffer>, host: string | undefined): ForwardedHeaders {
  const forwarded: ForwardedHeaders = { fields: [], chunked: false };
  for (let index = 0; index < raw.length; index += 2) {
    const name = latin1(raw[index]!);
    const value = latin1(raw[index + 1]!);
    const lower = name.toLowerCase();
    if (lower === 'content-length') forwarded.length = /^\d+$/.test(value) ? Number(value) : undefined;
    else if (lower === 'transfer-encoding') forwarded.chunked = true;
    if (HOP_BY_HOP.has(lower)) continue;
    if (lower === 'host') {
      if (host !== undefined) forwarded.fields.push(name, host);
      continue;
    }
    forwarded.fields.push(name, value);
  }
  return forwarded;
}

function headerRecord(flat: string[]): Record<string, string> {
  const record: Record<string, string> = {};
  for (let index = 0; index < flat.length; index += 2) record[flat[index]!] = flat[index + 1]!;
  return record;
}

/** Collects a stream's bytes up to a limit while counting all of them. */
class Tee {
  #chunks: Buffer[] = [];
  #kept = 0;
  size = 0;

  constructor(readonly limit: number) {}

  add(chunk: Buffer): void {
    this.size += chunk.length;
    if (this.#kept + chunk.length <= this.limit) {
      this.#chunks.push(chunk);
      this.#kept += chunk.length;
    }
  }

  get complete(): boolean {
    return this.size <= this.limit;
  }

  /** The bytes kept, joined once (the request's are read to send them, then to judge them). */
  bytes(): Buffer {
    if (this.#chunks.length !== 1) this.#chunks = [Buffer.concat(this.#chunks)];
    return this.#chunks[0]!;
  }
}

function badGateway(response: ServerResponse, message: string): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  const body = JSON.stringify({ code: 'bad_gateway', message, status: 502 });
  response.writeHead(502, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
  response.end(body);
}

/** The answer's header record as the judge reads it: names lower-cased, repeated fields joined. */
function answerHeaders(flat: string[]): Record<string, string> {
  const record: Record<string, string> = {};
  for (let index = 0; index < flat.length; index += 2) {
    const name = flat[index]!.toLowerCase();
    record[name] = record[name] === undefined ? flat[index + 1]! : `${record[name]}, ${flat[index + 1]!}`;
  }
  return record;
}

/**
 * The request's body as it streams to the upstream, teed: what is under the limit is kept for the judge.
 * For bodies over the limit or of unknown length. A stream of its own rather than a second `data`
 * listener on the request: the upstream may start reading only once its connection is up, and a flowing
 * request would have lost the first chunks by then.
 */
function teed(incoming: IncomingMessage, tee: Tee): Transform {
  const body = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      tee.add(chunk);
      done(null, chunk);
    },
  });
  pipeline(incoming, body, () => {});
  return body;
}

/**
 * A reverse proxy in front of the service that forwards every request and answer unchanged (method,
 * path, query, headers but `Host` and hop-by-hop fields, body bytes, streamed) and judges every exchange
 * after its answer has gone to the client, with the suite's own conformance and model
 * ({@link TrafficJudge}). A violation never changes an answer.
 * @example const proxy = await startWatchProxy({ upstream: 'https://staging.example.com/v1', onViolation: print });
 */
export async function startWatchProxy(options: WatchProxyOptions): Promise<RunningWatchProxy> {
  const upstream = new URL(options.upstream);
  // undici's pool, not node:http's client: with keep-alive it costs the proxy about a third less CPU per
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
