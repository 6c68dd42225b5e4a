import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadSpecDocument } from '../../spec/document.js';
import { apiError } from '../domain/errors.js';
import { parseJsonBody } from '../domain/request-body.js';
import { createFake, type Fake, type FakeOptions } from '../fake.js';
import { unmatchedRequestError } from '../handlers/fallback.js';
import { answerAdmin, isLoopbackHost } from './admin.js';
import { CORS_HEADERS, PREFLIGHT_HEADERS } from './cors.js';
import { applyServerLimits, DEFAULT_SERVER_LIMITS, serverOptionsOf, type ServerLimits } from './limits.js';
import { closeWithError, ProtocolErrorAnswerer } from './protocol-errors.js';
import { isClientAborted, readBoundedBody } from './request-body-reader.js';

/** Options of the standalone fake: the fake's own, plus where to listen. */
export interface FakeServerOptions extends Omit<FakeOptions, 'document' | 'baseUrl'> {
  /** Default 127.0.0.1. Beyond loopback, `/__admin` is off unless `adminToken` is set. */
  host?: string;
  /** Default 4010; 0 picks a free port. */
  port?: number;
  /** Required as `Authorization: Bearer <token>` on `/__admin` when set. */
  adminToken?: string;
  /** Receives one line per request (method, path, status, plan, remaining; never a key). Default: silent. */
  log?: (line: string) => void;
  /** For tests that need a deliberately non-conforming fake: wraps every request under `/v1`. */
  intercept?: (request: Request, next: (request: Request) => Promise<Response>) => Promise<Response>;
  /** The OpenAPI document; default `spec/openapi.yaml`. */
  document?: FakeOptions['document'];
  /** Timeouts and header limits; default {@link DEFAULT_SERVER_LIMITS}. Tests shorten the timeouts. */
  limits?: Partial<ServerLimits>;
}

/** A listening standalone fake. */
export interface RunningFakeServer {
  /** `http://host:port`, with the port actually bound. */
  url: string;
  /** `url` + `/v1`: what clients use as the base address. */
  baseUrl: string;
  fake: Fake;
  close(): Promise<void>;
}

// Requests are built against the fake's own origin, never the client's Host header.
const INTERNAL_ORIGIN = 'http://127.0.0.1:4010';
const API_PREFIX = '/v1';
// Methods Node parses but fetch's Request refuses to carry, so they never reach the msw handlers.
const METHODS_FETCH_REFUSES = new Set(['TRACE', 'TRACK']);

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

function toHeaders(incoming: IncomingMessage): Headers {
  const headers = new Headers();
  for (let i = 0; i < incoming.rawHeaders.length; i += 2) {
    try {
      headers.append(incoming.rawHeaders[i]!, incoming.rawHeaders[i + 1]!);
    } catch {
      // Node's parser lets through a few bytes that fetch's Headers refuses; such a header is dropped.
    }
  }
  return headers;
}

async function send(res: ServerResponse, status: number, headers: Record<string, string> | Headers, body?: Uint8Array | string): Promise<void> {
  const entries = headers instanceof Headers ? Object.fromEntries(headers) : headers;
  res.writeHead(status, { ...CORS_HEADERS, ...entries });
  res.end(body);
}

function jsonBody(value: unknown): { headers: Record<string, string>; body: string } {
  return { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(value) };
}

/**
 * Starts the fake as an HTTP server on a thin `node:http` adapter. Nothing listens until this is called.
 * @example const server = await startFakeServer({ port: 0 }); await server.close();
 */
export async function startFakeServer(options: FakeServerOptions = {}): Promise<RunningFakeServer> {
  const { host = '127.0.0.1', port = 4010, adminToken, log, intercept, document = loadSpecDocument(), limits: limitOptions, ...fakeOptions } = options;
  const limits = { ...DEFAULT_SERVER_LIMITS, ...limitOptions };
  const fake = createFake({ ...fakeOptions, document, baseUrl: `${INTERNAL_ORIGIN}${API_PREFIX}` });
  const adminAccess = { loopback: isLoopbackHost(host), ...(adminToken !== undefined && { token: adminToken }) };

  async function answer(incoming: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const method = incoming.method ?? 'GET';
    const path = pathOf(incoming.url ?? '/');
    const pathname = path.split('?')[0]!;

    if (method === 'OPTIONS' && incoming.headers['access-control-request-method']) {
      return send(res, 204, PREFLIGHT_HEADERS);
    }
    const { bytes, overLimit } = method === 'GET' || method === 'HEAD' ? { bytes: new Uint8Array(), overLimit: false } : await readBoundedBody(incoming);
    if (overLimit) res.setHeader('Connection', 'close');

    if (pathname.startsWith('/__admin')) {
      const parsed = parseJsonBody(bytes);
      const admin = await answerAdmin(fake, adminAccess, {
        method,
        path: pathname,
        authorization: incoming.headers.authorization,
        origin: incoming.headers.origin,
        body: () => (parsed.ok ? parsed.value : undefined),
        bodyOverLimit: overLimit,
      });
      const { headers, body } = admin.body === undefined ? { headers: {}, body: undefined } : jsonBody(admin.body);
      return send(res, admin.status, { ...headers, ...admin.headers }, body);
    }
    if (pathname !== API_PREFIX && !pathname.startsWith(`${API_PREFIX}/`)) {
      const { headers, body } = jsonBody(apiError('not_found', `No operation at ${method} ${pathname}; the API is under ${API_PREFIX}.`));
      return send(res, 404, headers, body);
    }
    if (METHODS_FETCH_REFUSES.has(method)) {
      // Answered here without the guards, so consuming no quota, like a preflight.
      const { error, headers } = unmatchedRequestError(method, API_PREFIX, pathname.slice(API_PREFIX.length));
      const json = jsonBody(error);
      return send(res, error.status, { ...json.headers, ...headers }, json.body);
    }

    const request = new Request(`${INTERNAL_ORIGIN}${path}`, {
      method,
      headers: toHeaders(incoming),
      ...(bytes.byteLength > 0 && { body: bytes }),
    });
    const address = incoming.socket.remoteAddress ?? 'unknown';
    const handle = (req: Request) => fake.handle(req, address).then((response) => response ?? Response.json(apiError('not_found', `No operation at ${method} ${pathname}.`), { status: 404 }));
    const response = await (intercept ? intercept(request, handle) : handle(request));
    await send(res, response.status, response.headers, new Uint8Array(await response.arrayBuffer()));
    log?.(
      `${method} ${pathname} ${response.status} plan=${fake.planOf(incoming.headers.authorization ?? null) ?? 'anonymous'} ` +
        `remaining=${response.headers.get('x-ratelimit-remaining') ?? '-'} ${Math.round(performance.now() - started)}ms`,
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
        const { headers, body } = jsonBody({ code: 'internal_error', message: 'The fake failed to answer; see its log.', status: 500 });
        res.writeHead(500, { ...CORS_HEADERS, ...headers, Connection: 'close' }).end(body);
      } else {
        res.destroy();
      }
    });
  });
  // Deliberate limits: a slow or silent client cannot hold a connection forever (see limits.ts, README).
  applyServerLimits(server, limits);
  // Node would answer these with a bare status line; clients get an Error body like everywhere else.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => protocolErrors.answer(error, socket));
  server.on('connect', (_request, socket) => closeWithError(socket, apiError('invalid_request', 'CONNECT is not supported: the fake is not a proxy.')));

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = server.address() as AddressInfo;
  const url = `http://${bound.family === 'IPv6' ? `[${bound.address}]` : bound.address}:${bound.port}`;
  return {
    url,
    baseUrl: `${url}${API_PREFIX}`,
    fake,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
