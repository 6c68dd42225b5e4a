import { Command } from 'commander';
import { CHECKS } from '../checks/registry.js';
import { CAPABILITIES } from '../core/capabilities.js';
import { WINDOW_DRIVING_CHECKS } from '../runner/run-cost.js';
import { commandOf, parseWith, type CliIo } from './cli-common.js';
import { packageVersion } from './version.js';

/** `checks`' command line, under the suite's `command`. */
export function checksProgram(command: string): Command {
  return new Command(`${command} checks`)
    .description(
      'Lists every check of the suite without running it: what it verifies, the capabilities a target needs for it, and whether it sends writes or drives the quota.',
    )
    .version(packageVersion(), '-V, --version', 'the version of the harness')
    .option('--json', 'one JSON array instead of text', false);
}

/** What sending a check means to a live target, as a user weighs it before `--allow`. */
function sends(needs: readonly string[], name: string): string {
  if (WINDOW_DRIVING_CHECKS.has(name)) return "drives the key's window to a 429 (--allow quota)";
  if (needs.includes('quota')) return 'uses up quota (--allow quota; the fake only where it needs the clock)';
  if (needs.includes('writes')) return 'creates categories (--allow writes)';
  return 'reads only (and requests that cannot change anything)';
}

/** Runs `checks`: prints every check, in the order a run runs them. Resolves with the exit code. */
export async function runChecksCli(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseWith(checksProgram(commandOf(io)), argv, io);
  if (typeof parsed === 'number') return parsed;
  const rows = CHECKS.map(({ name, verifies, needs }) => ({
    name,
    verifies,
    needs: [...needs],
    writes: needs.includes('writes'),
    sends: sends(needs, name),
  }));
  if (parsed.opts<{ json: boolean }>().json) {
    io.out(JSON.stringify(rows, null, 2));
    return 0;
  }
  for (const row of rows) {
    io.out(`${row.name}`);
    io.out(`  verifies: ${row.verifies}`);
    io.out(
      `  needs: ${row.needs.length === 0 ? 'nothing beyond an answering target' : row.needs.map((need) => `${need} (${CAPABILITIES[need as keyof typeof CAPABILITIES]})`).join('; ')}`,
    );
    io.out(`  sends: ${row.sends}`);
  }
  io.out(`${rows.length} checks; run some with --checks NAME,GLOB* and leave some out with --skip-checks`);
  return 0;
}
