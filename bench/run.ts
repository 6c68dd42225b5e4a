// `npm run bench`: the standalone fake beside `prism mock` of the same spec and a bare node:http floor,
// the fake and the floor loaded in turns in one run, plus start-up, the in-process host, the contract suite's wall
// time per target and the fake's memory after 100,000 requests. Writes the results as JSON.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { buildBundles } from '../scripts/build/bundles.js';
import { sendRequests } from './load.js';
import { contractRun, firstAnswerMs, inProcessHost, startupMs } from './process-timings.js';
import { printReport, type BenchResults } from './report.js';
import { fakeCommand, fakeFromSourcesCommand, KEY, median, prismCommand, ROOT, withServer } from './server-commands.js';
import { loadAll, loadSideBySide } from './side-by-side.js';
import { loadThroughWatch } from './watch-load.js';

function positiveInteger(value: string): number {
  const number = Number(value);
  if (!Number.isSafeInteger(number) || number < 1) throw new InvalidArgumentError('must be a positive integer');
  return number;
}

const options = new Command('npm run bench --')
  .description('Benchmarks the standalone fake against prism mock and a bare node:http floor, side by side.')
  .option('--duration <seconds>', 'load per server and scenario', positiveInteger, 10)
  .option('--connections <n>', 'concurrent autocannon connections', positiveInteger, 20)
  .option('--startup-runs <n>', 'start-up measurements per server (the median is reported)', positiveInteger, 5)
  .option('--no-contract', 'skip timing the contract suite')
  .option('--no-redis', 'skip the fake on Redis (needs /usr/bin/redis-server)')
  .option('--rounds <n>', 'turns each server takes where servers are compared under load', positiveInteger, 5)
  .option(
    '--baseline <bin>',
    "another build of the fake's bin (e.g. an earlier commit's dist/bin/petstore-fake.js) loaded in the same turns",
  )
  .option('--out <file>', 'where the JSON results go', join(ROOT, 'bench/results/latest.json'))
  .parse()
  .opts<{
    duration: number;
    connections: number;
    startupRuns: number;
    contract: boolean;
    redis: boolean;
    rounds: number;
    baseline?: string;
    out: string;
  }>();

const load = { connections: options.connections, durationSeconds: options.duration, key: KEY };

// The package's dist/ as `npm pack` ships it (without the type declarations, which nothing here reads).
const buildStarted = performance.now();
await buildBundles();
const buildMs = Math.round(performance.now() - buildStarted);

process.stderr.write('start-up (spawn to first answer)\n');
const startup = {
  fake: await startupMs(fakeCommand, options.startupRuns),
  fakeFromSources: await startupMs(fakeFromSourcesCommand, options.startupRuns),
  prism: await startupMs(prismCommand, options.startupRuns),
};

process.stderr.write(
  `load: ${options.connections} connections, ${options.duration} s per scenario after a 2 s warm-up\n`,
);
const { redis, baseline, ...sideBySide } = await loadSideBySide({
  load,
  rounds: options.rounds,
  redis: options.redis,
  ...(options.baseline !== undefined && { baseline: options.baseline }),
});
// Prism, ten times slower, runs once.
const prism = await withServer(prismCommand, (server) => loadAll(server, load));

const watch = await loadThroughWatch(load, options.rounds);

process.stderr.write('memory: 2 x 100,000 requests on a fresh fake\n');
const memory = await withServer(fakeCommand, async (fake) => {
  const rssAtStartBytes = fake.rssBytes();
  const sent = await sendRequests(fake, 'GET', 100_000, { connections: options.connections, key: KEY });
  const rssAfterBytes = fake.rssBytes();
  // A second round tells a heap that has grown to its working size from one that keeps growing.
  await sendRequests(fake, 'GET', 100_000, { connections: options.connections, key: KEY });
  return { rssAtStartBytes, rssAfterBytes, rssAfterSecondRoundBytes: fake.rssBytes(), requests: sent };
});

process.stderr.write('in-process host (msw setupServer + fetch)\n');
const inProcess = await inProcessHost(Math.min(options.duration, 5), options.connections);

process.stderr.write('fresh process to first answer: the built package beside bare msw\n');
const firstAnswer = await firstAnswerMs(options.startupRuns);

let contract: BenchResults['contract'];
if (options.contract) {
  process.stderr.write('contract suite wall time\n');
  contract = { fake: await contractRun('fake'), prism: await contractRun('prism') };
}

const results: BenchResults = {
  date: new Date().toISOString(),
  machine: {
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
  },
  settings: { connections: options.connections, durationSeconds: options.duration, startupRuns: options.startupRuns },
  startup: {
    fakeMs: median(startup.fake),
    fakeFromSourcesMs: median(startup.fakeFromSources),
    prismMs: median(startup.prism),
    bundleBuildMs: buildMs,
    runsMs: startup,
  },
  load: { fake: sideBySide.fake, prism, floor: sideBySide.floor },
  watch,
  ...(redis && { redis }),
  ...(baseline && { baseline }),
  inProcess,
  firstAnswer,
  memory,
  ...(contract && { contract }),
};
mkdirSync(dirname(options.out), { recursive: true });
writeFileSync(options.out, `${JSON.stringify(results, null, 2)}\n`);
printReport(results, (line) => process.stdout.write(`${line}\n`));
process.stdout.write(`\nresults: ${options.out}\n`);
