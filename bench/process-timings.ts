// Wall times of fresh processes: a server's start-up, the first answer in a Node test, the contract suite.
import { execFile } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { ContractReport } from '../contracts/report/suite-report.js';
import { CONTRACT_BIN } from '../scripts/build/bundles.js';
import type { BenchResults, ContractRun } from './report.js';
import { median, ROOT } from './server-commands.js';
import { startServerProcess, type ServerCommand } from './server-process.js';

const run = promisify(execFile);

/** Spawn to first answer, `runs` times. */
export async function startupMs(command: () => Promise<ServerCommand>, runs: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const server = await startServerProcess(await command());
    times.push(Math.round(server.startupMs));
    await server.stop();
  }
  return times;
}

/** One run of the built `petstore-contract` bin: wall time, exit code, and from its JSON report what it sent and covered. */
export async function contractRun(target: string): Promise<ContractRun> {
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
export async function firstAnswerMs(runs: number): Promise<BenchResults['firstAnswer']> {
  const runsMs = { fake: [] as number[], bareMsw: [] as number[] };
  const once = async (which: string) =>
    Number((await run(process.execPath, [join(ROOT, 'bench/first-answer.mjs'), which], { cwd: ROOT })).stdout);
  for (let i = 0; i < runs * 2; i += 1) {
    runsMs.fake.push(await once('fake'));
    runsMs.bareMsw.push(await once('bare'));
  }
  const fakeMs = median(runsMs.fake);
  const bareMswMs = median(runsMs.bareMsw);
  return { fakeMs, bareMswMs, extraMs: fakeMs - bareMswMs, runsMs };
}

/** The in-process host (msw setupServer + fetch), in its own process with the TypeScript loader. */
export async function inProcessHost(durationSeconds: number, connections: number): Promise<BenchResults['inProcess']> {
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'bench/in-process-host.ts'), String(durationSeconds), String(connections)],
    { cwd: ROOT },
  );
  return JSON.parse(stdout) as BenchResults['inProcess'];
}
