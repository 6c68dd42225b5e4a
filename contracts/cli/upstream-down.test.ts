import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeServer, type RunningFakeServer } from '../../mocks/server/index.js';
import { freeLoopbackPort } from '../targets/free-port.js';
import { startWatchProxy } from '../watch/watch-proxy.js';
import { capturedIo } from './captured-io.js';
import { runContractCli } from './run-contract-cli.js';
import { watchRun } from './watch-in-process.js';

const KEY = 'free-test-key';

/** An HTTP server that answers the suite's reachability probe (`GET /v1/categories`, once) and resets every later connection. */
/** A service that answers the run's diagnosis (a read without the key, then with it) as this API does, then no more. */
async function diesAfterTheProbe(): Promise<Server> {
  let answered = 0;
  const server = createServer((incoming, outgoing) => {
    if (answered < 2 && incoming.url === '/v1/categories') {
      answered += 1;
      const limits = { 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': '59', 'X-RateLimit-Reset': '4102444800' };
      if (incoming.headers.authorization)
        outgoing.writeHead(200, { 'Content-Type': 'application/json', ...limits }).end('[]');
      else
        outgoing
          .writeHead(401, { 'Content-Type': 'application/json', 'WWW-Authenticate': 'Bearer', ...limits })
          .end('{"code":"missing_api_key","message":"No key.","status":401}');
    } else incoming.socket.destroy();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return server;
}

describe('gates fail closed: a target that does not answer is a finding, never a pass', () => {
  let reports: string;
  let fake: RunningFakeServer;
  beforeAll(async () => {
    reports = await mkdtemp(join(tmpdir(), 'upstream-down-'));
    fake = await startFakeServer({ port: 0 });
  });
  afterAll(async () => {
    await fake.close();
    await rm(reports, { recursive: true, force: true });
  });

  it('watch exits 2 when the upstream is stopped, and says why in the summary, the JSON and the JUnit', async () => {
    const port = await freeLoopbackPort();
    const json = join(reports, 'down.json');
    const junit = join(reports, 'down.xml');
    const run = await watchRun(
      ['--upstream', `http://127.0.0.1:${port}/v1`, '--json', json, '--junit', junit, '--allow-upstream-errors'],
      async (baseUrl) => {
        for (const path of ['/categories', '/pets/1'])
          expect((await fetch(`${baseUrl}${path}`, { headers: { Authorization: `Bearer ${KEY}` } })).status).toBe(502);
      },
    );
    // Nothing was answered at all: --allow-upstream-errors does not make that a pass.
    expect(run.code).toBe(2);
    expect(run.out).toContain('No answer: The target could not be reached: none of 2 requests got an answer (exit 2)');
    expect(run.out).toMatch(/ {2}GET \/v1\/categories: ECONNREFUSED, answered 502 by watch/);
    const report = JSON.parse(await readFile(json, 'utf8'));
    expect(report).toMatchObject({ upstreamErrors: 2, exitCode: 2, reachability: { exitCode: 2 } });
    expect(report.unanswered[1]).toMatchObject({
      request: 'GET /v1/pets/1',
      why: 'ECONNREFUSED',
      answeredByProxy: 502,
    });
    expect(await readFile(junit, 'utf8')).toMatch(
      /<testcase classname="watch" name="target_answered" time="0">\n {6}<failure message="The target could not be reached: none of 2 requests got an answer \(exit 2\)" type="Unanswered">/,
    );
  });

  it('watch exits 1 when some requests got no answer, 0 with --allow-upstream-errors, and 504s an upstream that does not answer in time', async () => {
    const cut = await startFakeServer({ port: 0 });
    const traffic = async (baseUrl: string) => {
      expect((await fetch(`${baseUrl}/categories`, { headers: { Authorization: `Bearer ${KEY}` } })).status).toBe(200);
      await cut.close();
      expect((await fetch(`${baseUrl}/categories`, { headers: { Authorization: `Bearer ${KEY}` } })).status).toBe(502);
    };
    const strict = await watchRun(['--upstream', cut.baseUrl], traffic);
    expect(strict.code).toBe(1);
    expect(strict.out).toContain(
      'No answer: 1 of 2 requests got no answer from the target (exit 1; --allow-upstream-errors excuses them)',
    );
    const again = await startFakeServer({ port: 0 });
    const allowed = await watchRun(['--upstream', again.baseUrl, '--allow-upstream-errors'], async (baseUrl) => {
      expect((await fetch(`${baseUrl}/categories`, { headers: { Authorization: `Bearer ${KEY}` } })).status).toBe(200);
      await again.close();
      expect((await fetch(`${baseUrl}/categories`)).status).toBe(502);
    });
    expect(allowed.code).toBe(0);
    expect(allowed.out).toContain('(excused by --allow-upstream-errors)');

    // An upstream that takes the request and never answers: 504 after --upstream-timeout.
    const silent = createServer(() => undefined);
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const slow = await watchRun(
      ['--upstream', `http://127.0.0.1:${(silent.address() as AddressInfo).port}/v1`, '--upstream-timeout', '1'],
      async (baseUrl) => {
        const answer = await fetch(`${baseUrl}/categories`);
        expect(answer.status).toBe(504);
        expect(await answer.json()).toMatchObject({ code: 'gateway_timeout', status: 504 });
      },
    );
    silent.closeAllConnections();
    silent.close();
    expect(slow.code).toBe(2);
    expect(slow.out).toMatch(/GET \/v1\/categories: no answer within 1 s, answered 504 by watch/);
  }, 30_000);

  it('replay and the suite exit 2 when the target is stopped, and when it stops answering after the first request', async () => {
    // A HAR of two reads, recorded through watch in front of the fake.
    const proxy = await startWatchProxy({ upstream: fake.baseUrl, har: true });
    for (const path of ['/categories', '/pets'])
      await fetch(`${proxy.baseUrl}${path}`, { headers: { Authorization: `Bearer ${KEY}` } });
    await proxy.close();
    const har = join(reports, 'two.har');
    await writeFile(har, JSON.stringify(proxy.har!.toHar()));

    const stopped = `http://127.0.0.1:${await freeLoopbackPort()}/v1`;
    for (const argv of [
      ['replay', har, '--target', stopped, '--api-key', KEY],
      ['--target', stopped, '--api-key', KEY],
    ]) {
      const { io, err } = capturedIo();
      expect(await runContractCli(argv, io)).toBe(2);
      expect(err.join('\n')).toContain(`target ${stopped} is unreachable (ECONNREFUSED)`);
    }

    const dying = await diesAfterTheProbe();
    const base = `http://127.0.0.1:${(dying.address() as AddressInfo).port}/v1`;
    try {
      const replay = capturedIo();
      expect(await runContractCli(['replay', har, '--target', base, '--api-key', KEY], replay.io)).toBe(2);
      expect(replay.out.join('\n')).toContain(
        'No answer: The target could not be reached: none of 2 requests got an answer (exit 2)',
      );
    } finally {
      dying.close();
    }

    const dead = await diesAfterTheProbe();
    const json = join(reports, 'suite.json');
    const junit = join(reports, 'suite.xml');
    try {
      const suite = capturedIo();
      const target = `http://127.0.0.1:${(dead.address() as AddressInfo).port}/v1`;
      const argv = ['--target', target, '--api-key', KEY, '--runs', '1', '--json', json, '--junit', junit];
      expect(await runContractCli([...argv, '--allow-upstream-errors'], suite.io)).toBe(2);
      expect(suite.out.join('\n')).toMatch(
        /No answer: The target could not be reached: none of \d+ requests got an answer/,
      );
      const report = JSON.parse(await readFile(json, 'utf8'));
      expect(report.exitCode).toBe(2);
      expect(report.targets[0].unanswered.requests[0]).toMatchObject({ why: 'ECONNRESET' });
      // Excused, the checks the silence stopped are reported not completed rather than failed.
      expect(report.targets[0].results.filter((result: { outcome: string }) => result.outcome === 'failed')).toEqual(
        [],
      );
      expect(await readFile(junit, 'utf8')).toContain('name="target_answered" time="0">\n      <failure');
    } finally {
      dead.close();
    }
  }, 120_000);
});
