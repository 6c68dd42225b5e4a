import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { capturedIo } from './captured-io.js';
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
});
