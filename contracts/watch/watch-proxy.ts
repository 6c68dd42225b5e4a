import { createServer, request as httpRequest, Agent as HttpAgent, type IncomingMessage, type ServerResponse } from 'node:http';
import { request as httpsRequest, Agent as HttpsAgent } from 'node:https';
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

/** Raw header lines (`[name, value, name, value, ...]`) without hop-by-hop fields, `Host` replaced (or dropped when `host` is undefined). */
function forwardedHeaders(raw: string[], host: string | undefined): string[] {
  const kept: string[] = [];
  for (let index = 0; index < raw.length; index += 2) {
    const name = raw[index]!;
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower)) continue;
    if (lower === 'host') {
      if (host !== undefined) kept.push(name, host);
      continue;
    }
    kept.push(name, raw[index + 1]!);
  }
  return kept;
}

function headerRecord(flat: string[]): Record<string, string> {
  const record: Record<string, string> = {};
  for (let index = 0; index < flat.length; index += 2) record[flat[index]!] = flat[index + 1]!;
  return record;
}

/** Collects a stream's bytes up to a limit while counting all of them. */
class Tee {
  readonly #chunks: Buffer[] = [];
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

  bytes(): Buffer {
    return Buffer.concat(this.#chunks);
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

/**
 * A reverse proxy in front of the service that forwards every request and answer unchanged (method,
 * path, query, headers but `Host` and hop-by-hop fields, body bytes, streamed) and judges every exchange
 * after its answer has gone to the client, with the suite's own conformance and model
 * ({@link TrafficJudge}). A violation never changes an answer.
 * @example const proxy = await startWatchProxy({ upstream: 'https://staging.example.com/v1', onViolation: print });
 */
export async function startWatchProxy(options: WatchProxyOptions): Promise<RunningWatchProxy> {
  const upstream = new URL(options.upstream);
  const secure = upstream.protocol === 'https:';
  const send = secure ? httpsRequest : httpRequest;
  // Keep-alive to the upstream: a new TLS handshake per request would cost more than everything else.
  const agent = secure ? new HttpsAgent({ keepAlive: true, ca: upstreamCertificates() }) : new HttpAgent({ keepAlive: true });
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const judge = new TrafficJudge(options.upstream.replace(/\/$/, ''));
  const har = options.har ? new HarRecorder() : undefined;

  // Parsed once: a URL per request costs more than the rest of the forwarding.
  const upstreamOptions = { protocol: upstream.protocol, hostname: upstream.hostname.replace(/^\[|\]$/g, ''), port: upstream.port || (secure ? 443 : 80), agent };
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
    const headers = forwardedHeaders(incoming.rawHeaders, upstream.host);
    const requestBody = new Tee(limit);
    let settled = false;
    const abandon = () => {
      if (settled) return;
      settled = true;
      judge.abandoned(ticket);
    };
    const upstreamRequest = send({ ...upstreamOptions, method: incoming.method, path, headers: headers as unknown as Record<string, string> }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.statusMessage, forwardedHeaders(answer.rawHeaders, undefined));
      const responseBody = new Tee(limit);
      answer.on('data', (chunk: Buffer) => responseBody.add(chunk));
      answer.pipe(outgoing);
      answer.on('error', () => {
        outgoing.destroy();
        abandon();
      });
      answer.on('end', () => {
        if (settled) return;
        settled = true;
        // Judged once the client has the whole answer: the judging is never on its path.
        if (toJudge.length === 0) setImmediate(judgeBatch);
        toJudge.push(() => {
          const text = responseBody.complete ? responseBody.bytes().toString('utf8') : '';
          const exchange: Exchange = {
            request: { method: incoming.method ?? 'GET', url: `${upstream.origin}${path}`, headers: headerRecord(headers), ...(requestBody.size > 0 && { body: requestBody.complete ? new Uint8Array(requestBody.bytes()) : '' }) },
            status: answer.statusCode ?? 0,
            headers: Object.fromEntries(Object.entries(answer.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : value ?? ''])),
            text,
            json: responseBody.complete ? parsedJson(text) : undefined,
          };
          for (const violation of judge.answered(ticket, exchange, { bySizeOnly: !responseBody.complete || !requestBody.complete })) options.onViolation?.(violation);
          har?.add(exchange, { started: new Date(started), durationMs: Date.now() - started, requestSize: requestBody.size, responseSize: responseBody.size, httpVersion: `HTTP/${incoming.httpVersion}` });
        });
      });
    });
    upstreamRequest.on('error', (error: NodeJS.ErrnoException) => {
      const message = `the upstream ${options.upstream} did not answer ${incoming.method} ${incoming.url} (${error.code ?? error.message})`;
      options.onUpstreamError?.(message);
      badGateway(outgoing, message);
      abandon();
    });
    incoming.on('data', (chunk: Buffer) => requestBody.add(chunk));
    incoming.pipe(upstreamRequest);
    // The client went away before its answer: the upstream request goes too.
    outgoing.on('close', () => {
      if (!outgoing.writableFinished) {
        upstreamRequest.destroy();
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
      agent.destroy();
      // Answers judged on the next turn are in before the report is read.
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
}
