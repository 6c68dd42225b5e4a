import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

// A guide that leaves servers running names the ports a reader would use (4010, 4800, 6379). Projects
// followed at the same time, and whatever else the machine runs (a developer's own fake on 4010), would
// fight over them. So the follower gives such a project a network of its own: a Linux network namespace
// (util-linux's `unshare` and `nsenter`, iproute2's `ip`, as root) whose loopback has every port free and
// reaches nothing else. Its `npm install` runs outside, where the registry is. Where no namespace can be
// made, the machine's loopback is used, and a port already taken fails the step that wanted it, naming it.

/** Where a project's commands run: the argv that runs a command there. */
export interface Network {
  /** Says where, for messages: "a network namespace of its own" or "the machine's loopback". */
  description: string;
  /** The argv that runs `argv` in this network. */
  wrap(argv: readonly string[]): string[];
  /** Lets go of the network (its servers must be stopped first). */
  close(): void;
}

/** The machine's own network, as a reader has it. */
export const MACHINE_NETWORK: Network = {
  description: "the machine's loopback",
  wrap: (argv) => [...argv],
  close: () => undefined,
};

// The namespace lives as long as one process in it does: a `sleep` that ends by itself within the hour,
// so nothing outlives a run that was killed.
const HOLDER_SECONDS = 3600;

/**
 * A network namespace with its loopback up and nothing else, or `undefined` and why it could not be made.
 * @example const { network } = await ownLoopback(); spawn(...network.wrap(['sh', '-c', 'npx petstore-fake']))
 */
export async function ownLoopback(): Promise<{ network: Network } | { network: undefined; why: string }> {
  const holder = spawn(
    'unshare',
    ['--net', '--', 'sh', '-c', `ip link set lo up && echo up && exec sleep ${HOLDER_SECONDS}`],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let said = '';
  holder.stderr.on('data', (chunk: Buffer) => (said += chunk.toString()));
  const up = await new Promise<boolean>((resolve) => {
    holder.once('error', (error) => {
      said += error.message;
      resolve(false);
    });
    holder.once('exit', () => resolve(false));
    createInterface({ input: holder.stdout }).once('line', (line) => resolve(line === 'up'));
  });
  if (!up || holder.pid === undefined) {
    holder.kill('SIGKILL');
    return { network: undefined, why: said.trim() || 'unshare --net did not bring its loopback up' };
  }
  const namespace = `--net=/proc/${holder.pid}/ns/net`;
  return {
    network: {
      description: 'a network namespace of its own',
      wrap: (argv) => ['nsenter', namespace, '--', ...argv],
      close: () => void holder.kill('SIGTERM'),
    },
  };
}
