import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeServer } from '../../mocks/server/index.js';
import { DEFAULT_MAX_REQUESTS } from '../runner/run-bounds.js';
import { WINDOW_DRIVING_CHECKS } from '../runner/run-cost.js';
import { INTERRUPTED } from '../runner/target-session.js';
import { capturedIo } from './captured-io.js';
import { runContractCli } from './run-contract-cli.js';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('a run is bounded, states its cost first, and always ends with a verdict and its reports', () => {
  let reports: string;
  beforeAll(async () => {
    reports = await mkdtemp(join(tmpdir(), 'run-bounds-'));
  });
  afterAll(() => rm(reports, { recursive: true, force: true }));

  it('ends within --max-minutes against a service whose Retry-After points a day ahead, with a finding and every report', async () => {
    // A key whose day window is its tightest: after 30 requests every 429 says to come back tomorrow.
    const service = await startFakeServer({
      port: 0,
      keys: [{ key: 'day-key', plan: 'free', limits: { perMinute: 1_000, perDay: 30 } }],
    });
    const json = join(reports, 'day.json');
    const junit = join(reports, 'day.xml');
    try {
      const { io, out } = capturedIo();
      const started = performance.now();
      const code = await runContractCli(
        [
          '--target',
          service.baseUrl,
          '--api-key',
          'day-key',
          '--max-minutes',
          '1',
          '--runs',
          '1',
          '--json',
          json,
          '--junit',
          junit,
        ],
        io,
      );
      expect(performance.now() - started).toBeLessThan(90_000);
      expect(code).toBe(1);
      const text = out.join('\n');
      expect(text).toMatch(
        /^Wait past the run's bound: \w+ needed \d+ s \(.*\); the run allows 60 s, so it is not completed$/m,
      );
      expect(text).toMatch(/^ {2}the answer that asked for it: 429, Retry-After \d{3,5}, X-RateLimit-Reset \d+$/m);
      const report = JSON.parse(await readFile(json, 'utf8'));
      const [target] = report.targets;
      expect(target.waitsPastBudget.length).toBeGreaterThan(0);
      // The first such wait may come from an admitted answer that used the window up (Reset, no
      // Retry-After); at least one is the 429 that points a day ahead.
      type Wait = { exchange: { retryAfter?: string } };
      expect(target.waitsPastBudget.some((wait: Wait) => Number(wait.exchange.retryAfter) > 60)).toBe(true);
      expect(
        target.results.some((result: { reason?: string }) =>
          result.reason?.startsWith('not completed: the target asked for a'),
        ),
      ).toBe(true);
      expect(await readFile(junit, 'utf8')).toContain('name="waits_within_budget" time="0">\n      <failure');
    } finally {
      await service.close();
    }
  }, 240_000);

  it("states the cost from the first answers and refuses the enterprise key's quota checks past the default --max-requests, before their first request", async () => {
    const service = await startFakeServer({ port: 0 });
    try {
      const { io, out } = capturedIo();
      const json = join(reports, 'enterprise.json');
      const code = await runContractCli(
        [
          '--target',
          service.baseUrl,
          '--api-key',
          'enterprise-test-key',
          '--allow',
          'writes,quota',
          '--seed',
          '11',
          '--json',
          json,
        ],
        io,
      );
      const text = out.join('\n');
      const cost =
        /^Cost of this run: about (\d+) requests \((\d+) of them to drive windows to a 429\), .*about (\d+) records created .*; bounded by --max-requests 5000 and --max-minutes 30$/m.exec(
          text,
        );
      expect(cost).not.toBeNull();
      const [, requests, windows] = cost!.map(Number);
      expect(windows).toBe(WINDOW_DRIVING_CHECKS.size * 5_003);
      // It is stated after the first check, before any check that drives a window.
      expect(text.indexOf('Cost of this run')).toBeLessThan(text.indexOf('rate_limit_exceeded_answer'));
      const report = JSON.parse(await readFile(json, 'utf8'));
      const results = report.targets[0].results as Array<{
        check: string;
        outcome: string;
        reason?: string;
        requests: number;
      }>;
      for (const name of WINDOW_DRIVING_CHECKS)
        expect(results.find((result) => result.check === name)).toMatchObject({
          outcome: 'skipped',
          requests: 0,
          reason: expect.stringMatching(
            new RegExp(
              `^refused before its first request: .*X-RateLimit-Limit 5000.* past --max-requests ${DEFAULT_MAX_REQUESTS} .*; pass --max-requests \\d+ to run it$`,
            ),
          ) as unknown,
        });
      // The estimate of the rest of the run is within a quarter of what it sent.
      const sent = report.targets[0].requests as number;
      expect(Math.abs(requests! - windows! - sent) / sent).toBeLessThan(0.25);
      expect(code).toBe(0);
    } finally {
      await service.close();
    }
  }, 240_000);

  it('stops at SIGTERM, reports what it did and what it did not, writes its JSON and exits 1', async () => {
    const service = await startFakeServer({ port: 0 });
    const json = join(reports, 'stopped.json');
    try {
      const child = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          'scripts/contract.ts',
          '--target',
          service.baseUrl,
          '--api-key',
          'enterprise-test-key',
          '--json',
          json,
        ],
        { cwd: REPO_ROOT },
      );
      let stdout = '';
      let signalled = false;
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (!signalled && /^PASS /m.test(stdout)) {
          signalled = true;
          child.kill('SIGTERM');
        }
      });
      const [code] = (await once(child, 'close')) as [number | null];
      expect(code).toBe(1);
      expect(stdout).toMatch(
        /^Interrupted: \d+ checks not completed; the verdict is a failure, and every report asked for is written$/m,
      );
      const report = JSON.parse(await readFile(json, 'utf8'));
      expect(report.exitCode).toBe(1);
      expect(report.targets[0].results.at(-1).reason).toMatch(new RegExp(`^${INTERRUPTED}`));
    } finally {
      await service.close();
    }
  }, 120_000);
});
