import type { CliIo } from './cli-common.js';

/**
 * An io for `runContractCli` that keeps every line it prints: tests run the CLI in their own process
 * (no Node start, no TypeScript loader per case) and read what a user would have seen.
 * @example const { io, err } = capturedIo(); expect(await runContractCli([], io)).toBe(2);
 */
export function capturedIo(): { out: string[]; err: string[]; io: CliIo } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    io: { out: (line) => out.push(line), err: (line) => err.push(line), env: {}, command: 'petstore-contract' },
  };
}
