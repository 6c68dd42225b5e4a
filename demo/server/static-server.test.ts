import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDemoServer, type DemoServer } from './static-server.js';

describe('the demo static server', () => {
  let siteDir: string;
  let server: DemoServer;

  beforeAll(async () => {
    // A file beside the public directory, which no request may reach.
    siteDir = await mkdtemp(join(tmpdir(), 'demo-site-'));
    await writeFile(join(siteDir, 'secret.txt'), 'not for the browser');
    const publicDir = join(siteDir, 'public');
    await mkdir(publicDir);
    await writeFile(join(publicDir, 'index.html'), '<!doctype html><title>demo</title>');
    await writeFile(join(publicDir, 'mockServiceWorker.js'), '// worker');
    const builtAssets = new Map([['/assets/main.js', new TextEncoder().encode('console.log("built")')]]);
    server = await startDemoServer({ publicDir, builtAssets, port: 0 });
  });

  afterAll(async () => {
    await server.close();
    await rm(siteDir, { recursive: true, force: true });
  });

  const get = (path: string, init?: RequestInit) => fetch(new URL(path, server.url), init);

  /** Sends the path exactly as written; fetch would normalise the dot segments away. */
  const rawStatus = (path: string) =>
    new Promise<number>((resolve, reject) => {
      const { hostname, port } = new URL(server.url);
      request({ hostname, port, path }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      })
        .on('error', reject)
        .end();
    });

  it('listens on loopback only', () => {
    expect(new URL(server.url).hostname).toBe('127.0.0.1');
  });

  it('serves index.html at /, public files and built assets, with their content types', async () => {
    const page = await get('/');
    expect([page.status, page.headers.get('content-type'), await page.text()]).toEqual([
      200,
      'text/html; charset=utf-8',
      '<!doctype html><title>demo</title>',
    ]);
    const worker = await get('/mockServiceWorker.js');
    expect([worker.status, worker.headers.get('content-type')]).toEqual([200, 'text/javascript; charset=utf-8']);
    const bundle = await get('/assets/main.js');
    expect([bundle.status, await bundle.text()]).toEqual([200, 'console.log("built")']);
  });

  it('refuses every /v1 request with 404 and records it, so a test can prove none arrived', async () => {
    const before = server.apiRequests.length;
    expect((await get('/v1/categories')).status).toBe(404);
    expect((await get('/v1/categories', { method: 'POST', body: '{}' })).status).toBe(404);
    expect((await get('/v1')).status).toBe(404);
    expect(server.apiRequests.slice(before)).toEqual(['GET /v1/categories', 'POST /v1/categories', 'GET /v1']);
  });

  it('does not count look-alike paths as API requests', async () => {
    const before = server.apiRequests.length;
    expect((await get('/v1x')).status).toBe(404);
    expect(server.apiRequests.length).toBe(before);
  });

  it('answers 404 for missing files and for paths that try to leave the public directory', async () => {
    expect((await get('/nope.js')).status).toBe(404);
    expect(await rawStatus('/..%2fsecret.txt')).toBe(404);
    expect(await rawStatus('/../secret.txt')).toBe(404);
    expect(await rawStatus('/%E0%A4%A')).toBe(404);
  });

  it('serves static files only: other methods get 405 with Allow', async () => {
    const response = await get('/', { method: 'POST' });
    expect([response.status, response.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
  });
});
