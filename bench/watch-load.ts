// `watch` in front of the fake, in its own process as a team runs it: the same load through it beside
// the fake alone and a bare proxy, and the latency a frontend sees one request at a time.
import { join } from 'node:path';
import { freeLoopbackPort } from '../contracts/targets/free-port.js';
import { CONTRACT_BIN } from '../scripts/build/bundles.js';
import { loadInTurns, pacedMedianMs, type LoadOptions, type Scenario } from './load.js';
import type { BenchResults } from './report.js';
import { fakeCommand, KEY, PROBE_HEADERS, ROOT, withServer } from './server-commands.js';
import type { ServerCommand } from './server-process.js';

/** The fake alone, through `watch` and through a bare proxy, in turns (`rounds` each). */
export async function loadThroughWatch(load: LoadOptions, rounds: number): Promise<BenchResults['watch']> {
  process.stderr.write(
    `watch: the fake alone, through watch and through a bare proxy, in turns (${rounds} rounds each)\n`,
  );
  return withServer(fakeCommand, async (fake) => {
    const port = await freeLoopbackPort();
    const proxyCommand = async (): Promise<ServerCommand> => ({
      name: 'watch',
      command: process.execPath,
      args: [CONTRACT_BIN, 'watch', '--upstream', fake.baseUrl, '--port', String(port)],
      baseUrl: `http://127.0.0.1:${port}/v1`,
      headers: PROBE_HEADERS,
    });
    const barePort = await freeLoopbackPort();
    const bareCommand = async (): Promise<ServerCommand> => ({
      name: 'bare proxy',
      command: process.execPath,
      args: [join(ROOT, 'bench/bare-proxy.mjs'), fake.baseUrl, String(barePort)],
      baseUrl: `http://127.0.0.1:${barePort}/v1`,
      headers: PROBE_HEADERS,
    });
    return withServer(proxyCommand, async (proxy) =>
      withServer(bareCommand, async (bareProxy) => {
        const [directMs, proxiedMs] = await pacedMedianMs([fake, proxy], 500, KEY);
        // Scenario by scenario, the three in turns: every POST grows the list, so all GETs come before any.
        const run = async (scenario: Scenario) => {
          const [direct, proxied, bare] = await loadInTurns([fake, proxy, bareProxy], scenario, rounds, load);
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
}
