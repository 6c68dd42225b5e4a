import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiError } from '../domain/errors.js';
import { parseJsonBody } from '../domain/request-body.js';
import { connectRedisStore, type RedisStoreOptions } from '../stores/redis-connection.js';
import { createFake, type Fake, type FakeOptions } from '../fake.js';
import type { ApiCall } from '../handlers/api-call.js';
import { preflightAnswer } from '../handlers/pipeline.js';
import { answerAdmin, isLoopbackHost } from './admin.js';
import { setCorsHeaders } from '../handlers/cors.js';
import { HARDENING_HEADERS } from '../handlers/responses.js';
import { applyServerLimits, DEFAULT_SERVER_LIMITS, serverOptionsOf, type ServerLimits } from './limits.js';
import { closeWithError, ProtocolErrorAnswerer, repeatedHostError } from './protocol-errors.js';
import { isClientAborted, readBoundedBody, type BoundedBody } from './request-body-reader.js';

/** Options of the standalone fake: the fake's own, plus where to listen. */
export interface FakeServerOptions extends Omit<FakeOptions, 'baseUrl'> {
  /** Default 127.0.0.1. Beyond loopback, `/__admin` is off unless `adminToken` is set. */
  host?: string;
  /** Default 4010; 0 picks a free port. */
  port?: number;
  /** Required as `Authorization: Bearer <token>` on `/__admin` when set. */
  adminToken?: string;
  /** Receives one line per request (method, path, status, plan, remaining; never a key). Default: silent. */
  log?: (line: string) => void;
  /** Timeouts and header limits; default {@link DEFAULT_SERVER_LIMITS}. Tests shorten the timeouts. */
  limits?: Partial<ServerLimits>;
  /**
   * Keep the state in Redis, shared by every instance with the same URL and prefix (docs/explanation/design.md
   * section 6). Default: in memory. Unreachable at start: `startFakeServer` rejects naming the URL.
   */
  redis?: RedisStoreOptions;
}

/** A listening standalone fake. */
export interface RunningFakeServer {
  /** `http://host:port`, with the port actually bound. */
  url: string;
  /** `url` + `/v1`: what clients use as the base address. */
  baseUrl: string;
  fake: Fake;
  /** Stops listening, ends every connection and closes the store. */
  close(): Promise<void>;
}

// Requests are built against the fake's own origin, never the client's Host header.
const INTERNAL_ORIGIN = 'http://127.0.0.1:4010';
const API_PREFIX = '/v1';

function isUnderApi(pathname: string): boolean {
  return pathname === API_PREFIX || pathname.startsWith(`${API_PREFIX}/`);
}

function pathOf(rawUrl: string): string {
  // Absolute-form targets ("GET http://x/v1/...") keep only their path; "//x" stays a path.
  if (!rawUrl.startsWith('/')) {
    try {
      const url = new URL(rawUrl);
      return url.pathname + url.search;
    } catch {
      return `/${rawUrl}`;
    }
  }
  return rawUrl;
}

// A path the URL parser would leave as it is (no dot, escape or query): most requests skip the parse.
const PLAIN_PATH = /^[A-Za-z0-9/_~-]+$/;

// Node's parser lets through a few bytes that fetch's Headers refuses; such a value counts as absent,
// so both paths into the operations (fetch Request, IncomingMessage) see the same headers.
const FETCH_REFUSED_VALUE = /[\0\r\n]/;

function headerOf(incoming: IncomingMessage, name: string): string | null {
  // rawHeaders, not headers: Node keeps only the first of some repeated headers (Authorization),
  // fetch joins them all, and the operations must see what an msw host would.
  const wanted = name.toLowerCase();
  let value: string | null = null;
  const raw = incoming.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.length !== wanted.length || raw[i]!.toLowerCase() !== wanted || FETCH_REFUSED_VALUE.test(raw[i + 1]!))
      continue;
    value = value === null ? raw[i + 1]! : `${value}, ${raw[i + 1]!}`;
  }
  return value;
}

// writeHead takes a flat [name, value, ...] list without the per-call object copies. The pipeline's answers
// carry CORS from its last stage when the request had an Origin; the server's own (admin pages, paths
// outside /v1) always do, here, for the demo page and scripts that call /__admin from a browser.
function sendOwn(
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  body?: string | Uint8Array,
  contentType?: string,
): void {
  send(res, status, setCorsHeaders({ ...headers }), body, contentType);
}

function send(
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  body?: string | Uint8Array,
  contentType?: string,
): void {
  const length = body === undefined ? 0 : typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
  const list: string[] = [];
  let typed = false;
  for (const name in headers) {
    // An override may name a header in any case; the length test keeps the common path cheap.
    if (name.length === 12 && name.toLowerCase() === 'content-type') typed = true;
    else if (name.length === 14 && name.toLowerCase() === 'content-length') continue;
    list.push(name, headers[name]!);
  }
  if (contentType !== undefined && !typed) list.push('Content-Type', contentType);
  list.push('Content-Length', String(length));
  res.writeHead(status, list);
  res.end(body);
}

// A body frozen to its leaves cannot change (the category list is shared until the categories do):
// its JSON is written once and kept as long as the body is.
const frozenJson = new WeakMap<object, string>();

function isFrozenThrough(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  return Object.isFrozen(value) && Object.values(value).every(isFrozenThrough);
}

function jsonOf(value: unknown): string {
  if (typeof value !== 'object' || value === null || !Object.isFrozen(value)) return JSON.stringify(value);
  let json = frozenJson.get(value);
  if (json === undefined) {
    json = JSON.stringify(value);
    if (isFrozenThrough(value)) frozenJson.set(value, json);
  }
  return json;
}

function sendOwnJson(res: ServerResponse, status: number, headers: Record<string, string>, value: unknown): void {
  sendOwn(res, status, headers, jsonOf(value), 'application/json');
}

// What a GET or HEAD reads of its body: nothing.
const NO_BODY: BoundedBody = { bytes: new Uint8Array(new ArrayBuffer(0)), overLimit: false };

/**
 * Starts the fake as an HTTP server on a thin `node:http` adapter. Nothing listens until this is called.
 * @example const server = await startFakeServer({ port: 0 }); await server.close();
 */
export async function startFakeServer(options: FakeServerOptions = {}): Promise<RunningFakeServer> {
  const { host = '127.0.0.1', port = 4010, adminToken, log, limits: limitOptions, redis, ...fakeOptions } = options;
  const limits = { ...DEFAULT_SERVER_LIMITS, ...limitOptions };
  const store = redis ? await connectRedisStore(redis) : undefined;
  const fake = createFake({
    ...fakeOptions,
    ...(store && { store }),
    baseUrl: `${INTERNAL_ORIGIN}${API_PREFIX}`,
    onDefect: (call, error) => {
      fakeOptions.onDefect?.(call, error);
      log?.(`${call.method} ${API_PREFIX}${call.path} failed: ${(error as Error).message}`);
    },
  });
  try {
    await fake.ready();
  } catch (error) {
    await fake.store.close();
    throw error;
  }
  const adminAccess = { loopback: isLoopbackHost(host), ...(adminToken !== undefined && { token: adminToken }) };

  async function answer(incoming: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = log ? performance.now() : 0;
    const method = incoming.method ?? 'GET';
    const path = pathOf(incoming.url ?? '/');
    const badHost = repeatedHostError(incoming);
    if (badHost) return sendOwnJson(res, badHost.status, { Connection: 'close' }, badHost);

    const { bytes, overLimit } = method === 'GET' || method === 'HEAD' ? NO_BODY : await readBoundedBody(incoming);
    if (overLimit) res.setHeader('Connection', 'close');

    // The admin API and the /v1 prefix are matched on the path as sent: dot segments never lead in or out.
    const queryAt = path.indexOf('?');
    const sentPath = queryAt === -1 ? path : path.slice(0, queryAt);
    const outsideApi = !isUnderApi(sentPath);
    // The pipeline's first stage, for the server's own paths too: a browser's preflight needs no key anywhere.
    const preflight = outsideApi && preflightAnswer(method, incoming.headers['access-control-request-method']);
    if (preflight) return sendOwn(res, preflight.status, preflight.headers);
    if (sentPath.startsWith('/__admin')) {
      const parsed = parseJsonBody(bytes);
      const admin = await answerAdmin(fake, adminAccess, {
        method,
        path: sentPath,
        authorization: incoming.headers.authorization,
        origin: incoming.headers.origin,
        body: () => (parsed.ok ? parsed.value : undefined),
        ...(!parsed.ok && bytes.byteLength > 0 && { bodyError: parsed.error }),
        bodyOverLimit: overLimit,
      });
      return admin.body === undefined
        ? sendOwn(res, admin.status, admin.headers ?? {})
        : sendOwnJson(res, admin.status, admin.headers ?? {}, admin.body);
    }
    // Normalised as fetch would (dot segments, escapes), so the operations see what an msw host sees.
    const { pathname, search } = PLAIN_PATH.test(path)
      ? { pathname: path, search: '' }
      : new URL(`${INTERNAL_ORIGIN}${path}`);
    if (outsideApi || !isUnderApi(pathname)) {
      return sendOwnJson(
        res,
        404,
        { ...HARDENING_HEADERS },
        apiError('not_found', `No operation at ${method} ${sentPath}; the API is under ${API_PREFIX}.`),
      );
    }
    let body: Promise<Uint8Array> | undefined;
    const call: ApiCall = {
      method,
      path: pathname.slice(API_PREFIX.length),
      query: search.slice(1),
      header: (name) => headerOf(incoming, name),
      // One promise for every reader (the operation, the journal).
      body: () => (body ??= Promise.resolve(bytes)),
      clientAddress: incoming.socket.remoteAddress ?? 'unknown',
    };
    const answered = await fake.answer(call);
    const { status } = answered;
    const remaining = answered.headers['X-RateLimit-Remaining'];
    // A fault's network error: the connection ends without a byte of answer.
    if (answered.dropped) res.destroy();
    else if (answered.rawBody !== undefined) send(res, status, answered.headers, answered.rawBody, 'application/json');
    else if (answered.body === undefined) send(res, status, answered.headers);
    else send(res, status, answered.headers, jsonOf(answered.body), 'application/json');
    log?.(
      `${method} ${pathname} ${status || 'dropped'} plan=${fake.planOf(call.header('authorization')) ?? 'anonymous'} ` +
        `remaining=${remaining ?? '-'} ${Math.round(performance.now() - started)}ms`,
    );
  }

  const protocolErrors = new ProtocolErrorAnswerer();
  const server = createServer(serverOptionsOf(limits), (incoming, res) => {
    protocolErrors.track(incoming, res);
    answer(incoming, res).catch((error: unknown) => {
      if (isClientAborted(error)) {
        // Nobody is left to answer; not a failure of the fake.
        log?.(`${incoming.method} ${incoming.url?.split('?')[0]} aborted: ${error.message}`);
        return;
      }
      log?.(`${incoming.method} ${incoming.url?.split('?')[0]} failed: ${(error as Error).message}`);
      if (!res.headersSent) {
        res.setHeader('Connection', 'close');
        const failure = apiError('internal_error', 'The fake failed to answer; see its log.');
        sendOwnJson(res, failure.status, {}, failure);
      } else {
        res.destroy();
      }
    });
  });
  // Deliberate limits: a slow or silent client cannot hold a connection forever (see limits.ts, docs/explanation/robustness-and-security.md).
  applyServerLimits(server, limits);
  // Node would answer these with a bare status line; clients get an Error body like everywhere else.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => protocolErrors.answer(error, socket));
  server.on('connect', (_request, socket) =>
    closeWithError(socket, apiError('invalid_request', 'CONNECT is not supported: the fake is not a proxy.')),
  );

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  }).catch(async (error: unknown) => {
    await fake.store.close();
    throw error;
  });
  const bound = server.address() as AddressInfo;
  const url = `http://${bound.family === 'IPv6' ? `[${bound.address}]` : bound.address}:${bound.port}`;
  return {
    url,
    baseUrl: `${url}${API_PREFIX}`,
    fake,
    close: async () => {
      await new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
      await fake.store.close();
    },
  };
}

/** The server's timeouts and size limits, and their defaults. */
export { DEFAULT_SERVER_LIMITS, type ServerLimits } from './limits.js';
/** Where a Redis store lives (`--store`). */
export type { RedisStoreOptions } from '../stores/redis-connection.js';
/** Typed per-test overrides and the journal of what was sent. */
export { override } from '../handlers/typed-override.js';
export type { Override, OverrideControls, RequestChanges } from '../handlers/overrides.js';
export type { JournalEntry, RequestJournal } from '../handlers/journal.js';
