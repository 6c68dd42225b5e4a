import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { startFakeServer, type RunningFakeServer } from '../../mocks/server/index.js';
import { brokenVariant } from '../broken-variants/index.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const STEP = 'End-to-end tests through the contract proxy';

/** The CI guide's step, as written: its `env` and its `run` script. */
async function recipe(): Promise<{ env: Record<string, string>; run: string }> {
  const guide = await readFile(join(ROOT, 'docs/guides/ci.md'), 'utf8');
  const block = [...guide.matchAll(/```yaml\n([^]*?)```/g)]
    .map(([, text]) => text!)
    .find((text) => text.includes(STEP));
  if (!block) throw new Error(`docs/guides/ci.md has no yaml block with the step "${STEP}"`);
  const [step] = parseYaml(block) as Array<{ name: string; env: Record<string, string>; run: string }>;
  return { env: step!.env, run: step!.run };
}

/**
 * A project as a frontend's would be: `npx petstore-contract` resolves to this repository's command,
 * and `npm run test:e2e` sends a few requests to `API_BASE_URL` with the fake's free key.
 */
async function frontendProject(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ci-recipe-'));
  await mkdir(join(dir, 'node_modules/.bin'), { recursive: true });
  const bin = join(dir, 'node_modules/.bin/petstore-contract');
  const tsx = `file://${join(ROOT, 'node_modules/tsx/dist/loader.mjs')}`;
  await writeFile(bin, `#!/bin/sh\nexec node --import ${tsx} ${join(ROOT, 'scripts/contract.ts')} "$@"\n`);
  await chmod(bin, 0o755);
  await writeFile(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'e2e', private: true, scripts: { 'test:e2e': 'node e2e.mjs' } }),
  );
  await writeFile(
    join(dir, 'e2e.mjs'),
    [
      "const base = process.env.API_BASE_URL; const auth = { headers: { Authorization: 'Bearer free-test-key' } };",
      "for (const path of ['/categories', '/store/orders', '/pets/1']) {",
      '  const answer = await fetch(`${base}${path}`, auth);',
      '  if (answer.status >= 500) { console.error(path, answer.status); process.exit(1); }',
      '}',
    ].join('\n'),
  );
  return dir;
}

/** Runs the step's script as GitHub Actions runs `run:` (bash -eo pipefail), with the fake as staging. */
async function runStep(
  run: string,
  cwd: string,
  env: Record<string, string>,
): Promise<{ code: number; output: string }> {
  const result = await new Promise<{ code: number; output: string }>((resolve) => {
    execFile(
      'bash',
      ['--noprofile', '--norc', '-eo', 'pipefail', '-c', run],
      { cwd, env: { ...process.env, ...env }, timeout: 90_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` }),
    );
  });
  // A step that failed half-way leaves the proxy running, as it would on a runner: stop it here.
  const ready = join(cwd, 'reports/watch-ready.json');
  if (existsSync(ready)) process.kill(JSON.parse(await readFile(ready, 'utf8')).pid, 'SIGKILL');
  return result;
}

describe("the CI guide's watch recipe, run as written", () => {
  let fake: RunningFakeServer;
  let project: string;
  beforeAll(async () => {
    fake = await startFakeServer({ port: 0 });
    project = await frontendProject();
  });
  afterAll(async () => {
    await fake.close();
    await rm(project, { recursive: true, force: true });
  });

  it('waits for readiness, runs the e2e tests through the proxy and passes when staging keeps its promises', async () => {
    const { env, run } = await recipe();
    expect(env.STAGING_URL).toBe('https://staging.api.petstore.example.com/v1');
    const result = await runStep(run, project, { ...env, STAGING_URL: fake.baseUrl });
    expect(result).toMatchObject({ code: 0 });
    expect(result.output).toMatch(/^\{"event":"ready","baseUrl":"http:\/\/127\.0\.0\.1:\d+\/v1"/m);
    expect(result.output).toContain(`Watched 3 exchanges with ${fake.baseUrl}`);
    expect(await readFile(join(project, 'reports/watch.xml'), 'utf8')).toContain('name="target_answered"');
    // The readiness file goes with the proxy, so the next run cannot read a stale one.
    expect(existsSync(join(project, 'reports/watch-ready.json'))).toBe(false);
  }, 120_000);

  it('fails the step when staging breaks a promise', async () => {
    const { env, run } = await recipe();
    const variant = brokenVariant('category-id-as-string');
    const broken = await startFakeServer({ port: 0, ...variant.fake });
    try {
      const result = await runStep(run, project, { ...env, STAGING_URL: broken.baseUrl });
      expect(result.code).toBe(1);
      expect(result.output).toContain('VIOLATION  listCategories 200  body_schema');
    } finally {
      await broken.close();
    }
  }, 120_000);
});
