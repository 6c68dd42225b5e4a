import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freeLoopbackPort } from '../targets/free-port.js';
import { capturedIo } from './captured-io.js';
import { runContractCli } from './run-contract-cli.js';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

async function run(args: string[]) {
  const { io, out, err } = capturedIo();
  const code = await runContractCli(args, io);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('the command line says what is wrong, and never crashes', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'command-line-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('--help into a pipe its reader closed early exits 0, with no stack trace', async () => {
    // The reader is gone before the help is written (it closes at once), as `| head -1` is on a long page.
    const script = `node --import tsx scripts/contract.ts --help | true; exit \${PIPESTATUS[0]}`;
    const child = spawn('bash', ['-c', script], { cwd: REPO_ROOT });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const [code] = (await once(child, 'close')) as [number];
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  }, 60_000);

  it('takes help and help <command>', async () => {
    expect(await run(['help'])).toMatchObject({
      code: 0,
      out: expect.stringContaining('Usage: petstore-contract [options]'),
    });
    expect(await run(['help', 'watch'])).toMatchObject({
      code: 0,
      out: expect.stringContaining('Usage: petstore-contract watch [options]'),
    });
  });

  it('points out a misspelt option, and a misspelt target', async () => {
    expect(await run(['--targte', 'fake'])).toMatchObject({
      code: 2,
      err: "contract: unknown option '--targte' (did you mean --target?) (see petstore-contract --help)",
    });
    expect((await run(['--target', 'fak'])).err).toContain('got "fak" (did you mean fake?)');
    expect((await run(['watch', '--upstrem', 'http://127.0.0.1:9/v1'])).err).toContain('(did you mean --upstream?)');
  });

  it('refuses a report path it could not write before sending anything', async () => {
    const file = join(dir, 'a-file');
    await writeFile(file, '');
    await mkdir(join(dir, 'a-folder'));
    const target = `http://127.0.0.1:${await freeLoopbackPort()}/v1`;
    const { code, err } = await run([
      '--target',
      target,
      '--api-key',
      'k',
      '--html',
      join(file, 'report.html'),
      '--junit',
      join(dir, 'a-folder'),
    ]);
    expect(code).toBe(2);
    expect(err).toContain(
      `--html ${join(file, 'report.html')}: ${file} is a file, not a folder (checked before any request)`,
    );
    expect(err).toContain(`--junit ${join(dir, 'a-folder')}: is a folder; name a file`);
    // Nothing was sent: the target (nothing listens there) was never even found unreachable.
    expect(err).not.toContain('unreachable');
  });

  it('does not pass a replay of a HAR with nothing in it, unless --allow-empty', async () => {
    const har = join(dir, 'empty.har');
    await writeFile(har, JSON.stringify({ log: { version: '1.2', entries: [] } }));
    const empty = await run(['replay', har, '--target', 'fake']);
    expect(empty.code).toBe(2);
    expect(empty.err).toContain('holds no request to replay. Nothing was seen');
    expect((await run(['replay', har, '--target', 'fake', '--allow-empty'])).code).toBe(0);
  });
});
