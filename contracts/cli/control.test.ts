import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CHECKS } from '../checks/registry.js';
import { override, startFakeServer } from '../../mocks/server/index.js';
import { capturedIo } from './captured-io.js';
import { watchRun } from './watch-in-process.js';
import { runContractCli } from './run-contract-cli.js';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const { version } = JSON.parse(readFileSync(`${REPO_ROOT}/package.json`, 'utf8')) as { version: string };

describe('control over a run', () => {
  it('says its version on --version (and -V), on every command and on the fake', async () => {
    for (const argv of [['--version'], ['-V'], ['watch', '--version'], ['replay', '--version']]) {
      const { io, out } = capturedIo();
      expect(await runContractCli(argv, io)).toBe(0);
      expect(out).toEqual([version]);
    }
    const fake = execFileSync(process.execPath, ['--import', 'tsx', 'scripts/fake-server.ts', '--version'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    });
    expect(fake).toBe(`${version}\n`);
  }, 30_000);

  it('lists every check without running it: what it verifies, what it needs, what it sends', async () => {
    const { io, out } = capturedIo();
    expect(await runContractCli(['checks', '--json'], io)).toBe(0);
    const listed = JSON.parse(out.join('\n')) as Array<{
      name: string;
      verifies: string;
      needs: string[];
      writes: boolean;
      sends: string;
    }>;
    expect(listed.map(({ name }) => name)).toEqual(CHECKS.map(({ name }) => name));
    expect(listed.find(({ name }) => name === 'valid_bodies_stored_as_sent')).toMatchObject({
      writes: true,
      sends: 'creates categories (--allow writes)',
    });
    expect(listed.find(({ name }) => name === 'rate_limit_promises_kept')?.sends).toBe(
      "drives the key's window to a 429 (--allow quota)",
    );
    expect(listed.find(({ name }) => name === 'list_categories_conforms')).toMatchObject({ writes: false, needs: [] });
    const text = capturedIo();
    expect(await runContractCli(['checks'], text.io)).toBe(0);
    expect(text.out).toContain(
      `${CHECKS.length} checks; run some with --checks NAME,GLOB* and leave some out with --skip-checks`,
    );
  });

  it('runs only the checks --checks names (globs too), less those --skip-checks names; a name that matches none is bad usage', async () => {
    const { io, out } = capturedIo();
    const code = await runContractCli(
      [
        '--target',
        'fake',
        '--runs',
        '1',
        '--checks',
        'list_*_conforms,get_pet_conforms',
        '--skip-checks',
        'list_orders_*',
      ],
      io,
    );
    expect(code).toBe(0);
    expect(out.filter((line) => /^(PASS|FAIL|SKIP) /.test(line)).map((line) => line.split(/ +/)[1])).toEqual([
      'list_categories_conforms',
      'get_pet_conforms',
    ]);
    expect(out[0]).toMatch(/: 2 checks,/);
    const typo = capturedIo();
    expect(await runContractCli(['--target', 'fake', '--checks', 'list_categorie_conforms'], typo.io)).toBe(2);
    expect(typo.err.join('\n')).toContain('no check is named "list_categorie_conforms"');
  }, 60_000);

  it('adds --header to every request of the suite and of watch, never in a report unless --curl-with-headers', async () => {
    const seen: Array<string | null> = [];
    // A service that answers the list with an undocumented status, so the report has a failure with its curl.
    const service = await startFakeServer({
      port: 0,
      overrides: [
        override.all(
          ({ request, next }) => {
            seen.push(request.header('x-gateway-token'));
            // A broken operation, not another API: the answer without a key stays the spec's 401.
            return request.path === '/categories' && request.method === 'GET' && request.header('authorization')
              ? { status: 418, headers: { 'Content-Type': 'text/plain' }, body: undefined, rawBody: 'no' }
              : next();
          },
          { beforeAuth: true },
        ),
      ],
    });
    try {
      const args = ['--target', service.baseUrl, '--api-key', 'free-test-key', '--checks', 'list_categories_conforms'];
      const hidden = capturedIo();
      expect(await runContractCli([...args, '--header', 'X-Gateway-Token: gw-secret'], hidden.io)).toBe(1);
      expect(seen.length).toBeGreaterThan(1);
      // Every request of the run carries it (the first is the reachability probe, any answer will do).
      expect(seen.slice(1).every((value) => value === 'gw-secret')).toBe(true);
      expect(hidden.out.join('\n')).toContain('Reproduce with: curl');
      expect(hidden.out.join('\n')).not.toContain('gw-secret');
      const shown = capturedIo();
      await runContractCli([...args, '--header', 'X-Gateway-Token: gw-secret', '--curl-with-headers'], shown.io);
      expect(shown.out.join('\n')).toMatch(/Reproduce with: curl .*-H 'X-Gateway-Token: gw-secret'/);

      seen.length = 0;
      const watched = await watchRun(
        ['--upstream', service.baseUrl, '--header', 'X-Gateway-Token: gw-watch'],
        async (base) => {
          await fetch(`${base}/categories`, { headers: { Authorization: 'Bearer free-test-key' } });
        },
      );
      expect(seen).toEqual(['gw-watch']);
      expect(watched.out).toContain('VIOLATION  listCategories 418');
      expect(watched.out).not.toContain('gw-watch');
      const bad = capturedIo();
      expect(await runContractCli([...args, '--header', 'X-Broken'], bad.io)).toBe(2);
      expect(bad.err.join('\n')).toContain("--header must be 'Name: value'");
    } finally {
      await service.close();
    }
  }, 60_000);

  it('sends only to the operations --operations names (operationIds or tags); a check that needs another is skipped, naming it', async () => {
    const { io, out } = capturedIo();
    const code = await runContractCli(
      [
        '--target',
        'fake',
        '--runs',
        '1',
        '--operations',
        'categories',
        '--checks',
        'list_*_conforms,create_category_conforms',
      ],
      io,
    );
    expect(code).toBe(0);
    // Each check's line ends with where the run stands (`[2/3 checks, 1 requests]`).
    expect(out).toContainEqual(
      expect.stringMatching(
        /^SKIP {2}list_orders_conforms {2}skipped: it sends listOrders, outside --operations listCategories,createCategory {2}\[2\/3 checks, \d+ requests\]$/,
      ),
    );
    expect(out).toContainEqual(expect.stringMatching(/^PASS {2}list_categories_conforms /));
    expect(out).toContainEqual(expect.stringMatching(/^PASS {2}create_category_conforms /));
    const typo = capturedIo();
    expect(await runContractCli(['--target', 'fake', '--operations', 'listCategory'], typo.io)).toBe(2);
    expect(typo.err.join('\n')).toContain('"listCategory" is neither an operationId nor a tag of the spec');
  }, 60_000);
});
