import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WITNESS_KEYS } from './contract-run.js';
import { freePort } from '../support/free-port.js';

/** A witness running as a process of its own stack (Go, Python), with its framework's own HTTP server. */
export interface ProcessWitness {
  baseUrl: string;
  close(): Promise<void>;
}

/** How to start one: the command, its folder and environment, given a free port and the keys file. */
export interface ProcessCommand {
  command: string;
  args: string[];
  cwd: string;
  env?: Record<string, string>;
}

async function accepts(port: number): Promise<boolean> {
  const socket = connect(port, '127.0.0.1');
  try {
    await Promise.race([once(socket, 'connect'), once(socket, 'error').then(() => Promise.reject(new Error()))]);
    return true;
  } catch {
    return false;
  } finally {
    socket.destroy();
  }
}

/** Which of `tools` this machine lacks (each a command that must exit 0), for a skip that names the install. */
export function missingTools(tools: ReadonlyArray<{ probe: string[]; install: string }>): string[] {
  return tools.filter(({ probe }) => spawnSync(probe[0]!, probe.slice(1)).status !== 0).map(({ install }) => install);
}

/**
 * Starts a witness process on 127.0.0.1 with the run's keys, waits until its port accepts connections,
 * and stops it (SIGTERM, then SIGKILL) in `close`. What it printed is kept for a failure's message.
 */
export async function startProcessWitness(
  keys: typeof WITNESS_KEYS,
  commandFor: (port: number, keysFile: string) => ProcessCommand,
): Promise<ProcessWitness> {
  const folder = mkdtempSync(join(tmpdir(), 'witness-'));
  const keysFile = join(folder, 'keys.json');
  writeFileSync(keysFile, JSON.stringify(keys));
  const port = await freePort();
  const { command, args, cwd, env } = commandFor(port, keysFile);
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let printed = '';
  child.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  const exited = once(child, 'exit');
  const deadline = Date.now() + 60_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${command} ${args.join(' ')} did not listen on 127.0.0.1:${port}:\n${printed}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    async close() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
    },
  };
}
