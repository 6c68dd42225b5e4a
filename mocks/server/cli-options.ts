import { readFileSync } from 'node:fs';
import { Command, InvalidArgumentError, Option } from 'commander';
import { ConfigError } from '../domain/config-error.js';
import { parseFaultRules, parseLatency } from '../domain/faults.js';
import { apiKeysFromConfig } from '../domain/plans.js';
import { EMPTY_SEED, seedFromConfig } from '../domain/seed.js';
import type { FakeServerOptions } from './index.js';

function readJsonFile(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(
      path,
      '',
      `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ConfigError(path, '', `is not valid JSON (${(error as Error).message})`);
  }
}

function integerIn(min: number, max: number) {
  return (value: string): number => {
    const number = Number(value);
    if (!/^\d+$/.test(value) || number < min || number > max)
      throw new InvalidArgumentError(`expected an integer from ${min} to ${max}.`);
    return number;
  };
}

function instant(value: string): Date {
  const date = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(date.getTime()))
    throw new InvalidArgumentError('expected an ISO 8601 date, e.g. 2027-07-01 or 2027-07-01T00:00:00Z.');
  return date;
}

function redisUrl(value: string): string {
  if (!/^rediss?:\/\/[^\s]+$/.test(value))
    throw new InvalidArgumentError('expected redis://HOST:PORT[/DB] (or rediss:// for TLS).');
  return value;
}

function latencyRange(value: string): [number, number] {
  try {
    return parseLatency(value, '--latency');
  } catch (error) {
    throw new InvalidArgumentError(`${(error as ConfigError).problem}.`);
  }
}

/** What the standalone server's exit status means. */
export const FAKE_EXIT =
  'Exit: 0 stopped by SIGINT or SIGTERM; 2 bad flags or configuration (the message names the file and the entry), the port in use, or Redis unreachable at start.';

/**
 * The standalone server's command line, its usage naming `command` (`npm start --` or `petstore-fake`).
 * `exitOverride` lets tests and the script decide how to exit.
 */
export function fakeServerCommand(command = 'petstore-fake'): Command {
  return new Command(command)
    .description('The Pet Store fake as a standalone HTTP server (the API under /v1).')
    .version(packageVersion(), '-V, --version', 'the version of the harness')
    .option('--host <address>', 'address to listen on; beyond loopback, /__admin needs --admin-token', '127.0.0.1')
    .option('--port <number>', 'port to listen on; 0 picks a free one (printed)', integerIn(0, 65_535), 4010)
    .option('--keys <file>', 'JSON array of { key, plan, perMinute?, perDay? } replacing the default keys')
    .addOption(
      new Option('--seed <file>', 'JSON { categories, pets, orders } replacing the default records').conflicts('empty'),
    )
    .option('--empty', 'start with no records at all')
    .option('--ban-threshold <n>', 'more than n 429s in a minute window ban the key', integerIn(1, 1_000_000), 10)
    .option('--ban-seconds <n>', 'how long a ban lasts', integerIn(1, 31_536_000), 300)
    .option('--pets-sunset <date>', 'when GET /pets/{petId} starts answering 410', instant)
    .option('--faults <file>', 'JSON array of fault rules applied from the start; reset keeps them')
    .option(
      '--latency <ms>',
      'delay every answer under /v1: MS, or MIN-MAX for a uniform range (e.g. 200-1500)',
      latencyRange,
    )
    .addOption(
      new Option('--store <url>', 'keep the state in Redis, shared by every instance: redis://HOST:PORT[/DB]')
        .env('PETSTORE_STORE')
        .argParser(redisUrl),
    )
    .option('--store-prefix <prefix>', 'start of every Redis key, so several fakes can share one Redis', 'petstore:')
    .option('--admin-token <token>', 'require Authorization: Bearer <token> on /__admin (enables it beyond loopback)')
    .option('--quiet', 'do not log one line per request')
    .exitOverride()
    .configureOutput({ writeErr: () => undefined, writeOut: () => undefined });
}

/** The package's version: package.json two folders up from here (mocks/server/) and from the bin (dist/bin/). */
function packageVersion(): string {
  return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string })
    .version;
}

/** Raw values commander produced. */
interface ParsedFlags {
  host: string;
  port: number;
  keys?: string;
  seed?: string;
  empty?: boolean;
  banThreshold: number;
  banSeconds: number;
  petsSunset?: Date;
  adminToken?: string;
  faults?: string;
  latency?: [number, number];
  store?: string;
  storePrefix: string;
  quiet?: boolean;
}

/**
 * Turns command-line flags into server options, reading `--keys` and `--seed` files;
 * a bad file throws a {@link ConfigError} naming the file and the entry.
 * @example serverOptionsFromArgs(['--port', '0', '--empty'])
 */
export function serverOptionsFromArgs(args: readonly string[]): FakeServerOptions & { quiet: boolean } {
  const flags = fakeServerCommand()
    .parse([...args], { from: 'user' })
    .opts<ParsedFlags>();
  const options: FakeServerOptions & { quiet: boolean } = {
    host: flags.host,
    port: flags.port,
    ban: { threshold: flags.banThreshold, seconds: flags.banSeconds },
    quiet: flags.quiet === true,
  };
  if (flags.keys !== undefined) options.keys = apiKeysFromConfig(readJsonFile(flags.keys), flags.keys);
  if (flags.seed !== undefined) options.seed = seedFromConfig(readJsonFile(flags.seed), flags.seed);
  if (flags.empty) options.seed = EMPTY_SEED;
  if (flags.petsSunset) options.petsSunset = flags.petsSunset;
  if (flags.adminToken !== undefined) options.adminToken = flags.adminToken;
  if (flags.faults !== undefined) options.faults = parseFaultRules(readJsonFile(flags.faults), flags.faults);
  if (flags.latency !== undefined) options.latency = flags.latency;
  if (flags.store !== undefined) options.redis = { url: flags.store, prefix: flags.storePrefix };
  return options;
}
