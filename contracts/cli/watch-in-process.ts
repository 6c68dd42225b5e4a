import { capturedIo } from './captured-io.js';
import { runContractCli } from './run-contract-cli.js';

/** What a `watch` run in this process printed, and its exit status. */
export interface WatchRun {
  code: number;
  out: string;
  err: string;
}

/**
 * Runs `watch --port 0 ...args` in this process (for tests: no Node start per case), sends `traffic`
 * through it once it listens, then stops it as SIGTERM would and resolves with what a user would see.
 * @example const run = await watchRun(['--upstream', fake.baseUrl], (base) => fetch(`${base}/categories`).then(() => undefined));
 */
export async function watchRun(args: string[], traffic: (baseUrl: string) => Promise<void>): Promise<WatchRun> {
  const { out, err, io } = capturedIo();
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const exit = runContractCli(['watch', '--port', '0', ...args], io, stopped);
  for (let tries = 0; !out.some((line) => line.startsWith('Watching ')) && tries < 200; tries += 1)
    await new Promise((resolve) => setTimeout(resolve, 25));
  const baseUrl = /through (\S+):/.exec(out.find((line) => line.startsWith('Watching ')) ?? '')?.[1];
  if (!baseUrl) {
    stop();
    throw new Error(`watch did not start (exit ${await exit}): ${[...out, ...err].join('\n')}`);
  }
  try {
    await traffic(baseUrl);
  } finally {
    stop();
  }
  return { code: await exit, out: out.join('\n'), err: err.join('\n') };
}
