// `npm run examples`: builds and packs the package once, writes every consumer project into a fresh folder
// (the projects of examples/, and the projects the docs' marked snippets make: scripts/examples/docs-projects.ts),
// installs what they ask for once, the tarball included (scripts/examples/shared-install.ts), and runs each
// as its user would, several at a time. One line per project, then "N passed, N failed"; exit 1 when any failed.
// `npm run examples -- vite-app docs:vitest-quick-start` runs those only.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { documentationFiles } from './docs/generated-blocks.js';
import { docsConsumerProject, exampleProjects, type ConsumerProject } from './examples/consumer-projects.js';
import { docsProjects } from './examples/docs-projects.js';
import { runProject } from './examples/run-project.js';
import { installShared, linkInstall, mergedDependencies } from './examples/shared-install.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const run = promisify(execFile);
const env = { ...process.env, npm_config_update_notifier: 'false', FORCE_COLOR: '0', NO_COLOR: '1' };
const npm = (args: string[], cwd: string) => run('npm', args, { cwd, maxBuffer: 64 * 1024 * 1024, env });
const only = process.argv.slice(2);
// The projects mostly wait (on Chromium, a build, a server); three at once keep two cores busy.
const JOBS = Number(process.env.EXAMPLES_JOBS ?? 3);
// The lines of a project's output that say what it showed, repeated on its PASS line.
const SAYS = /^\s*(Tests:|Tests\s+\d|\d+ passed|vite app in Chromium|storybook:|typed client:|npx petstore-|require\()/;

const manifest = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
const tarballName = `${manifest.name}-${manifest.version}.tgz`;
const documents = await Promise.all(
  documentationFiles(ROOT).map(async (file) => ({ file, text: await readFile(join(ROOT, file), 'utf8') })),
);
const projects: ConsumerProject[] = [
  ...(await exampleProjects(ROOT, only)),
  ...docsProjects(documents, `./${tarballName}`)
    .projects.map(docsConsumerProject)
    .filter(({ label }) => only.length === 0 || only.includes(label)),
];

// The longest first (a browser, a Storybook build), so that the short ones fill in beside them.
const weight = (project: ConsumerProject) =>
  ['storybook', '@playwright/test', 'playwright-core'].filter((name) => project.dependencies.has(name)).length;
projects.sort((a, b) => weight(b) - weight(a));

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

  const installStarted = performance.now();
  const nodeModules = await installShared(join(work, '.shared'), mergedDependencies(projects), tarball, npm).catch(
    (error: { stderr?: string; message: string }) => {
      throw new Error(`the shared npm install failed:\n${error.stderr ?? error.message}`, { cause: error });
    },
  );
  console.log(
    `installed once for ${projects.length} projects in ${((performance.now() - installStarted) / 1000).toFixed(0)} s`,
  );

  let passed = 0;
  let failed = 0;
  const queue = [...projects];
  const worker = async () => {
    for (let project = queue.shift(); project; project = queue.shift()) {
      const dir = join(work, project.label.replace(/[/:]/g, '-'));
      await mkdir(dir, { recursive: true });
      await project.writeTo(dir, filename);
      await linkInstall(dir, nodeModules);
      const started = performance.now();
      const { output, problem } = await runProject(project.commands, dir, env);
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      if (problem) {
        failed += 1;
        console.log(`FAIL  ${project.label} (${seconds} s)\n${problem.trim()}`);
      } else {
        passed += 1;
        const said = output
          .split('\n')
          .filter((line) => SAYS.test(line))
          .map((line) => line.trim());
        console.log(`PASS  ${project.label} (${seconds} s)${said.length ? `: ${said.join('; ')}` : ''}`);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(JOBS, projects.length) }, worker));
  console.log(`${passed} passed, ${failed} failed`);
  process.exitCode = failed > 0 || passed === 0 ? 1 : 0;
} catch (error) {
  console.log(`FAIL  npm run examples: ${(error as Error).message}`);
  console.log(`0 passed, ${Math.max(projects.length, 1)} failed`);
  process.exitCode = 1;
} finally {
  if (!process.env.PETSTORE_KEEP_EXAMPLES) await rm(work, { recursive: true, force: true });
}
