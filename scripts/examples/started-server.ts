import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Network } from './own-loopback.js';

// A server a guide leaves running ("in a second terminal"): started as typed, in its own process group
// (so that stopping it stops npx and the server npx started: npx passes no signal on), and ready when its
// port takes a connection, which is what a reader waits for by eye. `timeout` ends it by itself should the
// follower die without stopping it.
const LIFETIME_SECONDS = 1800;
// npx resolving a bin and the fake compiling its validators take a few seconds; on a busy CI machine more.
const READY_WITHIN_MS = 60_000;
const KEEP_OUTPUT_CHARS = 64 * 1024;

/** A server started in the background, running until {@link StartedServer.stop}. */
export interface StartedServer {
  command: string;
  /** What it has printed so far (the last 64 KiB). */
  output(): string;
  /** How it ended (`exit 2`, `signal SIGKILL`), or undefined while it runs. */
  ended(): string | undefined;
  /** SIGTERM to its process group, SIGKILL after 10 s; resolves when no process of the group is left. */
  stop(): Promise<void>;
}

/** Whether something in `network` accepts a TCP connection on 127.0.0.1:`port`. */
function answers(network: Network, port: number): Promise<boolean> {
  // bash's /dev/tcp: one connection, from inside the network, with no tool to install.
  const [file, ...args] = network.wrap(['bash', '-c', `exec 3<>/dev/tcp/127.0.0.1/${port}`]);
  return new Promise((resolve) => execFile(file!, args, { timeout: 5000 }, (error) => resolve(!error)));
}

/**
 * Starts `command` (through `sh -c`, in `cwd`, in `network`) and resolves once 127.0.0.1:`port` answers;
 * rejects, with what it printed, when the port is taken before it starts, or when it exits or stays
 * silent on its port for a minute.
 * @example const fake = await startServer('npx petstore-fake --port 4010', 4010, dir, env, network)
 */
export async function startServer(
  command: string,
  port: number,
  cwd: string,
  env: NodeJS.ProcessEnv,
  network: Network,
): Promise<StartedServer> {
  if (await answers(network, port))
    throw new Error(`port ${port} is already taken in ${network.description}, before \`${command}\` started`);
  const [file, ...args] = network.wrap(['timeout', String(LIFETIME_SECONDS), 'sh', '-c', command]);
  const child = spawn(file!, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => (output = `${output}${chunk.toString()}`.slice(-KEEP_OUTPUT_CHARS));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = once(child, 'exit');
  const ended = () =>
    child.exitCode !== null ? `exit ${child.exitCode}` : child.signalCode ? `signal ${child.signalCode}` : undefined;
  const server: StartedServer = {
    command,
    output: () => output,
    ended,
    async stop() {
      // The whole group: `timeout` may be gone while the server it started is still closing its port.
      const signal = (name: NodeJS.Signals | 0) => {
        try {
          process.kill(-child.pid!, name);
          return true;
        } catch {
          return false; // no process of the group is left
        }
      };
      if (!signal('SIGTERM')) return;
      // Up to 10 s to close, then SIGKILL; a zombie no one reaps would keep the group alive forever.
      const killAt = performance.now() + 10_000;
      while (signal(0) && performance.now() < killAt + 5000) {
        if (performance.now() > killAt) signal('SIGKILL');
        await sleep(50);
      }
      await exited;
    },
  };
  const deadline = performance.now() + READY_WITHIN_MS;
  while (performance.now() < deadline) {
    if (ended()) throw new Error(`\`${command}\` ended (${ended()}) before port ${port} answered:\n${output}`);
    if (await answers(network, port)) return server;
    await sleep(100);
  }
  await server.stop();
  throw new Error(`\`${command}\`: port ${port} did not answer within ${READY_WITHIN_MS / 1000} s:\n${output}`);
}
