// `npm run bench`: the standalone fake beside `prism mock` of the same spec and a bare node:http floor,
// the fake and the floor loaded in turns in one run, plus start-up, the in-process host, the contract suite's wall
// time per target and the fake's memory after 100,000 requests. Writes the results as JSON.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { cpus, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Command, InvalidArgumentError } from 'commander';
import { freeLoopbackPort } from '../contracts/targets/free-port.js';
import { loadInTurns, loadServer, pacedMedianMs, sendRequests, type LoadResult, type Scenario } from './load.js';
import { buildBundles, CONTRACT_BIN, FAKE_SERVER_BIN } from '../scripts/build/bundles.js';
import type { ContractReport } from '../contracts/report/suite-report.js';
import { printReport, type BenchResults, type ContractRun } from './report.js';
import { startServerProcess, type ServerCommand, type ServerProcess } from './server-process.js';
import { redisIsInstalled, startRedis } from '../test/redis/redis-server.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const KEY = 'bench-enterprise-key';
const run = promisify(execFile);

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

// An enterprise key whose limits no run reaches: every answer is a 2xx, none a 429.
const keysFile = join(mkdtempSync(join(tmpdir(), 'petstore-bench-')), 'keys.json');
writeFileSync(
  keysFile,
  JSON.stringify([{ key: KEY, plan: 'enterprise', perMinute: 1_000_000_000, perDay: 1_000_000_000 }]),
);
const probeHeaders = { authorization: `Bearer ${KEY}` };

// What `npm start` runs once it has built the bundle (or another build of it, for a before/after).
async function fakeCommand(bin = FAKE_SERVER_BIN): Promise<ServerCommand> {
  const port = await freeLoopbackPort();
  return {
    name: bin === FAKE_SERVER_BIN ? 'fake' : 'fake (baseline)',
    command: process.execPath,
    args: [bin, '--port', String(port), '--keys', keysFile, '--quiet'],
    baseUrl: `http://127.0.0.1:${port}/v1`,
    headers: probeHeaders,
  };
}

// The same server straight from the TypeScript sources, as the tests start it: no build step.
async function fakeFromSourcesCommand(): Promise<ServerCommand> {
  const fake = await fakeCommand();
  return {
    ...fake,
    name: 'fake (tsx)',
    args: ['--import', 'tsx', join(ROOT, 'scripts/fake-server.ts'), ...fake.args.slice(1)],
  };
}

async function prismCommand(): Promise<ServerCommand> {
  const port = await freeLoopbackPort();
  return {
    name: 'prism',
    command: join(ROOT, 'node_modules/.bin/prism'),
    args: [
      'mock',
      join(ROOT, 'spec/openapi.yaml'),
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--errors',
      'false',
      '--verboseLevel',
      'error',
    ],
    baseUrl: `http://127.0.0.1:${port}`,
    headers: probeHeaders,
  };
}

async function floorCommand(): Promise<ServerCommand> {
  const port = await freeLoopbackPort();
  return {
    name: 'floor',
    command: process.execPath,
    args: [join(ROOT, 'bench/floor-server.mjs'), String(port)],
    baseUrl: `http://127.0.0.1:${port}`,
    headers: {},
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function startupMs(command: () => Promise<ServerCommand>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < options.startupRuns; i += 1) {
    const server = await startServerProcess(await command());
    times.push(Math.round(server.startupMs));
    await server.stop();
  }
  return times;
}

async function loadAll(target: ServerProcess | ServerProcess[]): Promise<Record<Scenario, LoadResult>> {
  // GET first: the POSTs add categories, and the list would grow under the GET load.
  const load = { connections: options.connections, durationSeconds: options.duration, key: KEY };
  const name = Array.isArray(target) ? target.map((server) => server.name).join(' + ') : target.name;
  const get = await loadServer(target, 'GET', load);
  process.stderr.write(`  ${name} GET ${get.requestsPerSecond} req/s\n`);
  const post = await loadServer(target, 'POST', load);
  process.stderr.write(`  ${name} POST ${post.requestsPerSecond} req/s\n`);
  return { GET: get, POST: post };
}

async function withServer<T>(
  command: () => Promise<ServerCommand>,
  use: (server: ServerProcess) => Promise<T>,
): Promise<T> {
  const server = await startServerProcess(await command());
  try {
    return await use(server);
  } finally {
    await server.stop();
  }
}

/** One run of the built `petstore-contract` bin: wall time, exit code, and from its JSON report what it sent and covered. */
async function contractRun(target: string): Promise<ContractRun> {
  const report = join(tmpdir(), `petstore-bench-contract-${process.pid}-${target}.json`);
  const started = performance.now();
  const exitCode = await run(process.execPath, [CONTRACT_BIN, '--target', target, '--json', report], {
    cwd: ROOT,
    maxBuffer: 16 * 1024 * 1024,
  }).then(
    () => 0,
    (error: { code?: number }) => error.code ?? 1,
  );
  const seconds = Math.round((performance.now() - started) / 100) / 10;
  const suite = (JSON.parse(await readFile(report, 'utf8')) as ContractReport).targets[0]!;
  await rm(report, { force: true });
  // The generated checks note how many cases each property tried; the sum is the run's.
  const cases = suite.results
    .flatMap(({ notes }) => notes)
    .reduce((sum, note) => sum + Number(/: (\d+) (?:generated cases|refused requests sent)/.exec(note)?.[1] ?? 0), 0);
  return {
    seconds,
    exitCode,
    generatedCases: cases,
    requests: suite.requests,
    coveragePercent: suite.coverage.percent,
  };
}

/** Fresh processes, fake and bare msw taking turns so that machine noise falls on both alike. */
async function firstAnswerMs(): Promise<BenchResults['firstAnswer']> {
  const runsMs = { fake: [] as number[], bareMsw: [] as number[] };
  const once = async (which: string) =>
    Number((await run(process.execPath, [join(ROOT, 'bench/first-answer.mjs'), which], { cwd: ROOT })).stdout);
  for (let i = 0; i < options.startupRuns * 2; i += 1) {
    runsMs.fake.push(await once('fake'));
    runsMs.bareMsw.push(await once('bare'));
  }
  const fakeMs = median(runsMs.fake);
  const bareMswMs = median(runsMs.bareMsw);
  return { fakeMs, bareMswMs, extraMs: fakeMs - bareMswMs, runsMs };
}

// The package's dist/ as `npm pack` ships it (without the type declarations, which nothing here reads).
const buildStarted = performance.now();
await buildBundles();
const buildMs = Math.round(performance.now() - buildStarted);

process.stderr.write('start-up (spawn to first answer)\n');
const startup = {
  fake: await startupMs(fakeCommand),
  fakeFromSources: await startupMs(fakeFromSourcesCommand),
  prism: await startupMs(prismCommand),
};

// How many turns each server takes where two or more are compared under load (see loadInTurns).
const ROUNDS = options.rounds;

// `use` with the server when there is a command, else with none.
const withOptionalServer = <T>(
  command: (() => Promise<ServerCommand>) | undefined,
  use: (server?: ServerProcess) => Promise<T>,
): Promise<T> => (command ? withServer(command, use) : use());

/**
 * The fake, the floor and the fake on Redis in turns: the ratios among them are targets of their own, and
 * one slow minute of this shared machine must not fall on only one of them. Then two instances on one
 * Redis sharing the connections. Redis keeps no files here (the cost measured is the round trips) and
 * stops whatever happens.
 */
async function loadSideBySide(): Promise<{
  fake: Record<Scenario, LoadResult>;
  floor: Record<Scenario, LoadResult>;
  redis?: BenchResults['redis'];
  baseline?: BenchResults['baseline'];
}> {
  const redisServer = options.redis && redisIsInstalled() ? await startRedis({ durable: false }) : undefined;
  const onRedis = (prefix: string) => async (): Promise<ServerCommand> => {
    const command = await fakeCommand();
    return {
      ...command,
      name: `fake (${prefix})`,
      args: [...command.args, '--store', redisServer!.url, '--store-prefix', `${prefix}:`],
    };
  };
  try {
    process.stderr.write(
      `the fake, the floor${redisServer ? ', the fake on Redis' : ''}${options.baseline ? ', the baseline fake' : ''}, in turns (${ROUNDS} rounds each)\n`,
    );
    const baseline = options.baseline;
    const inTurns = await withServer(fakeCommand, (fake) =>
      withServer(floorCommand, (floor) =>
        withOptionalServer(redisServer && onRedis('one'), (fakeOnRedis) =>
          withOptionalServer(baseline ? () => fakeCommand(baseline) : undefined, async (baselineFake) => {
            const load = { connections: options.connections, durationSeconds: options.duration, key: KEY };
            const others = [fakeOnRedis, baselineFake].filter((server) => server !== undefined);
            const servers = [fake, floor, ...others];
            const at = (server?: ServerProcess) => (server ? servers.indexOf(server) : -1);
            // Every GET before any POST: the POSTs add categories, and the list would grow under the GET load.
            const get = await loadInTurns(servers, 'GET', ROUNDS, load);
            const post = await loadInTurns(servers, 'POST', ROUNDS, load);
            const both = (server?: ServerProcess) => server && { GET: get[at(server)]!, POST: post[at(server)]! };
            for (const [scenario, results] of [
              ['GET', get],
              ['POST', post],
            ] as const) {
              process.stderr.write(
                `  ${scenario} ${results.map((result, index) => `${servers[index]!.name} ${result.requestsPerSecond}`).join(', ')} req/s\n`,
              );
            }
            return {
              fake: both(fake)!,
              floor: both(floor)!,
              onRedis: both(fakeOnRedis),
              baseline: both(baselineFake),
            };
          }),
        ),
      ),
    );
    const baselineResult = inTurns.baseline && { bin: baseline!, ...inTurns.baseline };
    if (!inTurns.onRedis) return { fake: inTurns.fake, floor: inTurns.floor, baseline: baselineResult };
    process.stderr.write('load on Redis: two instances on one Redis\n');
    const twoInstances = await withServer(onRedis('two'), (a) => withServer(onRedis('two'), (b) => loadAll([a, b])));
    return {
      fake: inTurns.fake,
      floor: inTurns.floor,
      redis: { oneInstance: inTurns.onRedis, twoInstances },
      baseline: baselineResult,
    };
  } finally {
    await redisServer?.stop();
  }
}

process.stderr.write(
  `load: ${options.connections} connections, ${options.duration} s per scenario after a 2 s warm-up\n`,
);
// Prism, ten times slower, runs once.
const { redis, baseline, ...sideBySide } = await loadSideBySide();
const load = { fake: sideBySide.fake, prism: await withServer(prismCommand, loadAll), floor: sideBySide.floor };

// `watch` in front of the fake, in its own process as a team runs it: the same load through it beside
// the fake alone, and the latency a frontend sees one request at a time.
process.stderr.write(
  `watch: the fake alone, through watch and through a bare proxy, in turns (${ROUNDS} rounds each)\n`,
);
const watch = await withServer(fakeCommand, async (fake) => {
  const port = await freeLoopbackPort();
  const proxyCommand = async (): Promise<ServerCommand> => ({
    name: 'watch',
    command: process.execPath,
    args: [CONTRACT_BIN, 'watch', '--upstream', fake.baseUrl, '--port', String(port)],
    baseUrl: `http://127.0.0.1:${port}/v1`,
    headers: probeHeaders,
  });
  const barePort = await freeLoopbackPort();
  const bareCommand = async (): Promise<ServerCommand> => ({
    name: 'bare proxy',
    command: process.execPath,
    args: [join(ROOT, 'bench/bare-proxy.mjs'), fake.baseUrl, String(barePort)],
    baseUrl: `http://127.0.0.1:${barePort}/v1`,
    headers: probeHeaders,
  });
  return withServer(proxyCommand, async (proxy) =>
    withServer(bareCommand, async (bareProxy) => {
      const [directMs, proxiedMs] = await pacedMedianMs([fake, proxy], 500, KEY);
      // Scenario by scenario, the three in turns: every POST grows the list, so all GETs come before any.
      const load = { connections: options.connections, durationSeconds: options.duration, key: KEY };
      const run = async (scenario: Scenario) => {
        const [direct, proxied, bare] = await loadInTurns([fake, proxy, bareProxy], scenario, ROUNDS, load);
        return { direct: direct!, proxied: proxied!, bare: bare! };
      };
      const get = await run('GET');
      const post = await run('POST');
      process.stderr.write(
        `  GET ${get.direct.requestsPerSecond} req/s direct, ${get.proxied.requestsPerSecond} through watch, ${get.bare.requestsPerSecond} through a bare proxy; POST ${post.direct.requestsPerSecond}, ${post.proxied.requestsPerSecond}, ${post.bare.requestsPerSecond}\n`,
      );
      return {
        direct: { GET: get.direct, POST: post.direct },
        proxied: { GET: get.proxied, POST: post.proxied },
        bareProxy: { GET: get.bare, POST: post.bare },
        pacedP50Ms: { direct: directMs!, proxied: proxiedMs! },
      };
    }),
  );
});

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
const inProcess = JSON.parse(
  (
    await run(
      process.execPath,
      [
        '--import',
        'tsx',
        join(ROOT, 'bench/in-process-host.ts'),
        String(Math.min(options.duration, 5)),
        String(options.connections),
      ],
      { cwd: ROOT },
    )
  ).stdout,
) as BenchResults['inProcess'];

process.stderr.write('fresh process to first answer: the built package beside bare msw\n');
const firstAnswer = await firstAnswerMs();

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
  load,
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
