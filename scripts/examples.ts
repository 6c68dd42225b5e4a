// `npm run examples`: builds and packs the package once, then
// - runs every project of examples/ on this Node (20) with the msw each pins (2.x), from one shared install
//   (scripts/examples/shared-install.ts);
// - follows the guides of the docs (scripts/examples/docs-projects.ts) as a newcomer would, in an empty
//   folder with the tarball copied into it, its own `npm install` included (scripts/examples/follow-guide.ts),
//   on the legs of scripts/examples/node-legs.ts. A covering set, not every guide thrice (installs are the
//   cost): every guide on Node 22 with msw 3, the stack the issue was found on; on Node 24 (msw 3) the Vitest
//   quick start, the Node tests guide (Vitest and Jest: what differs between Node majors is the test
//   runners' module loading) and examples/vite-app in Chromium (msw 3 in a browser); on Node 20 (msw 2) the
//   two frontend quick starts, beside examples/, which run every integration (Jest, Vitest, Vite and
//   Storybook in Chromium, Playwright, the bins) with msw 2 on Node 20. A guide that leaves servers running
//   (the QA and Redis quick starts, the UI states' standalone fake) gets a network of its own, so the
//   ports it names are free (scripts/examples/own-loopback.ts); those that install the package alone run
//   beside the others, two at a time, as they mostly wait;
// - follows one guide with a step removed on purpose, and passes only when that fails naming the step.
// One line per project, then "N skipped" when some were, then "N passed, N failed"; exit 1 when any failed.
// `npm run examples -- vite-app docs:vitest-quick-start node24` runs those only (a leg's name: its guides).
import { execFile } from 'node:child_process';
import { copyFile, cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { documentationFiles } from './docs/generated-blocks.js';
import { exampleProjects, type ConsumerProject } from './examples/consumer-projects.js';
import { docsProjects, type DocsProject } from './examples/docs-projects.js';
import { ASSUMED_SERVICES } from './examples/assumed-services.js';
import { followGuide, type Followed } from './examples/follow-guide.js';
import { installedMswMajor, LEGS, newcomerEnv, nodeBinFolder, type Leg } from './examples/node-legs.js';
import { MACHINE_NETWORK, ownLoopback, type Network } from './examples/own-loopback.js';
import { runProject } from './examples/run-project.js';
import { installShared, linkInstall, mergedDependencies } from './examples/shared-install.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const run = promisify(execFile);
const env = { ...process.env, npm_config_update_notifier: 'false', FORCE_COLOR: '0', NO_COLOR: '1' };
const npm = (args: string[], cwd: string) => run('npm', args, { cwd, maxBuffer: 64 * 1024 * 1024, env });
const only = process.argv.slice(2);
// The projects mostly wait (on an install, Chromium, a build, a server); three at once keep two cores busy.
const JOBS = Number(process.env.EXAMPLES_JOBS ?? 3);
// Beside them, two at a time, the guides that install the package alone (the QA, CI and Redis quick
// starts, the UI states' standalone fake): no test runner, bundler or browser to install or run, they
// mostly wait (the suite on a target's rate limits, a page's servers).
const BESIDE_JOBS = 2;
// The lines of a project's output that say what it showed, repeated on its PASS line.
const SAYS =
  /^\s*(Tests:|Tests\s+\d|\d+ passed|vite app in Chromium|storybook:|typed client:|npx petstore-|require\(|✓ built in|Output directory:|failed as it must|msw \d on Node)/;
// Which guides each leg follows (the reasons are at the top of this file).
const NODE24_GUIDES = new Set(['vitest-quick-start', 'vitest-guide', 'jest-guide']);
const NODE20_GUIDES = new Set(['vitest-quick-start', 'browser-quick-start']);
const GUIDES_ON: Array<{ leg: Leg; follows: (name: string) => boolean }> = [
  { leg: LEGS.node22, follows: () => true },
  { leg: LEGS.node24, follows: (name) => NODE24_GUIDES.has(name) },
  { leg: LEGS.node20, follows: (name) => NODE20_GUIDES.has(name) },
];
const EXAMPLES_ON_LEGS: Array<{ example: string; leg: Leg }> = [{ example: 'vite-app', leg: LEGS.node24 }];
// A check run in a guide's folder once it is followed, not a step of the guide: the Storybook guide's
// stories are examples/storybook-app's (the docs test holds them equal), so that example's check opens the
// guide's build in Chromium, each story showing its state with the fake's data (with msw 3 on Node 22).
const AFTER_FOLLOWING: Record<string, string> = { 'storybook-guide': 'examples/storybook-app/check-stories.js' };
// The step removed on purpose: the quick start's test file. Its last command must then fail, naming it.
const WITHOUT_A_STEP = { project: 'vitest-quick-start', step: 'src/categories.test.ts', leg: LEGS.node22 };

interface Job {
  label: string;
  /** Longer jobs start first, so that the short ones fill in beside them. */
  weight: number;
  /** A guide that installs the package alone: run beside the others, {@link BESIDE_JOBS} at a time. */
  beside?: boolean;
  run(dir: string): Promise<Followed>;
}

const manifest = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
const tarballName = `${manifest.name}-${manifest.version}.tgz`;
const documents = await Promise.all(
  documentationFiles(ROOT).map(async (file) => ({ file, text: await readFile(join(ROOT, file), 'utf8') })),
);
const guides = docsProjects(documents, `./${tarballName}`).projects;
const legKey = (leg: Leg) => Object.entries(LEGS).find(([, each]) => each === leg)![0];
const wanted = (...names: string[]) => only.length === 0 || names.some((name) => only.includes(name));
const heavy = (names: Iterable<string>) =>
  ['storybook', '@playwright/test', 'playwright-core'].filter((name) => [...names].includes(name)).length;

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

  const legEnv = new Map<Leg, NodeJS.ProcessEnv>();
  for (const leg of Object.values(LEGS)) legEnv.set(leg, newcomerEnv(await nodeBinFolder(leg.node)));

  const jobs: Job[] = [];
  let saidNoNamespace = false;
  const examples = await exampleProjects(ROOT, only);
  if (examples.length > 0) {
    const installStarted = performance.now();
    const nodeModules = await installShared(join(work, '.shared'), mergedDependencies(examples), tarball, npm).catch(
      (error: { stderr?: string; message: string }) => {
        throw new Error(`the shared npm install failed:\n${error.stderr ?? error.message}`, { cause: error });
      },
    );
    console.log(
      `installed once for ${examples.length} examples in ${((performance.now() - installStarted) / 1000).toFixed(0)} s`,
    );
    for (const example of examples)
      jobs.push({
        label: example.label,
        weight: heavy(example.dependencies.keys()),
        run: (dir) => runShared(example, dir, nodeModules),
      });
  }
  for (const { leg, follows } of GUIDES_ON)
    for (const guide of guides.filter(({ name }) => follows(name) && wanted(name, `docs:${name}`, legKey(leg))))
      jobs.push({
        label: `docs:${guide.name} (${leg.name})`,
        weight: heavy(guide.dependencies.keys()) + 1,
        beside: [...guide.dependencies.keys()].every((name) => name === 'petstore-harness'),
        run: (dir) => followOnLeg(guide, leg, dir),
      });
  for (const { example, leg } of EXAMPLES_ON_LEGS.filter(({ example }) => wanted(example, `examples/${example}`)))
    jobs.push({ label: `examples/${example} (${leg.name})`, weight: 2, run: (dir) => exampleOnLeg(example, leg, dir) });
  if (wanted(`docs:${WITHOUT_A_STEP.project}`, WITHOUT_A_STEP.project, 'without-a-step'))
    jobs.push({
      label: `docs:${WITHOUT_A_STEP.project} without ${WITHOUT_A_STEP.step} (must fail)`,
      weight: 0,
      run: followWithoutAStep,
    });
  jobs.sort((a, b) => b.weight - a.weight);

  let passed = 0;
  let failed = 0;
  let skipped = 0;
  const worker = async (queue: Job[]) => {
    for (let job = queue.shift(); job; job = queue.shift()) {
      const dir = join(work, job.label.replace(/[^\w.-]+/g, '-'));
      const started = performance.now();
      const { output, problem, skip } = await job
        .run(dir)
        .catch((error: Error): Followed => ({ output: '', problem: error.message }));
      // When it started, from the start of this command: what to look at to shorten the whole.
      const seconds = `${((performance.now() - started) / 1000).toFixed(1)} s from +${(started / 1000).toFixed(0)} s`;
      if (skip) {
        skipped += 1;
        console.log(`SKIP  ${job.label}: ${skip}`);
      } else if (problem) {
        failed += 1;
        console.log(`FAIL  ${job.label} (${seconds})\n${problem.trim()}`);
      } else {
        passed += 1;
        const said = output
          .split('\n')
          .filter((line) => SAYS.test(line))
          .map((line) => line.trim());
        console.log(`PASS  ${job.label} (${seconds})${said.length ? `: ${said.join('; ')}` : ''}`);
      }
      if (!process.env.PETSTORE_KEEP_EXAMPLES) await rm(dir, { recursive: true, force: true });
    }
  };
  const besideJobs = jobs.filter(({ beside }) => beside);
  const otherJobs = jobs.filter(({ beside }) => !beside);
  await Promise.all([
    ...Array.from({ length: Math.min(JOBS, otherJobs.length) }, () => worker(otherJobs)),
    ...Array.from({ length: Math.min(BESIDE_JOBS, besideJobs.length) }, () => worker(besideJobs)),
  ]);
  if (skipped > 0) console.log(`${skipped} skipped`);
  console.log(`${passed} passed, ${failed} failed`);
  process.exitCode = failed > 0 || passed === 0 ? 1 : 0;

  /** A project of examples/ with the shared install as its node_modules, run by `npm test`. */
  async function runShared(example: ConsumerProject, dir: string, nodeModules: string): Promise<Followed> {
    await mkdir(dir, { recursive: true });
    await example.writeTo(dir, filename);
    await linkInstall(dir, nodeModules);
    return runProject(example.commands, dir, env);
  }

  /** Follows a guide on a leg, then holds the msw it installed to the leg's major. */
  async function followOnLeg(guide: DocsProject, leg: Leg, dir: string): Promise<Followed> {
    const assumed = ASSUMED_SERVICES[guide.name];
    const skip = assumed?.missing();
    if (skip) return { output: '', skip };
    const network = guide.steps.some(({ kind }) => kind === 'start') || assumed ? await networkOfItsOwn() : undefined;
    const followed = await followGuide(guide, dir, tarball, legEnv.get(leg)!, {
      network,
      services: assumed?.services,
    }).finally(() => network?.close());
    if (followed.problem) return followed;
    const check = AFTER_FOLLOWING[guide.name];
    if (!check) return withLegsMsw(followed, leg, dir);
    // The check's own tool (playwright-core, Debian's Chromium) is this repository's, not the guide's.
    await copyFile(join(ROOT, check), join(dir, basename(check)));
    await symlink(join(ROOT, 'node_modules', 'playwright-core'), join(dir, 'node_modules', 'playwright-core'), 'dir');
    const checked = await runProject([`node ${basename(check)}`], dir, legEnv.get(leg)!);
    return checked.problem
      ? { output: followed.output, problem: `${guide.guide} (${guide.name}) followed, then ${checked.problem}` }
      : withLegsMsw({ output: `${followed.output}${checked.output}` }, leg, dir);
  }

  /** A project of examples/ installed on its own on a leg, with msw the range a guide gives instead of its pin. */
  async function exampleOnLeg(name: string, leg: Leg, dir: string): Promise<Followed> {
    await cp(join(ROOT, 'examples', name), dir, {
      recursive: true,
      filter: (path) => !/[\\/](node_modules|dist|storybook-static|test-results|playwright-report)$/.test(path),
    });
    const own = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as {
      devDependencies: Record<string, string>;
    };
    own.devDependencies = { ...own.devDependencies, msw: '^2.15.0 || ^3.0.0', 'petstore-harness': `file:${tarball}` };
    await writeFile(join(dir, 'package.json'), `${JSON.stringify(own, null, 2)}\n`);
    const done = await runProject(['npm install', 'npm test'], dir, legEnv.get(leg)!);
    return done.problem ? done : withLegsMsw(done, leg, dir);
  }

  /** A network namespace, or the machine's loopback (said once) where none can be made. */
  async function networkOfItsOwn(): Promise<Network> {
    const made = await ownLoopback();
    if (made.network) return made.network;
    if (!saidNoNamespace)
      console.log(`the guides' servers use the machine's loopback (no network namespace: ${made.why})`);
    saidNoNamespace = true;
    return MACHINE_NETWORK;
  }

  async function withLegsMsw(done: Followed, leg: Leg, dir: string): Promise<Followed> {
    const major = await installedMswMajor(dir);
    return major === leg.msw
      ? { output: `${done.output}\nmsw ${major} on Node ${leg.node}` }
      : { ...done, problem: `${leg.name}: the project installed msw ${major ?? '(none)'}, not msw ${leg.msw}` };
  }

  /** Passes when the guide, one step removed, fails, and the failure names the guide and the step it reached. */
  async function followWithoutAStep(dir: string): Promise<Followed> {
    const guide = guides.find(({ name }) => name === WITHOUT_A_STEP.project);
    if (!guide) return { output: '', problem: `no guide makes the project ${WITHOUT_A_STEP.project}` };
    const steps = guide.steps.filter((step) => !(step.kind === 'file' && step.path === WITHOUT_A_STEP.step));
    if (steps.length === guide.steps.length)
      return {
        output: '',
        problem: `${guide.guide}: ${WITHOUT_A_STEP.project} has no step writing ${WITHOUT_A_STEP.step}`,
      };
    const followed = await followGuide({ ...guide, steps }, dir, tarball, legEnv.get(WITHOUT_A_STEP.leg)!);
    const said = followed.problem?.split('\n')[0] ?? '';
    return followed.problem &&
      said.startsWith(`${guide.guide} (${guide.name}): step ${steps.length} of ${steps.length}`)
      ? { output: `\nfailed as it must: ${said}` }
      : {
          output: followed.output,
          problem: `followed without ${WITHOUT_A_STEP.step}, it ${followed.problem ? `failed elsewhere: ${said}` : 'passed'}`,
        };
  }
} catch (error) {
  console.log(`FAIL  npm run examples: ${(error as Error).message}`);
  console.log('0 passed, 1 failed');
  process.exitCode = 1;
} finally {
  if (!process.env.PETSTORE_KEEP_EXAMPLES) await rm(work, { recursive: true, force: true });
}
