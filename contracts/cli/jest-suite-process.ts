import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { TargetDescriptor } from '../targets/target.js';
import type { SuiteSettings } from '../runner/target-session.js';
import { API_KEY_ENV, EVENTS_FD_ENV, publicDescriptor, SETTINGS_ENV, TARGET_ENV, type SuiteEvent } from './suite-events.js';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const JEST_BIN = join(REPO_ROOT, 'node_modules', 'jest', 'bin', 'jest.js');
const SUITE_FILE = 'contracts/cli/contract-suite.jest.ts';
const KEPT_OUTPUT = 20_000;

/** What the jest process produced: its streamed events, exit code and (tail of) output for diagnosis. */
export interface JestSuiteRun {
  events: SuiteEvent[];
  exitCode: number;
  output: string;
}

async function jestConfig(): Promise<string> {
  // The project's own jest set-up (ESM, ts-jest), narrowed to the one suite file.
  const base = ((await import(pathToFileURL(join(REPO_ROOT, 'jest.config.js')).href)) as { default: Record<string, unknown> }).default;
  return JSON.stringify({ ...base, rootDir: REPO_ROOT, testMatch: [`<rootDir>/${SUITE_FILE}`] });
}

/**
 * Runs the checks against an already running target in a jest process (ESM mode, in band), passing the
 * target through the environment and streaming each result back on file descriptor 3.
 * @example const run = await runSuiteInJest(target.descriptor, settings, (event) => print(event));
 */
export async function runSuiteInJest(descriptor: TargetDescriptor, settings: SuiteSettings, onEvent: (event: SuiteEvent) => void): Promise<JestSuiteRun> {
  const args = ['--experimental-vm-modules', JEST_BIN, '--config', await jestConfig(), '--runInBand', '--ci', '--colors=false'];
  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    env: { ...process.env, [TARGET_ENV]: JSON.stringify(publicDescriptor(descriptor)), [SETTINGS_ENV]: JSON.stringify(settings), [API_KEY_ENV]: descriptor.apiKey, [EVENTS_FD_ENV]: '3' },
  });
  // Jest must not outlive the CLI (Ctrl-C, a kill).
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-KEPT_OUTPUT));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const events: SuiteEvent[] = [];
  const lines = createInterface({ input: child.stdio[3] as Readable });
  lines.on('line', (line) => {
    const event = JSON.parse(line) as SuiteEvent;
    events.push(event);
    onEvent(event);
  });
  const [exitCode] = (await once(child, 'close')) as [number | null];
  process.off('exit', killOnExit);
  return { events, exitCode: exitCode ?? 1, output };
}
