import { Command, InvalidArgumentError } from 'commander';
import type { Capability } from '../core/capabilities.js';
import { collect, parseAllow, wholeNumber } from './cli-common.js';
import { packageVersion } from './version.js';
import { extraHeader } from './extra-headers.js';

/** The command line of docs/explanation/design.md section 4, parsed. */
export interface ContractCliOptions {
  /** One or more: each is run with the same checks and seed, then compared in one matrix. */
  targets: string[];
  /** `--require-complete`: a run that did less than asked fails. */
  requireComplete?: boolean;
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
  allowUpstreamErrors?: boolean;
  sharedKey?: boolean;
  /** Names or globs of the checks to run (`--checks`); default every one. */
  checks?: string[];
  /** Names or globs of checks to leave out (`--skip-checks`). */
  skipChecks?: string[];
  /** `--header 'Name: value'`, repeated: on every request, never judged. */
  header?: Array<[string, string]>;
  /** Show the `--header` headers in the reports' curl. */
  curlWithHeaders?: boolean;
  baseline?: string;
  updateBaseline?: boolean;
  /** operationIds or tags (`--operations`): the only operations the run sends to. */
  operations?: string[];
  html?: string;
}

function percent(value: string): number {
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number) || number < 0 || number > 100)
    throw new InvalidArgumentError(`--min-coverage must be a percentage from 0 to 100; got "${value}"`);
  return number;
}

/** A comma-separated list of names, added to those of an earlier use of the flag. */
function names(value: string, previous: string[] = []): string[] {
  return [
    ...previous,
    ...value
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name !== ''),
  ];
}

/** What the suite's exit status means (its help and the CLI reference say it). */
export const CONTRACT_EXIT =
  'Exit: 0 every applicable check passed (and coverage reached --min-coverage) and every request was answered; 1 a check failed, coverage fell short, the target left some requests unanswered (unless --allow-upstream-errors), or with --require-complete the run did less than asked; 2 bad usage, a report path that cannot be written, a target that is unreachable, is not this API (an HTML page, a redirect, not JSON, no X-RateLimit-*) or refuses or bans the key, or one that answered none of its requests.';

/** The suite's command line (`command` names it in usage); `parseWith` parses it. */
export function contractProgram(command: string): Command {
  return new Command(command)
    .description('Runs the contract suite of spec/openapi.yaml against the fake, Prism, or a live base URL.')
    .version(packageVersion(), '-V, --version', 'the version of the harness')
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
      '--html <file>',
      'write one self-contained HTML report: the check x target matrix, coverage heat map, failures with curl, waits',
    )
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
      'the most requests sent to each target (default on a URL: 5000, which keeps an enterprise key from driving its windows); a check that drives a window is refused up front when it cannot fit, others past it are skipped',
      wholeNumber('--max-requests', 1, 10_000_000),
    )
    .option(
      '--max-minutes <n>',
      'the most minutes spent on each target (default on a URL: 30), waits included; checks that would not fit are left out, and a wait the target asks for past it is a finding (its check not completed)',
      wholeNumber('--max-minutes', 1, 24 * 60),
    )
    .option(
      '--max-concurrency <n>',
      'the most requests in flight at once when the suite acts as several clients (default 4)',
      wholeNumber('--max-concurrency', 1, 64),
    )
    .option(
      '--require-complete',
      "fail (exit 1) when the run did less than asked: checks left out by --max-minutes or --max-requests, checks not completed (interrupted, a wait no run can hold, the key's quota used up, the target silent), evidence of the catalogue not tried",
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
    .option(
      '--allow-upstream-errors',
      'requests a target did not answer (refused, reset, timed out) are reported, and the checks they stopped reported not completed, without failing the run; a target that answered none still exits 2',
    )
    .option(
      '--checks <list>',
      'run only these checks: names or globs (* any run of characters, ? one), comma-separated or repeated; `checks` lists them',
      names,
    )
    .option('--skip-checks <list>', 'leave these checks out: names or globs, comma-separated or repeated', names)
    .option(
      '--operations <list>',
      'send only to these operations: operationIds or tags, comma-separated or repeated; a check that needs another is skipped, naming it',
      names,
    )
    .option(
      '--header <Name: value>',
      "add a header to every request (a gateway's, tracing's); repeatable; never judged, and left out of the reports' curl unless --curl-with-headers",
      extraHeader,
    )
    .option('--curl-with-headers', 'show the --header headers in the curl of every failure (they may be secrets)')
    .option(
      '--baseline <file>',
      'JSON { accepted: [{ check, operation?, promise?, why, until }] } of known failures: the run fails only on others, lists what it excused, what no longer fails and what expired (expired entries fail again)',
    )
    .option(
      '--update-baseline',
      "write every failure of this run to --baseline's file (default contract-baseline.json), accepted for 30 days; keeps the entries still live",
    )
    .option(
      '--shared-key',
      "others use the key while the suite runs: skip the checks that count its every request, and judge the quota only where their traffic cannot explain an answer (default: the key is the suite's alone, judged exactly)",
    )
    .addHelpText(
      'after',
      `\nCommands (each has its own --help):\n  ${command} watch --upstream URL    a proxy that judges real traffic\n  ${command} replay FILE.har --target T   replays recorded traffic against targets\n  ${command} checks                  lists every check without running it\n\n${CONTRACT_EXIT}`,
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
