import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Capability } from '../core/capabilities.js';
import { SPEC_PATH } from '../core/spec-document.js';
import { freeLoopbackPort } from './free-port.js';
import { UsageError } from './target-errors.js';
import type { RunningTarget } from './target.js';

// Prism is an optional peer of the package: found where this module is installed, or said plainly.
export const PRISM_PACKAGE = '@stoplight/prism-cli';
export const PRISM_VERSION = '5.14.2';
const STARTUP_TIMEOUT_MS = 90_000;
const STOP_GRACE_MS = 5_000;

/** What Prism does support, and why it lacks the rest: these reasons are printed for every skipped check. */
export const PRISM_CAPABILITIES: Capability[] = ['writes', 'preferredStatus'];
/** Why Prism lacks each capability it lacks: printed for every check it skips. */
export const PRISM_LACKING: Partial<Record<Capability, string>> = {
  stateful:
    'Prism keeps no state: it answers every request with an example of the spec, so nothing created is listed and X-RateLimit-* never change',
  quota: 'Prism has no quota: it never answers 429',
  clock: 'Prism has no clock to move: the ban, window rollover and sunset are checked against the fake',
  realAuth: 'Prism accepts any bearer token: only a missing Authorization gives 401',
  deprecationHeaders: 'Prism overwrites the Deprecation header with `true` (RFC 9745 wants @epoch)',
  uniformErrors:
    'Prism answers unknown paths, other methods and malformed JSON with its own application/problem+json, without X-RateLimit-*',
  bodyLimit: 'Prism has no request body size limit',
  hostChecked: "Prism's server, a mock for development, serves a request with two Host fields",
  httpEquivalences:
    'Prism answers `Authorization: bearer <token>` (lower-case scheme) as if no key were sent, though RFC 9110 §11.1 makes the scheme case-insensitive, and `/%70ets/1` (RFC 3986 §6.2.2.2: `/pets/1`) with the example of its documented 400',
  closedCors:
    'Prism, a mock for development, grants CORS with credentials to whatever Origin a request names (Access-Control-Allow-Origin repeats it) and exposes none of the spec’s headers',
  exactParameters: 'Prism coerces path parameters (`0x10` is 16) and refuses int64 ids past 2^53 with 400',
};

// Prism accepts any bearer token; this one says where it came from in Prism's log.
const PRISM_TOKEN = 'prism-accepts-any-token';

async function answersOnce(baseUrl: string): Promise<boolean> {
  try {
    const response = await fetch(`${baseUrl}/categories`, {
      headers: { Authorization: `Bearer ${PRISM_TOKEN}` },
      signal: AbortSignal.timeout(2_000),
    });
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false;
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
  await exited;
  clearTimeout(timer);
}

async function waitUntilAnswering(child: ChildProcess, baseUrl: string, output: () => string): Promise<void> {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`Prism exited with code ${child.exitCode} before answering:\n${output()}`);
    if (await answersOnce(baseUrl)) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`Prism did not answer on ${baseUrl} within ${STARTUP_TIMEOUT_MS / 1000} s:\n${output()}`);
}

/** Prism's command-line script, resolved from this module's location; a usage error (exit 2) when absent. */
export function prismScript(from: string = import.meta.url): string {
  let manifest: string;
  try {
    manifest = createRequire(from).resolve(`${PRISM_PACKAGE}/package.json`);
  } catch {
    throw new UsageError(
      `the prism target needs ${PRISM_PACKAGE}, which is not installed: npm install --save-dev ${PRISM_PACKAGE}@${PRISM_VERSION}`,
    );
  }
  const { bin } = createRequire(from)(manifest) as { bin: string | Record<string, string> };
  return join(dirname(manifest), typeof bin === 'string' ? bin : bin.prism!);
}

/**
 * Spawns Prism (`prism mock spec/openapi.yaml`) on 127.0.0.1 and a free port, and waits
 * until it answers. Prism serves the paths without the `/v1` prefix. `close` always kills it.
 * @example const prism = await startPrismTarget(); try { ... } finally { await prism.close(); }
 */
export async function startPrismTarget(): Promise<RunningTarget> {
  const script = prismScript();
  const port = await freeLoopbackPort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(
    process.execPath,
    [script, 'mock', SPEC_PATH, '--host', '127.0.0.1', '--port', String(port), '--verboseLevel', 'warn'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4_000));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  // If this process dies first, Prism must not outlive it.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  let stopped: Promise<void> | undefined;
  const close = () => (stopped ??= stop(child).finally(() => process.off('exit', killOnExit)));
  try {
    await waitUntilAnswering(child, baseUrl, () => output);
  } catch (error) {
    await close();
    throw error;
  }
  return {
    descriptor: {
      kind: 'prism',
      label: 'prism',
      baseUrl,
      apiKey: PRISM_TOKEN,
      capabilities: PRISM_CAPABILITIES,
      lacking: PRISM_LACKING,
      paced: false,
    },
    close,
  };
}
