import { Command, CommanderError, InvalidArgumentError } from 'commander';
import type { Capability } from '../checks/check.js';
import { UsageError } from '../targets/target-errors.js';
import { ALLOWABLE } from '../targets/url-target.js';

/** The command line of design.md section 4, parsed. */
export interface ContractCliOptions {
  target: string;
  apiKey?: string;
  allow: Capability[];
  junit?: string;
  json?: string;
}

/** `--help` was asked for: print it and exit 0. */
export class HelpRequested extends Error {
  override readonly name = 'HelpRequested';
}

function parseAllow(value: string, previous: Capability[] = []): Capability[] {
  const names = value.split(',').map((name) => name.trim()).filter((name) => name !== '');
  const unknown = names.filter((name) => !(ALLOWABLE as readonly string[]).includes(name));
  if (unknown.length > 0) throw new InvalidArgumentError(`unknown capability "${unknown.join('", "')}"; allowed: ${ALLOWABLE.join(', ')}`);
  return [...new Set([...previous, ...(names as Capability[])])];
}

function program(write: (text: string) => void): Command {
  return new Command('npm run contract --')
    .description('Runs the contract suite of spec/openapi.yaml against the fake, Prism, or a live base URL.')
    .requiredOption('--target <target>', 'fake | prism | a base URL ending in /v1')
    .option('--api-key <key>', 'the key for a URL target (default: env PETSTORE_API_KEY)')
    .option('--allow <list>', 'what a URL target permits: writes (creates categories), quota (drives the key to one 429; never to a ban)', parseAllow)
    .option('--junit <file>', 'write a JUnit XML report')
    .option('--json <file>', 'write a machine-readable JSON report')
    .addHelpText('after', '\nExit: 0 every applicable check passed; 1 a check failed; 2 bad usage, or the target is unreachable.')
    .exitOverride()
    .configureOutput({ writeOut: write, writeErr: write, outputError: () => undefined });
}

/**
 * Parses the arguments after `npm run contract --`. Throws {@link UsageError} (exit 2) on anything wrong,
 * {@link HelpRequested} (exit 0) for `--help`.
 * @example parseContractCli(['--target', 'fake', '--junit', 'reports/contract.xml'], console.log)
 */
export function parseContractCli(argv: readonly string[], write: (text: string) => void): ContractCliOptions {
  const command = program(write);
  try {
    command.parse([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError && (error.code === 'commander.helpDisplayed' || error.code === 'commander.help')) {
      throw new HelpRequested();
    }
    const message = error instanceof Error ? error.message.replace(/^error: /, '') : String(error);
    throw new UsageError(`${message} (see npm run contract -- --help)`);
  }
  const options = command.opts<{ target: string; apiKey?: string; allow?: Capability[]; junit?: string; json?: string }>();
  return {
    target: options.target,
    allow: options.allow ?? [],
    ...(options.apiKey !== undefined && { apiKey: options.apiKey }),
    ...(options.junit !== undefined && { junit: options.junit }),
    ...(options.json !== undefined && { json: options.json }),
  };
}
