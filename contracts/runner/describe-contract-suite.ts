import { afterAll, beforeAll, describe, it } from '@jest/globals';
import type { Capability } from '../checks/check.js';
import { CHECKS } from '../checks/registry.js';
import { failureBlock } from '../report/terminal-report.js';
import { skipReason, type RunningTarget } from '../targets/target.js';
import type { CheckResult } from './check-result.js';
import { runCheck } from './run-check.js';
import type { SuiteSettings } from './target-session.js';

/** A target as jest needs it: what it supports is known before it starts, so skips are registered as skips. */
export interface ContractSuiteDefinition {
  title: string;
  capabilities: Capability[];
  lacking: Partial<Record<Capability, string>>;
  start(): Promise<RunningTarget>;
  /** Seed, runs and request budget; default a fresh seed (or env PETSTORE_CONTRACT_SEED). */
  settings?: SuiteSettings;
  onResult?(result: CheckResult): void;
  onNote?(check: string, message: string): void;
  /** Per check; live targets may wait out rate-limit windows. */
  checkTimeoutMs?: number;
  startTimeoutMs?: number;
}

/**
 * Registers one jest test per check of the registry against a target: started in `beforeAll`, always
 * closed in `afterAll`; a check the target cannot support is `it.skip` with the reason in its title.
 * @example describeContractSuite({ title: 'fake', capabilities: FAKE_CAPABILITIES, lacking: {}, start: startFakeTarget });
 */
export function describeContractSuite(definition: ContractSuiteDefinition): void {
  describe(`contract suite against ${definition.title}`, () => {
    let target: RunningTarget | undefined;
    beforeAll(async () => {
      target = await definition.start();
    }, definition.startTimeoutMs ?? 120_000);
    afterAll(async () => {
      await target?.close();
    });

    for (const check of CHECKS) {
      const reason = skipReason(check.needs, definition);
      if (reason !== undefined) {
        it.skip(`${check.name} (skipped: ${reason})`, () => undefined);
        continue;
      }
      it(check.name, async () => {
        if (!target) throw new Error(`the ${definition.title} target did not start`);
        const result = await runCheck(check, target.descriptor, {
          onNote: (message) => definition.onNote?.(check.name, message),
          ...(definition.settings && { settings: definition.settings }),
        });
        definition.onResult?.(result);
        if (result.outcome === 'failed') throw new Error(failureBlock(result));
      }, definition.checkTimeoutMs ?? 60_000);
    }
  });
}
