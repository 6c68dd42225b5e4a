import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeServer, type RunningFakeServer } from '../../mocks/server/index.js';
import { capturedIo } from './captured-io.js';
import { runContractCli } from './run-contract-cli.js';

describe('a run that did less than asked', () => {
  let fake: RunningFakeServer;
  beforeAll(async () => {
    fake = await startFakeServer({ port: 0 });
  });
  afterAll(() => fake.close());

  // The budget refuses the window-driving check up front: 30 requests cannot drive a free key's 60.
  const args = () => [
    '--target',
    fake.baseUrl,
    '--api-key',
    'free-test-key',
    '--allow',
    'quota',
    '--max-requests',
    '30',
    '--checks',
    'list_categories_conforms,rate_limit_exceeded_answer',
  ];

  it('says so on its summary line, and passes without --require-complete', async () => {
    const { io, out } = capturedIo();
    expect(await runContractCli(args(), io)).toBe(0);
    const summary = out.find((line) => / passed, \d+ failed, \d+ skipped in /.test(line));
    expect(summary).toContain('INCOMPLETE: 1 checks left out by the budget (rate_limit_exceeded_answer)');
  }, 120_000);

  it('fails with --require-complete, naming what was left out; the JUnit says so too', async () => {
    await fake.fake.reset();
    const { io, out } = capturedIo();
    const junit = join(await mkdtemp(join(tmpdir(), 'require-complete-')), 'run.xml');
    expect(await runContractCli([...args(), '--require-complete', '--junit', junit], io)).toBe(1);
    expect(out.join('\n')).toContain(`--require-complete: the run on ${fake.baseUrl} is incomplete`);
    const xml = await readFile(junit, 'utf8');
    expect(xml).toContain(`petstore contract suite (${fake.baseUrl}): INCOMPLETE`);
    expect(xml).toContain('name="complete" value="no: 1 checks left out by the budget (rate_limit_exceeded_answer)');
  }, 120_000);
});
