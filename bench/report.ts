import { ratioOverRounds, type LoadResult, type Scenario } from './load.js';

/** What `npm run bench` writes to JSON. */
export interface BenchResults {
  date: string;
  machine: { cpu: string; cores: number; memoryGiB: number; node: string };
  settings: { connections: number; durationSeconds: number; startupRuns: number };
  startup: {
    fakeMs: number;
    fakeFromSourcesMs: number;
    prismMs: number;
    bundleBuildMs: number;
    runsMs: Record<'fake' | 'fakeFromSources' | 'prism', number[]>;
  };
  load: Record<'fake' | 'prism' | 'floor', Record<Scenario, LoadResult>>;
  /** The standalone fake alone and through `watch` (its own process): load, and one request at a time. */
  watch: {
    direct: Record<Scenario, LoadResult>;
    proxied: Record<Scenario, LoadResult>;
    bareProxy: Record<Scenario, LoadResult>;
    pacedP50Ms: { direct: number; proxied: number };
  };
  /** The standalone fake with its state in Redis: one instance (in turns with the in-memory fake and the floor), and two on one Redis under the same total load. */
  redis?: Record<'oneInstance' | 'twoInstances', Record<Scenario, LoadResult>>;
  /** Another build of the fake (`--baseline`), loaded in the same turns: a before/after in one run. */
  baseline?: { bin: string } & Record<Scenario, LoadResult>;
  inProcess: Record<'get' | 'post', { requestsPerSecond: number; unexpected: number }>;
  /** Fresh process to first answer in Node tests: the built package's setupFake beside a bare msw setupServer. */
  firstAnswer: { fakeMs: number; bareMswMs: number; extraMs: number; runsMs: Record<'fake' | 'bareMsw', number[]> };
  memory: { rssAtStartBytes: number; rssAfterBytes: number; rssAfterSecondRoundBytes: number; requests: number };
  contract?: Record<'fake' | 'prism', ContractRun>;
}

/** One timed `npm run contract` run, with what it sent and covered (from its JSON report). */
export interface ContractRun {
  seconds: number;
  exitCode: number;
  generatedCases: number;
  requests: number;
  coveragePercent: number;
}

const ratio = (a: number, b: number) => (b > 0 ? a / b : 0);
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

/**
 * The table a person reads: requests/s, latency, server CPU per request, and the two ratios.
 * @example printReport(results, console.log)
 */
export function printReport(results: BenchResults, print: (line: string) => void): void {
  const { load } = results;
  print(
    `\n${results.machine.cpu}, ${results.machine.cores} cores, Node ${results.machine.node}; ${results.settings.connections} connections, ${results.settings.durationSeconds} s each`,
  );
  print('| server | scenario | req/s | p50 ms | p99 ms | server CPU µs/req | unexpected | errors |');
  print('|---|---|---:|---:|---:|---:|---:|---:|');
  const row = (name: string, scenario: Scenario, r: LoadResult) =>
    print(
      `| ${name} | ${scenario} /categories | ${r.requestsPerSecond} | ${r.p50Ms} | ${r.p99Ms} | ${r.serverCpuMicrosPerRequest} | ${r.unexpected} | ${r.errors} |`,
    );
  for (const name of ['fake', 'prism', 'floor'] as const)
    for (const scenario of ['GET', 'POST'] as const) row(name, scenario, load[name][scenario]);
  if (results.baseline)
    for (const scenario of ['GET', 'POST'] as const) row('fake (baseline)', scenario, results.baseline[scenario]);
  if (results.redis) {
    const rows = [
      ['fake, Redis store', results.redis.oneInstance],
      ['2 fakes, one Redis', results.redis.twoInstances],
    ] as const;
    for (const [name, result] of rows)
      for (const scenario of ['GET', 'POST'] as const) row(name, scenario, result[scenario]);
  }
  // Ratios of servers loaded in the same turns are taken round by round: the median, and the spread.
  const inTurns = (a: LoadResult, b: LoadResult) => {
    const spread = ratioOverRounds(a, b);
    return spread
      ? `${spread.median}% (median of ${spread.rounds} rounds in turns, ${spread.low}-${spread.high}%)`
      : `${(100 * ratio(a.requestsPerSecond, b.requestsPerSecond)).toFixed(0)}%`;
  };
  const p50 = (a: LoadResult, b: LoadResult) => `p50 ${a.p50Ms} ms against ${b.p50Ms} ms`;
  for (const scenario of ['GET', 'POST'] as const) {
    const fake = load.fake[scenario];
    const floor = load.floor[scenario];
    print(
      `${scenario}: fake/floor ${inTurns(fake, floor)}, ${p50(fake, floor)}; ` +
        `fake/prism ${ratio(fake.requestsPerSecond, load.prism[scenario].requestsPerSecond).toFixed(1)}x`,
    );
    if (results.baseline) {
      const before = results.baseline[scenario];
      print(
        `${scenario}: baseline fake/floor ${inTurns(before, floor)}, ${p50(before, floor)}; this build/baseline ${inTurns(fake, before)}`,
      );
    }
    if (results.redis) {
      const { oneInstance, twoInstances } = results.redis;
      print(
        `${scenario} on Redis: ${inTurns(oneInstance[scenario], fake)} of the in-memory fake, ${p50(oneInstance[scenario], fake)}; ` +
          `two instances ${ratio(twoInstances[scenario].requestsPerSecond, oneInstance[scenario].requestsPerSecond).toFixed(2)}x one`,
      );
    }
  }
  const { watch } = results;
  for (const scenario of ['GET', 'POST'] as const) {
    const direct = watch.direct[scenario];
    const proxied = watch.proxied[scenario];
    const bare = watch.bareProxy[scenario];
    print(
      `watch, ${scenario} under load: ${proxied.requestsPerSecond} req/s through the proxy, ${direct.requestsPerSecond} direct (${(100 * ratio(proxied.requestsPerSecond, direct.requestsPerSecond)).toFixed(0)}%), p50 ${proxied.p50Ms} ms against ${direct.p50Ms} ms; ` +
        `a bare node:http proxy ${bare.requestsPerSecond} req/s (${(100 * ratio(bare.requestsPerSecond, direct.requestsPerSecond)).toFixed(0)}%); ` +
        `proxy CPU per request ${proxied.serverCpuMicrosPerRequest} µs (bare ${bare.serverCpuMicrosPerRequest} µs)`,
    );
  }
  print(
    `watch, one request at a time (median of 500): ${watch.pacedP50Ms.proxied} ms through the proxy, ${watch.pacedP50Ms.direct} ms direct: +${(watch.pacedP50Ms.proxied - watch.pacedP50Ms.direct).toFixed(2)} ms`,
  );
  const { startup } = results;
  print(
    `start-up to first answer (median of ${results.settings.startupRuns}): fake ${startup.fakeMs} ms (bundle; built in ${startup.bundleBuildMs} ms), ` +
      `fake from sources via tsx ${startup.fakeFromSourcesMs} ms, prism ${startup.prismMs} ms; fake/prism ${ratio(startup.prismMs, startup.fakeMs).toFixed(1)}x faster`,
  );
  const { firstAnswer } = results;
  print(
    `fresh process to first answer (median of ${firstAnswer.runsMs.fake.length}): import petstore-harness/node + setupFake ${firstAnswer.fakeMs} ms, ` +
      `bare msw setupServer with one static handler ${firstAnswer.bareMswMs} ms; the fake costs ${firstAnswer.extraMs >= 0 ? `${firstAnswer.extraMs} ms more` : `${-firstAnswer.extraMs} ms less (noise: the two are level)`}`,
  );
  print(
    `in-process host (msw setupServer + fetch): GET ${results.inProcess.get.requestsPerSecond} req/s, POST ${results.inProcess.post.requestsPerSecond} req/s`,
  );
  const { memory } = results;
  print(
    `fake RSS: ${mib(memory.rssAtStartBytes)} at start, ${mib(memory.rssAfterBytes)} after ${memory.requests} GETs, ${mib(memory.rssAfterSecondRoundBytes)} after as many again`,
  );
  if (results.contract) {
    const { fake, prism } = results.contract;
    for (const [name, result] of [
      ['fake', fake],
      ['prism', prism],
    ] as const) {
      print(
        `contract suite against ${name}: ${result.seconds} s wall (exit ${result.exitCode}), ${result.generatedCases} generated cases, ${result.requests} requests, coverage ${result.coveragePercent}%`,
      );
    }
  }
}
