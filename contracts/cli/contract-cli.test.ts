/** @startsFirst the URL run against a broken service waits for its address's window (test/waiting-first-sequencer.js). */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeServer, type RunningFakeServer } from '../../mocks/server/index.js';
import { brokenVariant } from '../broken-variants/index.js';
import { CHECKS } from '../checks/registry.js';
import type { ContractReport } from '../report/suite-report.js';
import { capturedIo } from './captured-io.js';
import { runContractCli } from './run-contract-cli.js';
import { freeLoopbackPort } from '../targets/free-port.js';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Runs `npm run contract -- <args>` as a user would (without npm's banner), never with a key from outside. */
async function contract(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const { PETSTORE_API_KEY: _ignored, ...parentEnv } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/contract.ts', ...args], {
    cwd: REPO_ROOT,
    env: { ...parentEnv, ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, stdout, stderr };
}

describe('npm run contract', () => {
  let reports: string;
  beforeAll(async () => {
    reports = await mkdtemp(join(tmpdir(), 'contract-cli-'));
  });
  afterAll(async () => {
    await rm(reports, { recursive: true, force: true });
  });

  describe('exits 2 with a clear message', () => {
    it('for a URL target without a key', async () => {
      const { code, stderr } = await contract(['--target', 'http://127.0.0.1:9/v1']);
      expect(code).toBe(2);
      expect(stderr).toContain('a URL target needs an API key: pass --api-key KEY or set PETSTORE_API_KEY');
    }, 60_000);

    // The rest in this process: the exit code above is the process's; a Node start per case only costs CI time.
    it('for an unreachable URL (a loopback port nothing listens on)', async () => {
      const port = await freeLoopbackPort();
      const { io, err } = capturedIo();
      expect(await runContractCli(['--target', `http://127.0.0.1:${port}/v1`, '--api-key', 'free-test-key'], io)).toBe(
        2,
      );
      expect(err.join('\n')).toContain(`target http://127.0.0.1:${port}/v1 is unreachable (ECONNREFUSED)`);
    }, 60_000);

    it.each([
      [[], "required option '--target <target>' not specified"],
      [['--target', 'http://127.0.0.1:9/api'], 'must be the base address, ending in /v1'],
      [['--target', 'fake', '--allow', 'writes,everything'], 'unknown capability "everything"; allowed: writes, quota'],
      [['--target', 'fake', '--verbose'], "unknown option '--verbose'"],
      [['--target', 'fake', '--seed', 'abc'], '--seed must be a whole number from 0 to 2147483647; got "abc"'],
      [['--target', 'fake', '--min-coverage', '150'], '--min-coverage must be a percentage from 0 to 100; got "150"'],
      [
        ['--target', 'fake', '--max-requests', '0'],
        '--max-requests must be a whole number from 1 to 10000000; got "0"',
      ],
    ])(
      'for bad usage: %j',
      async (args, message) => {
        const { io, err } = capturedIo();
        expect(await runContractCli(args, io)).toBe(2);
        expect(err.join('\n')).toContain(message);
      },
      60_000,
    );
  });

  it('exits 0 on the fake, one line per check, the seed, requests and coverage, and writes the JUnit and JSON reports', async () => {
    const junit = join(reports, 'fake', 'contract.xml');
    const json = join(reports, 'fake', 'contract.json');
    const { code, stdout } = await contract(['--target', 'fake', '--seed', '1234', '--junit', junit, '--json', json]);
    expect(code).toBe(0);
    for (const check of CHECKS) expect(stdout).toContain(`PASS  ${check.name}`);
    expect(stdout).toMatch(
      new RegExp(`${CHECKS.length} passed, 0 failed, 0 skipped in [\\d.]+ s; \\d+ requests sent to fake`),
    );
    expect(stdout).toContain('Coverage: 117 of 117 documented operation x status x header exercised (100.0%)');
    expect(stdout).toContain('Replay these cases with: --seed 1234');
    const report = JSON.parse(await readFile(json, 'utf8')) as ContractReport;
    expect(report.seed).toBe(1234);
    expect(report.targets[0]!.summary).toEqual({ passed: CHECKS.length, failed: 0, skipped: 0 });
    expect(report.targets[0]!.coverage.percent).toBe(100);
    expect(report.exitCode).toBe(0);
    // One per check, and target_answered; a check that passed with warnings adds a skipped `<check> warnings`
    // case (a CI tool's way to show them), and nothing else does.
    const cases = [...(await readFile(junit, 'utf8')).matchAll(/<testcase [^>]*name="([^"]*)"/g)].map(
      ([, name]) => name!,
    );
    expect(cases.filter((name) => !name.endsWith(' warnings'))).toHaveLength(CHECKS.length + 1);
  }, 120_000);

  it('exits 0 on Prism with every skip explained, then 1 below --min-coverage, within --max-requests', async () => {
    const { code, stdout } = await contract(['--target', 'prism', '--max-requests', '200']);
    expect(code).toBe(0);
    expect(stdout).toContain('SKIP  invalid_api_key_rejected  skipped: Prism accepts any bearer token');
    expect(stdout).toContain('SKIP  valid_bodies_stored_as_sent  skipped: Prism keeps no state');
    expect(stdout).toContain(
      'SKIP  equivalent_reads_answered_alike  skipped: Prism answers `Authorization: bearer <token>`',
    );
    expect(stdout).toMatch(/; 200 requests sent to prism/);
    // Evidence first: the budget runs out while generated cases repeat it, which a note says.
    expect(stdout).toContain('repetition stopped: the request budget is used up (--max-requests 200)');
    const strict = await contract(['--target', 'prism', '--max-requests', '200', '--min-coverage', '90']);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toMatch(/0 failed/);
    expect(strict.stdout).toMatch(/Coverage of prism is [\d.]+%, below --min-coverage 90/);
  }, 240_000);

  describe('against a broken service given as a URL', () => {
    let broken: RunningFakeServer;
    let seeded: number[];
    const listed = async () =>
      (await (
        await fetch(`${broken.baseUrl}/categories`, { headers: { Authorization: 'Bearer enterprise-test-key' } })
      ).json()) as Array<Record<string, unknown>>;
    beforeAll(async () => {
      const variant = brokenVariant('extra-properties-accepted');
      broken = await startFakeServer({ host: '127.0.0.1', port: 0, ...variant.fake });
      seeded = (await listed()).map(({ id }) => id as number);
    });
    afterAll(async () => {
      await broken.close();
    });

    it('beside the fake: exits 1, prints the failure with curl, the matrix and the disagreement, and never the key', async () => {
      const json = join(reports, 'broken', 'contract.json');
      const junit = join(reports, 'broken', 'contract.xml');
      const { code, stdout } = await contract(
        [
          '--target',
          'fake',
          '--target',
          broken.baseUrl,
          '--allow',
          'writes',
          '--runs',
          '10',
          '--seed',
          '77',
          '--json',
          json,
          '--junit',
          junit,
        ],
        { PETSTORE_API_KEY: 'enterprise-test-key' },
      );
      expect(code).toBe(1);
      expect(stdout).toContain('FAIL  invalid_body_rejected');
      expect(stdout).toMatch(/Received: 201 (for POST \/categories )?\/ Expected: (400|an Error \(400\))/);
      expect(stdout).toContain(
        `Reproduce with: curl -X POST '${broken.baseUrl}/categories' -H 'Accept: application/json' -H "Authorization: Bearer \${PETSTORE_API_KEY}"`,
      );
      expect(stdout).toContain(
        'SKIP  rate_limit_exceeded_answer  skipped: not allowed on this target: pass --allow quota',
      );
      expect(stdout).toMatch(new RegExp(`^invalid_body_rejected\\s+PASS\\s+FAIL$`, 'm'));
      expect(stdout).toContain(`- invalid_body_rejected: passes on fake; fails on ${broken.baseUrl} (`);
      const written = [stdout, await readFile(json, 'utf8'), await readFile(junit, 'utf8')];
      for (const text of written) expect(text).not.toContain('enterprise-test-key');
      const report = JSON.parse(written[1]!) as ContractReport;
      expect(report.exitCode).toBe(1);
      expect(report.targets.map(({ target }) => target.label)).toEqual(['fake', broken.baseUrl]);
      expect(report.disagreements.map(({ check }) => check)).toContain('invalid_body_rejected');
      expect(written[2]!.match(/<testsuite /g)).toHaveLength(2);
      // What the run left on the URL target (nothing of it on the fake, which is reset): every record the
      // target now holds beyond its seed carries the run's mark, and the report lists each of them.
      const left = (await listed()).filter(({ id }) => !seeded.includes(id as number));
      expect(left.length).toBeGreaterThan(10);
      expect(
        left.filter(
          (record) => !Object.values(record).some((value) => typeof value === 'string' && value.startsWith('ct77-')),
        ),
      ).toEqual([]);
      expect(report.targets[0]!.created).toBeUndefined();
      expect(report.targets[1]!.created?.marker).toBe('ct77-');
      expect(report.targets[1]!.created?.records.map(({ record }) => record.id).sort()).toEqual(
        left.map(({ id }) => id).sort(),
      );
      expect(stdout).toMatch(
        new RegExp(
          `Created on the target: ${left.length} by createCategory \\(ids [0-9, ]+\\); each carries the mark ct77-`,
        ),
      );
    }, 180_000);
  });
});
