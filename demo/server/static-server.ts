import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';

/** Files built in memory (by esbuild), keyed by URL path, e.g. `/assets/main.js`. */
export type BuiltAssets = ReadonlyMap<string, Uint8Array>;

export interface DemoServerOptions {
  /** Directory of the hand-written static files (`index.html`, `mockServiceWorker.js`). */
  publicDir: string;
  /** Files built at start-up, served from memory before `publicDir` is looked at. */
  builtAssets: BuiltAssets;
  /** 0 picks a free port. */
  port: number;
  /** Loopback by default: the demo is for the developer's own browser. */
  host?: string;
}

/** A running demo server. */
export interface DemoServer {
  /** The page's address, e.g. `http://127.0.0.1:5173/`. */
  readonly url: string;
  /**
   * Every request for a path under `/v1` that reached this server. The page's API calls are answered
   * by the service worker, so in a working demo this stays empty: the e2e test asserts it.
   */
  readonly apiRequests: readonly string[];
  close(): Promise<void>;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.ico': 'image/x-icon',
};

/** True for `/v1` and anything below it: the API's prefix, which this server must never answer. */
export function isApiPath(pathname: string): boolean {
  return pathname === '/v1' || pathname.startsWith('/v1/');
}

/**
 * Serves the demo page from static files only; refuses (404) and records every `/v1` request.
 * Nothing listens until this is called; close the result in teardown.
 * @example const server = await startDemoServer({ publicDir, builtAssets, port: 0 }); await server.close();
 */
export async function startDemoServer(options: DemoServerOptions): Promise<DemoServer> {
  const apiRequests: string[] = [];
  const server = createServer((request, response) => {
    answer(request, response, options, apiRequests).catch((error: unknown) => {
      send(response, 500, 'text/plain; charset=utf-8', `demo server error: ${String(error)}\n`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;
  return {
    url: `http://${address.includes(':') ? `[${address}]` : address}:${port}/`,
    apiRequests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Browsers keep connections alive; without this, close() waits for them to time out.
        server.closeAllConnections();
      }),
  };
}

async function answer(
  request: IncomingMessage,
  response: ServerResponse,
  options: DemoServerOptions,
  apiRequests: string[],
): Promise<void> {
  const pathname = new URL(request.url ?? '/', 'http://demo.invalid').pathname;
  if (isApiPath(pathname)) {
    apiRequests.push(`${request.method ?? 'GET'} ${pathname}`);
    send(
      response,
      404,
      'text/plain; charset=utf-8',
      'The demo server serves static files only; /v1 is answered by the service worker.\n',
    );
    return;
  }
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.setHeader('Allow', 'GET, HEAD');
    send(response, 405, 'text/plain; charset=utf-8', 'Static files only.\n');
    return;
  }
  const filePath = pathname === '/' ? '/index.html' : pathname;
  const body = options.builtAssets.get(filePath) ?? (await readPublicFile(options.publicDir, filePath));
  if (!body) {
    send(response, 404, 'text/plain; charset=utf-8', `Not found: ${pathname}\n`);
    return;
  }
  send(response, 200, CONTENT_TYPES[extname(filePath)] ?? 'application/octet-stream', body, request.method === 'HEAD');
}

/** Reads a file under `publicDir`, or undefined when it is missing or the path tries to leave the directory. */
async function readPublicFile(publicDir: string, urlPath: string): Promise<Uint8Array | undefined> {
  const root = normalize(publicDir + sep);
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined; // a malformed escape names no file
  }
  const filePath = normalize(join(root, decoded));
  if (!filePath.startsWith(root)) return undefined;
  return readFile(filePath).catch(() => undefined);
}

function send(
  response: ServerResponse,
  status: number,
  contentType: string,
  body: string | Uint8Array,
  headOnly = false,
): void {
  response.writeHead(status, {
    'Content-Type': contentType,
    // A rebuilt bundle or an updated worker must be picked up on the next reload.
    'Cache-Control': 'no-store',
  });
  response.end(headOnly ? undefined : body);
}
