import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeServer, type RunningFakeServer } from '../../mocks/server/index.js';
import { brokenVariant } from '../broken-variants/index.js';
import { judgeBaseline, readBaseline } from '../report/baseline.js';
import { capturedIo } from './captured-io.js';
import { today } from './baseline-run.js';
import { runContractCli } from './run-contract-cli.js';
import { watchRun } from './watch-in-process.js';

const KEY = 'free-test-key';

describe('a baseline of known failures: a gate fails only on new ones', () => {
  let reports: string;
  let broken: RunningFakeServer;
  beforeAll(async () => {
    reports = await mkdtemp(join(tmpdir(), 'baseline-'));
    // Category ids answered as strings: list_categories_conforms fails on listCategories.
    broken = await startFakeServer({
      port: 0,
      ...brokenVariant('category-id-as-string').fake,
    });
  });
  afterAll(async () => {
    await broken.close();
    await rm(reports, { recursive: true, force: true });
  });
  const suite = (file: string, ...more: string[]) => {
    const { io, out, err } = capturedIo();
    const argv = [
      '--target',
      broken.baseUrl,
      '--api-key',
      KEY,
      '--checks',
      'list_*_conforms',
      '--baseline',
      file,
      ...more,
    ];
    return runContractCli(argv, io).then((code) => ({ code, out: out.join('\n'), err: err.join('\n') }));
  };

  it('writes the failures with --update-baseline, then excuses them; an expired entry fails again; a gone one is listed', async () => {
    const file = join(reports, 'suite-baseline.json');
    const written = await suite(file, '--update-baseline');
    expect(written.code).toBe(1);
    expect(written.out).toContain(`Baseline written to ${file}: 1 failures accepted for 30 days`);
    const { accepted } = JSON.parse(await readFile(file, 'utf8'));
    expect(accepted).toEqual([
      expect.objectContaining({
        check: 'list_categories_conforms',
        operation: 'listCategories',
        until: expect.any(String),
      }),
    ]);

    const excused = await suite(file, '--json', join(reports, 'excused.json'));
    expect(excused.out).toContain(`Baseline ${file}: 1 failures excused, 0 not in it`);
    expect(excused.out).toMatch(/^ {2}excused: list_categories_conforms: /m);
    expect(excused.code).toBe(0);
    expect(JSON.parse(await readFile(join(reports, 'excused.json'), 'utf8')).baseline.excused).toHaveLength(1);

    // Past its date the entry accepts nothing; an entry for a check that passes is reported gone.
    const stale = join(reports, 'stale.json');
    await writeFile(
      stale,
      JSON.stringify({
        accepted: [
          { check: 'list_categories_conforms', why: 'ids fixed in 2.3', until: '2020-01-01' },
          { check: 'list_orders_conforms', why: 'was broken', until: '2999-01-01' },
        ],
      }),
    );
    const expired = await suite(stale);
    expect(expired.out).toContain('  expired 2020-01-01: list_categories_conforms fails the run again');
    expect(expired.out).toContain('  no longer fails: list_orders_conforms; remove it from the baseline');
    expect(expired.code).toBe(1);

    await writeFile(stale, JSON.stringify({ accepted: [{ check: 'list_orders_conforms', until: '2999-01-01' }] }));
    const bad = await suite(stale);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain(`--baseline ${stale}: entry 1 needs a "why" (the reason the failure is accepted)`);
  }, 120_000);

  it('excuses a known violation of watch, and still fails on a new one', async () => {
    const file = join(reports, 'watch-baseline.json');
    const traffic = async (base: string) => {
      await fetch(`${base}/categories`, { headers: { Authorization: `Bearer ${KEY}` } });
    };
    expect(
      (await watchRun(['--upstream', broken.baseUrl, '--baseline', file, '--update-baseline'], traffic)).code,
    ).toBe(1);
    const again = await watchRun(['--upstream', broken.baseUrl, '--baseline', file], traffic);
    expect(again.out).toMatch(/^Baseline .*: 1 failures excused, 0 not in it$/m);
    expect(again.code).toBe(0);
    // A baseline that accepts the same rule on another operation excuses nothing here.
    const elsewhere = join(reports, 'elsewhere.json');
    await writeFile(
      elsewhere,
      JSON.stringify({
        accepted: [{ check: 'body_schema', operation: 'getPetById', why: 'known', until: '2999-01-01' }],
      }),
    );
    const other = await watchRun(['--upstream', broken.baseUrl, '--baseline', elsewhere], traffic);
    expect(other.out).toMatch(/^Baseline .*: 0 failures excused, 1 not in it$/m);
    expect(other.code).toBe(1);
  }, 60_000);

  it('judges by check, operation and promise, and only before the end of the until day', () => {
    const entries = [{ check: 'a', operation: 'listCategories', why: 'w', until: today() }];
    const verdict = judgeBaseline(
      entries,
      [
        { check: 'a', operation: 'listCategories', title: 't' },
        { check: 'a', operation: 'getPetById', title: 't' },
      ],
      today(),
    );
    expect(verdict.excused).toHaveLength(1);
    expect(verdict.failing).toEqual([{ check: 'a', operation: 'getPetById', title: 't' }]);
    expect(judgeBaseline(entries, [], '2999-01-01').expired).toEqual(entries);
  });

  it('reads the example of the QA guide as a baseline', async () => {
    const guide = await readFile(new URL('../../docs/guides/qa-staging.md', import.meta.url), 'utf8');
    const example = /```text\n(\{\n {2}"accepted"[^]*?)```/.exec(guide)?.[1];
    const file = join(reports, 'guide.json');
    await writeFile(file, example ?? '');
    expect(await readBaseline(file)).toEqual([
      expect.objectContaining({ check: 'list_categories_conforms', operation: 'listCategories', until: '2026-12-31' }),
    ]);
  });
});
