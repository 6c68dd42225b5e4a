import type { Server, ServerOptions } from 'node:http';

/**
 * How long the standalone fake waits on a client and how much header it accepts. Every value is a
 * deliberate choice for a local test double whose requests are small (bodies <= 16 KiB); see docs/explanation/robustness-and-security.md
 * section "Robustness and security".
 */
export interface ServerLimits {
  /** Time to receive the whole header block; a silent or byte-dripping client is dropped with 408. */
  headersTimeoutMs: number;
  /** Time to receive the whole request, body included (at most 16 KiB); a dripping body is dropped with 408. */
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection stays open between requests. */
  keepAliveTimeoutMs: number;
  /** A connection with no traffic at all for this long is closed (e.g. a client that stops reading a response). */
  socketIdleTimeoutMs: number;
  /** How often Node checks the two request timeouts; they fire at most this late. */
  timeoutCheckIntervalMs: number;
  /** Largest header block (request line included) before 431. */
  maxHeaderBytes: number;
  /** Header fields read per request; further ones are ignored. */
  maxHeadersCount: number;
}

/** The limits `npm start` runs with. */
export const DEFAULT_SERVER_LIMITS: Readonly<ServerLimits> = {
  // Every client sends its headers in one write; 10 s leaves room for a loaded CI machine.
  headersTimeoutMs: 10_000,
  // 16 KiB even at modem speed takes under 5 s; 30 s bounds a slow-drip body (Node's default is 300 s).
  requestTimeoutMs: 30_000,
  // Node's default. Clients that pool connections (undici: 4 s) close theirs first, avoiding reuse races.
  keepAliveTimeoutMs: 5_000,
  // Only a stalled connection reaches this: every phase above is shorter.
  socketIdleTimeoutMs: 60_000,
  // Node checks every 30 s by default, which would let a silent client hold its socket for 40 s.
  timeoutCheckIntervalMs: 1_000,
  // Node's default, set explicitly so --max-http-header-size cannot change it; leaves room for
  // the cookies a browser sends to localhost from other local apps.
  maxHeaderBytes: 16 * 1024,
  // Node reads 2,000 by default; 100 is far more than any client of this API sends.
  maxHeadersCount: 100,
};

/** The `createServer` options that carry limits (the rest are set on the server by {@link applyServerLimits}). */
export function serverOptionsOf(limits: ServerLimits): ServerOptions {
  return { maxHeaderSize: limits.maxHeaderBytes, connectionsCheckingInterval: limits.timeoutCheckIntervalMs };
}

/** Sets the timeouts and the header count on a server built with {@link serverOptionsOf}. */
export function applyServerLimits(server: Server, limits: ServerLimits): void {
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  server.timeout = limits.socketIdleTimeoutMs;
  server.maxHeadersCount = limits.maxHeadersCount;
}
