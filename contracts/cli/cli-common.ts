import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Capability } from '../core/capabilities.js';
import { ALLOWABLE } from '../targets/url-target.js';

/** Where a command writes, what it reads from its environment, and the name it was run by (injected, for tests). */
export interface CliIo {
  /** Writes a line of the report (standard output for the bins). */
  out(line: string): void;
  /** Writes a line of usage or error (standard error for the bins). */
  err(line: string): void;
  env: NodeJS.ProcessEnv;
  /** The command as the user typed it, for usage and help: `petstore-contract` (the default) or `npm run contract --`. */
  command?: string;
}

/** The name usage and help give the command. */
export const commandOf = (io: CliIo): string => io.command ?? 'petstore-contract';

export async function writeReport(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, text);
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
