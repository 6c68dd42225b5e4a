// API keys and the admin token never reach a log: not the server's `log` lines, not `npm start`'s
// output, whatever requests arrive (valid, refused, malformed, aborted, banned).
import { describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApiKey } from '../../mocks/domain/plans.js';
import { startFakeServer } from '../../mocks/server/index.js';
import { rawExchange, requestHead } from './raw-http.js';
import { waitUntil } from './wait-until.js';

const ADMIN_TOKEN = 'adm-0b7e4c2a91d5';
const KEYS: ApiKey[] = [
  { key: 'sk-free-6c1d8e0f3a72', plan: 'free', limits: { perMinute: 2, perDay: 100 } },
  { key: 'sk-pro-94b2e7d05c1f', plan: 'pro', limits: { perMinute: 300, perDay: 10_000 } },
];
const WRONG_KEY = 'sk-wrong-51f0a9c7e3b8';
const SECRETS = [ADMIN_TOKEN, WRONG_KEY, ...KEYS.map((apiKey) => apiKey.key)];
// The distinctive tail of each secret: a log that printed part of one is caught too.
const FRAGMENTS = SECRETS.map((secret) => secret.slice(-8));

/** Sends every kind of request that carries a secret to a fake at `url`. */
async function sendSecretsEverywhere(url: string): Promise<void> {
  const [free, pro] = KEYS.map((apiKey) => `Bearer ${apiKey.key}`) as [string, string];
  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${url}/v1${path}`, init).then((response) => response.arrayBuffer());
  await api('/categories', { headers: { authorization: pro } });
  await api('/categories', {
    method: 'POST',
    headers: { authorization: pro, 'content-type': 'application/json' },
    body: '{"name":"x"}',
  });
  await api('/pets/1', { headers: { authorization: pro } });
  await api('/nowhere', { headers: { authorization: pro } });
  await api('/store/orders', { method: 'DELETE', headers: { authorization: pro } });
  await api(`/categories?api_key=${KEYS[1]!.key}`, { headers: { authorization: pro } });
  await api('/categories', { headers: { authorization: `Bearer ${WRONG_KEY}` } });
  await api('/categories', { headers: { authorization: `bearer   ${KEYS[1]!.key}` } });
  await api('/categories', { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  for (let i = 0; i < 16; i++) await api('/categories', { headers: { authorization: free } }); // 429s, then a ban
  for (const authorization of [`Bearer ${ADMIN_TOKEN}`, `Bearer ${WRONG_KEY}`]) {
    await fetch(`${url}/__admin/clock`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: '{"advanceSeconds":1}',
    });
  }
  await rawExchange(url, requestHead('TRACE', '/v1/categories', [`Authorization: ${pro}`]), { responses: 1 });
  await rawExchange(
    url,
    requestHead('GET', '/v1/categories', [`Authorization: ${pro}`, `X-Padding: ${'p'.repeat(20_000)}`]),
  );
  await rawExchange(
    url,
    requestHead('POST', '/v1/categories', [`Authorization: ${pro}`, 'Content-Length: 5', 'Transfer-Encoding: chunked']),
  );
  // A client that vanishes mid-body.
  await new Promise<void>((resolve) => {
    const head = requestHead('POST', '/v1/categories', [
      `Authorization: ${pro}`,
      'Content-Type: application/json',
      'Content-Length: 100',
    ]);
    const socket = net.connect(Number(new URL(url).port), '127.0.0.1', () =>
      socket.write(`${head}{"na`, () => socket.destroy()),
    );
    socket.on('error', () => undefined);
    socket.on('close', () => resolve());
  });
}

function expectNoSecret(text: string): void {
  for (const fragment of FRAGMENTS) expect(text).not.toContain(fragment);
}

describe('secrets in logs', () => {
  it('the server log option never receives a key or the admin token', async () => {
    const lines: string[] = [];
    const server = await startFakeServer({
      host: '127.0.0.1',
      port: 0,
      keys: KEYS,
      adminToken: ADMIN_TOKEN,
      ban: { threshold: 3 },
      log: (line) => lines.push(line),
    });
    try {
      await sendSecretsEverywhere(server.url);
      await waitUntil(() => lines.some((line) => line.includes(' aborted: ')));
    } finally {
      await server.close();
    }
    // The log did record these requests (with the plan instead of the key), so the check means something.
    expect(lines.filter((line) => /plan=(free|pro)/.test(line)).length).toBeGreaterThanOrEqual(20);
    expect(lines.some((line) => / 429 plan=free /.test(line))).toBe(true);
    expectNoSecret(lines.join('\n'));
  });

  it('npm start prints neither keys from --keys nor the --admin-token, at start-up or per request', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fake-secrets-'));
    const keysFile = join(dir, 'keys.json');
    writeFileSync(keysFile, JSON.stringify(KEYS.map(({ key, plan }) => ({ key, plan }))));
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'scripts/fake-server.ts', '--port', '0', '--keys', keysFile, '--admin-token', ADMIN_TOKEN],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    try {
      await waitUntil(() => /listening on http:\/\/127\.0\.0\.1:\d+\/v1/.test(output), 20_000);
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)\/v1/.exec(output)![1]!;
      await sendSecretsEverywhere(url);
      await waitUntil(() => output.includes(' aborted: '));
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
    expect(output).toMatch(/GET \/v1\/categories 200 plan=pro/);
    expectNoSecret(output);
  }, 60_000);
});
