import { rename, rm, writeFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';

/** What `watch` says, as one JSON line, once it listens: where to send requests and what it forwards to. */
export interface ReadyLine {
  event: 'ready';
  /** Where clients send their requests (the proxy's origin and the upstream's base path). */
  baseUrl: string;
  /** The address and the port it listens on (the port actually bound, also for `--port 0`). */
  host: string;
  port: number;
  upstream: string;
  /** The process to signal (SIGTERM) to stop it and get its reports. */
  pid: number;
}

/**
 * The readiness line: JSON on one line, so a script reads it with any JSON parser (`node -p`, `jq`).
 * @example readyLineText({ event: 'ready', baseUrl: 'http://127.0.0.1:4800/v1', host: '127.0.0.1', port: 4800, upstream, pid })
 */
export function readyLineText(line: ReadyLine): string {
  return JSON.stringify(line);
}

/** A stale file from an earlier run must not say "ready" before this one listens. */
export async function clearReadyFile(file: string): Promise<void> {
  await rm(file, { force: true });
}

/**
 * Writes the line to `file` whole or not at all (written beside it, then renamed), so a script polling
 * for the file never reads half a line.
 */
export async function writeReadyFile(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const partial = `${file}.${process.pid}.partial`;
  await writeFile(partial, `${text}\n`);
  await rename(partial, file);
}
