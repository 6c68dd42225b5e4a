// The servers `npm run bench` starts, as commands, and how a measurement holds one while it runs.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freeLoopbackPort } from '../contracts/targets/free-port.js';
import { FAKE_SERVER_BIN } from '../scripts/build/bundles.js';
import { startServerProcess, type ServerCommand, type ServerProcess } from './server-process.js';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const KEY = 'bench-enterprise-key';

// An enterprise key whose limits no run reaches: every answer is a 2xx, none a 429.
const keysFile = join(mkdtempSync(join(tmpdir(), 'petstore-bench-')), 'keys.json');
writeFileSync(
  keysFile,
  JSON.stringify([{ key: KEY, plan: 'enterprise', perMinute: 1_000_000_000, perDay: 1_000_000_000 }]),
);
export const PROBE_HEADERS = { authorization: `Bearer ${KEY}` };

/** What `npm start` runs once it has built the bundle (or another build of it, for a before/after). */
export async function fakeCommand(bin = FAKE_SERVER_BIN): Promise<ServerCommand> {
  const port = await freeLoopbackPort();
  return {
    name: bin === FAKE_SERVER_BIN ? 'fake' : 'fake (baseline)',
    command: process.execPath,
    args: [bin, '--port', String(port), '--keys', keysFile, '--quiet'],
    baseUrl: `http://127.0.0.1:${port}/v1`,
    headers: PROBE_HEADERS,
    resetUrl: `http://127.0.0.1:${port}/__admin/reset`,
  };
}

/** The same server straight from the TypeScript sources, as the tests start it: no build step. */
export async function fakeFromSourcesCommand(): Promise<ServerCommand> {
  const fake = await fakeCommand();
  return {
    ...fake,
    name: 'fake (tsx)',
    args: ['--import', 'tsx', join(ROOT, 'scripts/fake-server.ts'), ...fake.args.slice(1)],
  };
}

/** The fake with its state in Redis at `url`, under its own key prefix. */
export async function fakeOnRedisCommand(url: string, prefix: string): Promise<ServerCommand> {
  const command = await fakeCommand();
  return {
    ...command,
    name: `fake (${prefix})`,
    args: [...command.args, '--store', url, '--store-prefix', `${prefix}:`],
  };
}

export async function prismCommand(): Promise<ServerCommand> {
  const port = await freeLoopbackPort();
  return {
    name: 'prism',
    command: join(ROOT, 'node_modules/.bin/prism'),
    args: [
      'mock',
      join(ROOT, 'spec/openapi.yaml'),
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--errors',
      'false',
      '--verboseLevel',
      'error',
    ],
    baseUrl: `http://127.0.0.1:${port}`,
    headers: PROBE_HEADERS,
  };
}

export async function floorCommand(): Promise<ServerCommand> {
  const port = await freeLoopbackPort();
  return {
    name: 'floor',
    command: process.execPath,
    args: [join(ROOT, 'bench/floor-server.mjs'), String(port)],
    baseUrl: `http://127.0.0.1:${port}`,
    headers: {},
  };
}

/** Starts the server, hands it to `use`, and stops it whatever happens. */
export async function withServer<T>(
  command: () => Promise<ServerCommand>,
  use: (server: ServerProcess) => Promise<T>,
): Promise<T> {
  const server = await startServerProcess(await command());
  try {
    return await use(server);
  } finally {
    await server.stop();
  }
}

/** `use` with the server when there is a command, else with none. */
export function withOptionalServer<T>(
  command: (() => Promise<ServerCommand>) | undefined,
  use: (server?: ServerProcess) => Promise<T>,
): Promise<T> {
  return command ? withServer(command, use) : use();
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}
