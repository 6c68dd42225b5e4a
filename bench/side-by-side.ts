// The load measurements whose ratios are targets: the fake, the floor, the fake on Redis (and an earlier
// build with --baseline) in turns, and two instances sharing one Redis.
import { redisIsInstalled, startRedis } from '../test/redis/redis-server.js';
import { loadInTurns, loadServer, type LoadOptions, type LoadResult, type Scenario } from './load.js';
import type { BenchResults } from './report.js';
import { fakeCommand, fakeOnRedisCommand, floorCommand, withOptionalServer, withServer } from './server-commands.js';
import type { ServerProcess } from './server-process.js';

/** How the servers are loaded, and which of them take part. */
export interface SideBySideOptions {
  load: LoadOptions;
  /** Turns each server takes (see loadInTurns). */
  rounds: number;
  /** Include the fake on Redis (when redis-server is installed). */
  redis: boolean;
  /** Another build of the fake's bin, loaded in the same turns. */
  baseline?: string;
}

/** One server, or several side by side sharing the connections: GET, then POST. */
export async function loadAll(
  target: ServerProcess | ServerProcess[],
  load: LoadOptions,
): Promise<Record<Scenario, LoadResult>> {
  // GET first: the POSTs add categories, and the list would grow under the GET load.
  const name = Array.isArray(target) ? target.map((server) => server.name).join(' + ') : target.name;
  const get = await loadServer(target, 'GET', load);
  process.stderr.write(`  ${name} GET ${get.requestsPerSecond} req/s\n`);
  const post = await loadServer(target, 'POST', load);
  process.stderr.write(`  ${name} POST ${post.requestsPerSecond} req/s\n`);
  return { GET: get, POST: post };
}

/**
 * The fake, the floor and the fake on Redis in turns: the ratios among them are targets of their own, and
 * one slow minute of this shared machine must not fall on only one of them. Then two instances on one
 * Redis sharing the connections. Redis keeps no files here (the cost measured is the round trips) and
 * stops whatever happens.
 */
export async function loadSideBySide(options: SideBySideOptions): Promise<{
  fake: Record<Scenario, LoadResult>;
  floor: Record<Scenario, LoadResult>;
  redis?: BenchResults['redis'];
  baseline?: BenchResults['baseline'];
}> {
  const { load, rounds, baseline } = options;
  const redisServer = options.redis && redisIsInstalled() ? await startRedis({ durable: false }) : undefined;
  const onRedis = (prefix: string) => () => fakeOnRedisCommand(redisServer!.url, prefix);
  try {
    process.stderr.write(
      `the fake, the floor${redisServer ? ', the fake on Redis' : ''}${baseline ? ', the baseline fake' : ''}, in turns (${rounds} rounds each)\n`,
    );
    const inTurns = await withServer(fakeCommand, (fake) =>
      withServer(floorCommand, (floor) =>
        withOptionalServer(redisServer && onRedis('one'), (fakeOnRedis) =>
          withOptionalServer(baseline ? () => fakeCommand(baseline) : undefined, async (baselineFake) => {
            const others = [fakeOnRedis, baselineFake].filter((server) => server !== undefined);
            const servers = [fake, floor, ...others];
            const at = (server?: ServerProcess) => (server ? servers.indexOf(server) : -1);
            // Every GET before any POST: the POSTs add categories, and the list would grow under the GET load.
            const get = await loadInTurns(servers, 'GET', rounds, load);
            const post = await loadInTurns(servers, 'POST', rounds, load);
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
    const twoInstances = await withServer(onRedis('two'), (a) =>
      withServer(onRedis('two'), (b) => loadAll([a, b], load)),
    );
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
