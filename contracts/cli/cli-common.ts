import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { constants } from 'node:fs';
import { access, mkdir, stat, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Capability } from '../core/capabilities.js';
import { ALLOWABLE } from '../targets/url-target.js';
import { closestName } from '../core/closest-name.js';

/** Where a command writes, what it reads from its environment, and the name it was run by (injected, for tests). */
export interface CliIo {
  /** Writes a line of the report (standard output for the bins). */
  out(line: string): void;
  /** Writes a line of usage or error (standard error for the bins). */
  err(line: string): void;
  env: NodeJS.ProcessEnv;
  /** The command as the user typed it, for usage and help: `petstore-contract` (the default) or `npm run contract --`. */
  command?: string;
  /** Rewrites one terminal line in place (a countdown); absent where the output is not a terminal. */
  status?: (text: string) => void;
}

/** The name usage and help give the command. */
export const commandOf = (io: CliIo): string => io.command ?? 'petstore-contract';

export async function writeReport(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, text);
}

/**
 * Whether every report file named on the command line can be written at the end of the run, checked
 * before its first request (a run of minutes must not end in a stack trace and no report); each that
 * cannot (a folder, a parent that is a file, a folder without write permission) is said on `io.err`,
 * under the command's `label`. Creates nothing.
 * @example if (!(await reportsWritable('contract', { '--junit': options.junit }, io))) return 2;
 */
export async function reportsWritable(
  label: string,
  files: Record<string, string | undefined>,
  io: CliIo,
): Promise<boolean> {
  let writable = true;
  for (const [flag, file] of Object.entries(files)) {
    if (file === undefined) continue;
    const why = await whyUnwritable(resolve(file));
    if (!why) continue;
    io.err(`${label}: ${flag} ${file}: ${why} (checked before any request)`);
    writable = false;
  }
  return writable;
}

async function whyUnwritable(file: string): Promise<string | undefined> {
  const found = await stat(file).catch(() => undefined);
  if (found?.isDirectory()) return 'is a folder; name a file';
  if (found)
    return await access(file, constants.W_OK).then(
      () => undefined,
      () => 'is not writable',
    );
  // The nearest folder that exists must be a folder we may write in (the rest is created).
  for (let folder = dirname(file); ; folder = dirname(folder)) {
    const held = await stat(folder).catch(() => undefined);
    if (held && !held.isDirectory()) return `${folder} is a file, not a folder`;
    if (held)
      return access(folder, constants.W_OK).then(
        () => undefined,
        () => `the folder ${folder} is not writable`,
      );
    if (dirname(folder) === folder) return undefined;
  }
}

export function parseAllow(value: string, previous: Capability[] = []): Capability[] {
  const names = value
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const unknown = names.filter((name) => !(ALLOWABLE as readonly string[]).includes(name));
  if (unknown.length > 0)
    throw new InvalidArgumentError(`unknown capability "${unknown.join('", "')}"; allowed: ${ALLOWABLE.join(', ')}`);
  return [...new Set([...previous, ...(names as Capability[])])];
}

export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

export function wholeNumber(name: string, min: number, max: number) {
  return (value: string): number => {
    const number = Number(value);
    if (!/^\d+$/.test(value) || number < min || number > max)
      throw new InvalidArgumentError(`${name} must be a whole number from ${min} to ${max}; got "${value}"`);
    return number;
  };
}

/**
 * Parses argv with a commander program: the program when it parsed, 0 after `--help` or `--version`, 2 (with the
 * reason and where help is, on a line starting with `label`) on bad usage.
 */
export function parseWith(
  program: Command,
  argv: readonly string[],
  io: CliIo,
  label = program.name().split(' ').pop(),
): Command | number {
  program.exitOverride().configureOutput({
    writeOut: (text) => io.out(text.trimEnd()),
    writeErr: (text) => io.out(text.trimEnd()),
    outputError: () => undefined,
  });
  const unknown = unknownOption(program, argv);
  if (unknown) {
    io.err(`${label}: ${unknown} (see ${program.name()} --help)`);
    return 2;
  }
  try {
    program.parse([...argv], { from: 'user' });
    return program;
  } catch (error) {
    if (
      error instanceof CommanderError &&
      (error.code === 'commander.helpDisplayed' ||
        error.code === 'commander.help' ||
        error.code === 'commander.version')
    )
      return 0;
    const message = error instanceof Error ? error.message.replace(/^error: /, '') : String(error);
    io.err(`${label}: ${message} (see ${program.name()} --help)`);
    return 2;
  }
}

/**
 * An option the command does not have, named with the closest one it has: checked before commander's
 * own parse, which would first complain of a required option the typo left out (`--targte fake`).
 */
function unknownOption(program: Command, argv: readonly string[]): string | undefined {
  const known = [...program.options.flatMap((option) => [option.long, option.short]), '--help', '-h'].filter(
    (name): name is string => name !== undefined,
  );
  for (const word of argv) {
    if (word === '--') return undefined;
    if (!word.startsWith('--')) continue;
    const name = word.split('=')[0]!;
    if (known.includes(name)) continue;
    const near = closestName(
      name,
      known.filter((option) => option.startsWith('--')),
    );
    return `unknown option '${name}'${near ? ` (did you mean ${near}?)` : ''}`;
  }
  return undefined;
}
