import { describe, it } from '@jest/globals';
import type { Capability } from '../core/capabilities.js';
import { CHECKS } from '../checks/registry.js';
import { failureBlock } from '../report/terminal-report.js';
import { skipReason, type RunningTarget } from '../targets/target.js';
import { runCheck } from '../runner/run-check.js';
import type { CheckResult } from '../runner/check-result.js';
import type { SuiteSettings } from '../runner/target-session.js';

/** A target as jest needs it: what it supports is known before it starts, so skips are registered as skips. */
export interface ContractSuiteDefinition {
  title: string;
  capabilities: Capability[];
  lacking: Partial<Record<Capability, string>>;
  /** Starts (or connects to) the target, once, before its first check. */
  start(): Promise<RunningTarget>;
  /** Seed, runs and request budget; default a fresh seed (or env PETSTORE_CONTRACT_SEED). */
  settings?: SuiteSettings;
}

/**
 * Registers one jest test per check of the registry against a target. Jest cannot turn a running test
 * into a skip, and a check can learn only from the target's answers that it cannot run (a key whose
 * window no run may drive, a service that sends no such header), so the checks run first, while the file
 * is collected; then a check skipped for any reason is `it.skip` with the reason in its title, never a
 * pass, and a failed check is a failed test with its reproduction. Await it at the top of the test file.
 * @example await describeContractSuite({ title: 'fake', capabilities: FAKE_CAPABILITIES, lacking: {}, start: startFakeTarget });
 */
export async function describeContractSuite(definition: ContractSuiteDefinition): Promise<void> {
  const results = new Map<string, CheckResult | Error>();
  const runnable = CHECKS.filter((check) => skipReason(check.needs, definition) === undefined);
  if (runnable.length > 0) {
    const target = await definition.start();
    try {
      for (const check of runnable) {
        const options = definition.settings ? { settings: definition.settings } : {};
        results.set(
          check.name,
          await runCheck(check, target.descriptor, options).catch((error: unknown) =>
            error instanceof Error ? error : new Error(String(error)),
          ),
        );
      }
    } finally {
      await target.close();
    }
  }

  describe(`contract suite against ${definition.title}`, () => {
    for (const test of contractTests(definition, results)) {
      if (test.skipped) it.skip(test.title, () => undefined);
      else it(test.title, test.verdict);
    }
  });
}

/** One jest test of a check: skipped (its title says why), or a verdict that throws what the check found. */
export type ContractTest = { title: string; skipped: true } | { title: string; skipped: false; verdict(): void };

/** The tests of every check of the registry, from what each did against the target (absent: not run). */
export function contractTests(
  definition: Pick<ContractSuiteDefinition, 'title' | 'capabilities' | 'lacking'>,
  results: ReadonlyMap<string, CheckResult | Error>,
): ContractTest[] {
  return CHECKS.map((check): ContractTest => {
    const result = results.get(check.name);
    const reason = result === undefined ? skipReason(check.needs, definition) : skippedAtRunTime(result);
    if (reason !== undefined) return { title: `${check.name} (skipped: ${reason})`, skipped: true };
    return {
      title: check.name,
      skipped: false,
      verdict() {
        if (result === undefined) throw new Error(`${check.name} did not run against ${definition.title}`);
        if (result instanceof Error) throw result;
        if (result.outcome === 'failed') throw new Error(failureBlock(result));
      },
    };
  });
}

function skippedAtRunTime(result: CheckResult | Error): string | undefined {
  if (result instanceof Error || result.outcome !== 'skipped') return undefined;
  return `at run time: ${result.reason ?? 'no reason given'}`;
}
