import { describe, expect, it } from '@jest/globals';
import { CHECKS } from '../checks/registry.js';
import type { CheckResult } from '../runner/check-result.js';
import { contractTests, type ContractTest } from './describe-contract-suite.js';

const target = { title: 'a target', capabilities: [], lacking: {} };
const [first, second, third] = CHECKS.filter((check) => check.needs.length === 0);

function resultOf(
  check: CheckResult['check'],
  outcome: CheckResult['outcome'],
  extra: Partial<CheckResult> = {},
): CheckResult {
  return { check, verifies: '', outcome, notes: [], durationMs: 1, requests: 1, observed: [], ...extra };
}

const testOf = (tests: ContractTest[], name: string) => tests.find((test) => test.title.startsWith(name))!;

describe('contractTests', () => {
  const tests = contractTests(
    target,
    new Map([
      [first!.name, resultOf(first!.name, 'skipped', { reason: "the key's window is shared" })],
      [second!.name, resultOf(second!.name, 'failed', { failure: { title: 'a 500', lines: ['Received 500'] } })],
      [third!.name, resultOf(third!.name, 'passed')],
    ]),
  );

  it('makes a check skipped at run time a skipped test that says why, never a pass', () => {
    expect(testOf(tests, first!.name)).toEqual({
      title: `${first!.name} (skipped: at run time: the key's window is shared)`,
      skipped: true,
    });
  });

  it('fails the test of a failed check with its failure, and passes that of a passed one', () => {
    const failed = testOf(tests, second!.name);
    const passed = testOf(tests, third!.name);
    if (failed.skipped || passed.skipped) throw new Error('neither was skipped');
    expect(() => failed.verdict()).toThrow('a 500');
    expect(() => passed.verdict()).not.toThrow();
  });

  it('skips a check the target cannot support, with the reason, and fails one that never ran', () => {
    const stateless = CHECKS.find((check) => check.needs.length === 1 && check.needs[0] === 'stateful')!;
    const lacking = contractTests({ ...target, lacking: { stateful: 'it keeps no state' } }, new Map());
    expect(testOf(lacking, stateless.name)).toMatchObject({
      skipped: true,
      title: expect.stringContaining('it keeps no state'),
    });
    const neverRan = testOf(lacking, third!.name);
    if (neverRan.skipped) throw new Error('a check the target supports was skipped');
    expect(() => neverRan.verdict()).toThrow('did not run against a target');
  });
});
