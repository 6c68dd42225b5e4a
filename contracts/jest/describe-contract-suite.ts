import { afterAll, beforeAll, describe, it } from '@jest/globals';
import type { Capability } from '../core/capabilities.js';
import { CHECKS } from '../checks/registry.js';
import { failureBlock } from '../report/terminal-report.js';
import { skipReason, type RunningTarget } from '../targets/target.js';
import { runCheck } from '../runner/run-check.js';
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
 * Registers one jest test per check of the registry against a target: started in `beforeAll`, always
 * closed in `afterAll`; a check the target cannot support is `it.skip` with the reason in its title.
 * @example describeContractSuite({ title: 'fake', capabilities: FAKE_CAPABILITIES, lacking: {}, start: startFakeTarget });
 */
export function describeContractSuite(definition: ContractSuiteDefinition): void {
  describe(`contract suite against ${definition.title}`, () => {
    let target: RunningTarget | undefined;
    beforeAll(async () => {
      target = await definition.start();
    }, 120_000);
    afterAll(async () => {
      await target?.close();
    });

    for (const check of CHECKS) {
      const reason = skipReason(check.needs, definition);
      if (reason !== undefined) {
        it.skip(`${check.name} (skipped: ${reason})`, () => undefined);
        continue;
      }
      it(
        check.name,
        async () => {
          if (!target) throw new Error(`the ${definition.title} target did not start`);
          const result = await runCheck(
            check,
            target.descriptor,
            definition.settings ? { settings: definition.settings } : {},
          );
          if (result.outcome === 'failed') throw new Error(failureBlock(result));
        },
        60_000,
      );
    }
  });
}
