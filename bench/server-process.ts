import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';

/** A server under test, in its own process so that it has a core of its own and its CPU can be read. */
export interface ServerProcess {
  name: string;
  pid: number;
  /** Where GET /categories answers: `.../v1` for the fake, the root for Prism and the floor. */
  baseUrl: string;
  /** Where a POST puts it back to its seed state, if it keeps any. */
  resetUrl?: string;
  /** From spawn to the first 200 of an authenticated GET /categories, in ms. */
  startupMs: number;
  /** CPU time the process has used so far, in microseconds (user + system). */
  cpuMicros(): number;
  /** Resident memory now, in bytes. */
  rssBytes(): number;
  stop(): Promise<void>;
}

export interface ServerCommand {
  name: string;
  command: string;
  args: string[];
  baseUrl: string;
  /** Headers of the readiness probe (the bench key). */
  headers: Record<string, string>;
  /** Where a POST puts the server back to its seed state (the fake's `/__admin/reset`); none for a stateless one. */
  resetUrl?: string;
}

const STARTUP_TIMEOUT_MS = 60_000;
// /proc/<pid>/stat counts CPU in clock ticks; Linux reports USER_HZ = 100.
const MICROS_PER_TICK = 10_000;

async function answers(url: string, headers: Record<string, string>): Promise<boolean> {
  try {
    const response = await fetch(url, { headers, signal: AbortSignal.timeout(2_000) });
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false;
  }
}

/**
 * Spawns a server and polls GET /categories every 2 ms until it answers 200, timing it from the spawn.
 * @example const fake = await startServerProcess({ name: 'fake', command: process.execPath, args, baseUrl, headers });
 */
export async function startServerProcess(spec: ServerCommand): Promise<ServerProcess> {
  const started = performance.now();
  const child: ChildProcess = spawn(spec.command, spec.args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2_000)));
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const stop = async () => {
    process.off('exit', killOnExit);
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };
  const probe = `${spec.baseUrl}/categories`;
  while (!(await answers(probe, spec.headers))) {
    if (child.exitCode !== null || performance.now() - started > STARTUP_TIMEOUT_MS) {
      await stop();
      throw new Error(`${spec.name} did not answer GET ${probe} (exit code ${child.exitCode}):\n${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  const startupMs = performance.now() - started;
  const pid = child.pid!;
  return {
    name: spec.name,
    pid,
    baseUrl: spec.baseUrl,
    ...(spec.resetUrl && { resetUrl: spec.resetUrl }),
    startupMs,
    cpuMicros() {
      // Fields after the command name: utime and stime are the 12th and 13th.
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      return (Number(fields[11]) + Number(fields[12])) * MICROS_PER_TICK;
    },
    rssBytes() {
      const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      return Number(match?.[1] ?? 0) * 1024;
    },
    stop,
  };
}
