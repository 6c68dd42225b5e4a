import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startFakeServer, type RunningFakeServer } from '../../mocks/server/index.js';
import { capturedIo } from '../cli/captured-io.js';
import { runContractCli } from '../cli/run-contract-cli.js';

/** A server that answers every request with the same thing, counting them. */
async function answering(status: number, headers: Record<string, string>, body: string) {
  let requests = 0;
  const server: Server = createServer((_request, response) => {
    requests += 1;
    response.writeHead(status, headers).end(body);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests: () => requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function run(args: string[]) {
  const { io, out, err } = capturedIo();
  const started = Date.now();
  const code = await runContractCli(args, io);
  return { code, out: out.join('\n'), err: err.join('\n'), seconds: (Date.now() - started) / 1000 };
}

describe('a URL run diagnoses its target before any check', () => {
  let fake: RunningFakeServer;
  beforeAll(async () => {
    fake = await startFakeServer({ port: 0 });
  });
  afterAll(() => fake.close());

  it.each([
    [
      'an HTML page to every request',
      200,
      { 'Content-Type': 'text/html' },
      '<!doctype html><title>Shop</title>',
      'an HTML page',
    ],
    ['a login redirect', 302, { Location: 'https://sso.example/login' }, '', 'a redirect to https://sso.example/login'],
    ['plain text', 200, { 'Content-Type': 'text/plain' }, 'hello', 'not JSON'],
    ['JSON with no X-RateLimit-*', 200, { 'Content-Type': 'application/json' }, '[]', 'carries X-RateLimit-*'],
  ])(
    'stops with exit 2 and one line, within 30 s, on %s',
    async (_what, status, headers, body, said) => {
      const target = await answering(status, headers, body);
      try {
        const { code, err, seconds } = await run(['--target', target.baseUrl, '--api-key', 'k']);
        expect(code).toBe(2);
        expect(err).toContain(`target ${target.baseUrl} is not the Pet Store API`);
        expect(err).toContain(said);
        expect(err.split('\n')).toHaveLength(1);
        expect(seconds).toBeLessThan(30);
        expect(target.requests()).toBe(2);
      } finally {
        await target.close();
      }
    },
    60_000,
  );

  it('stops with exit 2 on a key the target refuses, quoting its answer', async () => {
    const { code, err } = await run(['--target', fake.baseUrl, '--api-key', 'not-a-key-of-this-fake']);
    expect(code).toBe(2);
    expect(err).toContain(
      `target ${fake.baseUrl} refused the key: GET /categories with it was answered 401 invalid_api_key`,
    );
  }, 60_000);

  it('says in one line what answered before it runs the checks', async () => {
    const { code, out } = await run([
      '--target',
      fake.baseUrl,
      '--api-key',
      'enterprise-test-key',
      '--checks',
      'list_categories_conforms',
    ]);
    expect(code).toBe(0);
    expect(out.split('\n')[0]).toBe(
      `target ${fake.baseUrl}: the Pet Store API (GET /categories without the key: 401; with it: 200, X-RateLimit-Limit 5000)`,
    );
  }, 60_000);
});
