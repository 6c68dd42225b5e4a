import { Command, InvalidArgumentError } from 'commander';
import type { Capability } from '../core/capabilities.js';
import { collect, parseAllow, wholeNumber } from './cli-common.js';

/** The command line of docs/explanation/design.md section 4, parsed. */
export interface ContractCliOptions {
  /** One or more: each is run with the same checks and seed, then compared in one matrix. */
  targets: string[];
  apiKey?: string;
  allow: Capability[];
  junit?: string;
  json?: string;
  seed?: number;
  runs?: number;
  maxRequests?: number;
  maxMinutes?: number;
  maxConcurrency?: number;
  minCoverage?: number;
  /** A SHOULD of the rule table (hardening included) fails instead of warning. */
  strict?: boolean;
}

function percent(value: string): number {
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number) || number < 0 || number > 100)
    throw new InvalidArgumentError(`--min-coverage must be a percentage from 0 to 100; got "${value}"`);
  return number;
}

/** What the suite's exit status means (its help and the CLI reference say it). */
export const CONTRACT_EXIT =
  'Exit: 0 every applicable check passed (and coverage reached --min-coverage); 1 a check failed or coverage fell short; 2 bad usage, or a target is unreachable.';

/** The suite's command line (`command` names it in usage); `parseWith` parses it. */
export function contractProgram(command: string): Command {
  return new Command(command)
    .description('Runs the contract suite of spec/openapi.yaml against the fake, Prism, or a live base URL.')
    .requiredOption(
      '--target <target>',
      'fake | prism | a base URL ending in /v1; repeat it to compare targets in one matrix',
      collect,
    )
    .option('--api-key <key>', 'the key for a URL target (default: env PETSTORE_API_KEY)')
    .option(
      '--allow <list>',
      'what a URL target permits: writes (creates categories), quota (drives the key to one 429; never to a ban)',
      parseAllow,
    )
    .option('--junit <file>', 'write a JUnit XML report')
    .option('--json <file>', 'write a machine-readable JSON report')
    .option(
      '--seed <n>',
      'seed of the generated cases (printed on every run); the same seed replays the same cases',
      wholeNumber('--seed', 0, 2 ** 31 - 1),
    )
    .option(
      '--runs <n>',
      'generated cases per property, beyond the fixed boundaries (default 100; 20 on a URL target)',
      wholeNumber('--runs', 0, 100_000),
    )
    .option(
      '--max-requests <n>',
      'the most requests sent to each target; checks past it are skipped, and the run says how many it sent',
      wholeNumber('--max-requests', 1, 10_000_000),
    )
    .option(
      '--max-minutes <n>',
      'the most minutes spent on each target (waits for quota windows included); checks that would not fit are left out, and the run names them',
      wholeNumber('--max-minutes', 1, 24 * 60),
    )
    .option(
      '--max-concurrency <n>',
      'the most requests in flight at once when the suite acts as several clients (default 4)',
      wholeNumber('--max-concurrency', 1, 64),
    )
    .option(
      '--strict',
      'a SHOULD of the rules under the spec (RFC SHOULDs, OWASP hardening such as Cache-Control: no-store) fails a check instead of warning',
    )
    .option(
      '--min-coverage <percent>',
      "fail (exit 1) when a target's operation x status x header coverage is below this",
      percent,
    )
    .addHelpText(
      'after',
      `\nCommands (each has its own --help):\n  ${command} watch --upstream URL    a proxy that judges real traffic\n  ${command} replay FILE.har --target T   replays recorded traffic against targets\n\n${CONTRACT_EXIT}`,
    );
}

/** The options of a parsed {@link contractProgram}, as the run takes them. */
export function contractOptions(parsed: Command): ContractCliOptions {
  const { target, allow, ...rest } = parsed.opts<
    Omit<ContractCliOptions, 'targets' | 'allow'> & { target: string[]; allow?: Capability[] }
  >();
  const defined = Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined));
  return { targets: target, allow: allow ?? [], ...defined };
}
