import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../support/free-port.js';

/** Debian's Redis; CI installs it (`.ci/run`). */
export const REDIS_SERVER_PATH = '/usr/bin/redis-server';
export const REDIS_INSTALL_COMMAND = 'apt-get install -y redis-server';

export function redisIsInstalled(): boolean {
  return existsSync(REDIS_SERVER_PATH);
}

/** A real redis-server on a free loopback port, its data in a temp folder so a restart keeps it. */
export interface RedisProcess {
  url: string;
  port: number;
  /** Stops the server (SIGTERM: the append-only file is already on disk). */
  stop(): Promise<void>;
  /** Starts it again on the same port and folder: what was written before `stop` is back. */
  start(): Promise<void>;
}

/**
 * Starts `redis-server` for a test; `stop()` it in teardown. By default every write is fsynced
 * (`appendfsync always`), so "stopped mid-run, nothing lost" is a property of the fake, not of luck;
 * `durable: false` keeps nothing on disk (the benchmark measures round trips, not the disk).
 * @example const redis = await startRedis(); ...; await redis.stop();
 */
export async function startRedis(options: { durable?: boolean } = {}): Promise<RedisProcess> {
  const durability =
    options.durable === false ? ['--appendonly', 'no'] : ['--appendonly', 'yes', '--appendfsync', 'always'];
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'petstore-redis-'));
  let child: ChildProcess | undefined;
  const start = async () => {
    const started = spawn(
      REDIS_SERVER_PATH,
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--dir',
        dir,
        '--save',
        '',
        ...durability,
        '--protected-mode',
        'yes',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child = started;
    await new Promise<void>((resolve, reject) => {
      let output = '';
      const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${output}`)), 10_000);
      started.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      });
      started.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited with ${code}: ${output}`));
      });
    });
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    start,
    async stop() {
      const running = child;
      if (!running || running.exitCode !== null) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGTERM');
      await exited;
    },
  };
}
