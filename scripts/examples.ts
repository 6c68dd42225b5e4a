// `npm run examples`: packs the package, installs the tarball into a fresh copy of every consumer project
// of examples/ (as a user would: `npm install ./petstore-harness-<version>.tgz`), and runs its `npm test`.
// Prints one line per project and ends with "N passed, N failed"; exits 1 when any failed.
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const run = promisify(execFile);
const npm = (args: string[], cwd: string) =>
  run('npm', args, {
    cwd,
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, npm_config_update_notifier: 'false', FORCE_COLOR: '0', NO_COLOR: '1' },
  });
const only = process.argv.slice(2);

const work = await mkdtemp(join(tmpdir(), 'petstore-examples-'));
try {
  // prepack builds dist/; built first here so that pack's --json output is all that stdout holds.
  await npm(['run', 'build'], ROOT);
  const packed = JSON.parse(
    (await npm(['pack', '--ignore-scripts', '--json', '--pack-destination', work], ROOT)).stdout,
  ) as Array<{ filename: string; size: number; unpackedSize: number; entryCount: number }>;
  const { filename, size, unpackedSize, entryCount } = packed[0]!;
  const tarball = join(work, filename);
  console.log(
    `packed ${filename}: ${(size / 1024).toFixed(0)} KiB, ${(unpackedSize / 1024).toFixed(0)} KiB unpacked, ${entryCount} files`,
  );

  const names = (await readdir(join(ROOT, 'examples'))).filter((name) => only.length === 0 || only.includes(name));
  const projects = [];
  for (const name of names)
    if ((await stat(join(ROOT, 'examples', name, 'package.json')).catch(() => undefined))?.isFile())
      projects.push(name);

  // Installs download in parallel; the tests then run one at a time, as their timings mean more alone.
  const installed = await Promise.all(
    projects.map(async (name) => {
      const dir = join(work, name);
      await cp(join(ROOT, 'examples', name), dir, {
        recursive: true,
        filter: (source) => !/node_modules|[\\/]dist$/.test(source),
      });
      try {
        await npm(['install', '--no-audit', '--no-fund', tarball], dir);
        return { name, dir };
      } catch (error) {
        return { name, dir, failure: `npm install failed:\n${(error as { stderr?: string }).stderr ?? String(error)}` };
      }
    }),
  );
  let passed = 0;
  let failed = 0;
  for (const { name, dir, failure } of installed) {
    const started = performance.now();
    let problem = failure;
    let output = '';
    if (!problem) {
      try {
        const { stdout, stderr } = await npm(['test'], dir);
        output = `${stdout}\n${stderr}`;
      } catch (error) {
        const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
        problem = `npm test failed:\n${stdout}\n${stderr}`;
      }
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    if (problem) {
      failed += 1;
      console.log(`FAIL  examples/${name} (${seconds} s)\n${problem.trim()}`);
    } else {
      passed += 1;
      const said = output
        .split('\n')
        .filter((line) => /^\s*(Tests:|Tests\s+\d|vite app in Chromium|npx petstore-|require\()/.test(line))
        .map((line) => line.trim());
      console.log(`PASS  examples/${name} (${seconds} s)${said.length ? `: ${said.join('; ')}` : ''}`);
    }
  }
  console.log(`${passed} passed, ${failed} failed`);
  process.exitCode = failed > 0 || passed === 0 ? 1 : 0;
} finally {
  if (!process.env.PETSTORE_KEEP_EXAMPLES) await rm(work, { recursive: true, force: true });
}
