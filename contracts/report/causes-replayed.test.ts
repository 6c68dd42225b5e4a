import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeServer, type RunningFakeServer } from '../../mocks/server/index.js';
import { override } from '../../mocks/handlers/typed-override.js';
import { capturedIo } from '../cli/captured-io.js';
import { runContractCli } from '../cli/run-contract-cli.js';
import type { FindingCause } from './findings-by-cause.js';
import type { SuiteReport } from './suite-report.js';

// A service with three distinct defects of one rule (a cache in front that mishandles If-None-Match, in
// three ways on three reads) and one failure that names no finding (its creates drop the connection).
// Every failed check must stand under a cause, each cause with its own reproduction, and each
// reproduction, run in bash, must get the status the suite got.

const KEY = 'enterprise-test-key';
const ORDERS_TAG = '"orders-1"';

/** The answer as a cache's 304: the fake's headers, no content. */
const notModified = (answer: { status: number; headers: Record<string, string> }) => ({
  ...answer,
  status: 304,
  body: undefined,
});

let service: RunningFakeServer;
let reports: string;
let report: SuiteReport & { causes: FindingCause[] };
let stdout = '';
let exitCode = -1;

beforeAll(async () => {
  reports = await mkdtemp(join(tmpdir(), 'causes-'));
  service = await startFakeServer({
    port: 0,
    overrides: [
      // 1. Any entity tag on the list is "current", though the list never offered one.
      override.get('/categories', async ({ request, next }) =>
        request.header('if-none-match') ? notModified(await next()) : next(),
      ),
      // 2. The orders offer an ETag, and a request that sends it back gets the full answer again.
      override.get('/store/orders', async ({ next }) => {
        const answer = await next();
        return { ...answer, headers: { ...answer.headers, ETag: ORDERS_TAG } };
      }),
      // 3. `If-None-Match: *` is a 304 even where there is no pet.
      override.get('/pets/{petId}', async ({ request, next }) => {
        const answer = await next();
        return request.header('if-none-match') === '*' && answer.status === 404 ? notModified(answer) : answer;
      }),
    ],
    // A failure no finding names: every create ends the connection without an answer.
    faults: [{ id: 'drop-creates', match: { method: 'POST', path: '/categories' }, effect: { network: 'error' } }],
  });
  const json = join(reports, 'run.json');
  const { io, out } = capturedIo();
  exitCode = await runContractCli(
    [
      '--target',
      service.baseUrl,
      '--api-key',
      KEY,
      '--allow',
      'writes',
      '--checks',
      'conditional_requests_honoured,create_category_conforms,list_categories_conforms',
      '--runs',
      '2',
      '--seed',
      '7',
      '--json',
      json,
    ],
    io,
  );
  stdout = out.join('');
  report = (JSON.parse(await readFile(json, 'utf8')) as { targets: Array<SuiteReport & { causes: FindingCause[] }> })
    .targets[0]!;
}, 120_000);

afterAll(async () => {
  await service.close();
  await rm(reports, { recursive: true, force: true });
});

/** The status `curl`, as printed, gets from the service in bash, the key in the environment only. */
async function statusInBash(curl: string): Promise<number> {
  const child = spawn('bash', ['-c', `${curl} -s -o /dev/null -w '%{http_code}'`], {
    env: { ...process.env, PETSTORE_API_KEY: KEY },
  });
  let printed = '';
  child.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  await once(child, 'close');
  return Number(printed);
}

describe('a run against three defects of one rule and a failure without a finding id', () => {
  it('fails, and puts every failed check under a cause', () => {
    expect(exitCode).toBe(1);
    const failed = report.results.filter((result) => result.outcome === 'failed').map((result) => result.check);
    expect(failed).toEqual(expect.arrayContaining(['conditional_requests_honoured', 'create_category_conforms']));
    for (const check of failed) expect(report.causes.some((cause) => cause.checks.includes(check))).toBe(true);
    expect(stdout).toContain(`Findings by cause (${report.causes.length} causes behind ${failed.length} failed check`);
  });

  it('shows the three defects of if_none_match_honoured as three causes, each with its own first reproduction', () => {
    const rule = report.causes.filter((cause) => cause.id === 'if_none_match_honoured');
    expect(rule.map((cause) => cause.first.operation).sort()).toEqual(['getPetById', 'listCategories', 'listOrders']);
    expect(new Set(rule.map((cause) => cause.what)).size).toBe(3);
    expect(new Set(rule.map((cause) => cause.first.curl)).size).toBe(3);
    for (const cause of rule) expect(stdout).toContain(`  if_none_match_honoured (rule): ${cause.what}; met by`);
  });

  it('puts the failure without a finding id under a cause of its own, named by its check', () => {
    const own = report.causes.find((cause) => cause.unidentified && cause.id === 'create_category_conforms');
    expect(own?.checks).toEqual(['create_category_conforms']);
    expect(stdout).toContain('  create_category_conforms (a failure without a finding id): ');
  });

  it('replays each cause in bash with the status the suite got', async () => {
    const replayable = report.causes.filter((cause) => cause.first.curl !== undefined);
    expect(replayable.length).toBeGreaterThanOrEqual(3);
    for (const { first } of replayable) {
      expect(first.status).toBeDefined();
      expect(`${first.curl}: ${await statusInBash(first.curl!)}`).toBe(`${first.curl}: ${first.status}`);
      expect(stdout).toContain(`    Reproduce with: ${first.curl}  # answered ${first.status}`);
    }
  }, 60_000);
});
