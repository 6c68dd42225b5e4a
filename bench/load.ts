import autocannon from 'autocannon';
import type { ServerProcess } from './server-process.js';

/** One load scenario: an authenticated GET or POST /categories. */
export type Scenario = 'GET' | 'POST';

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /** Answers other than the scenario's success status (200 for GET, 201 for POST). */
  unexpected: number;
  errors: number;
  /** Server CPU per answered request, in microseconds: what limits it once the client is fast enough. */
  serverCpuMicrosPerRequest: number;
  /** Loaded in turns with others: req/s of each round, in order, so ratios can be taken round by round. */
  rounds?: number[];
}

export interface LoadOptions {
  connections: number;
  durationSeconds: number;
  key: string;
}

/** The request body of the POST scenario: a valid NewCategory. */
export const POST_BODY = JSON.stringify({ name: 'hamster', description: 'Small and quick' });

/**
 * Loads one server, or several side by side sharing the connections (the same total load), with
 * autocannon after a short warm-up (so the JIT has compiled the hot path). Several: requests add up,
 * latency is the worst instance's, CPU is all instances' per answered request.
 * @example await loadServer(fake, 'GET', { connections: 20, durationSeconds: 10, key })
 */
export async function loadServer(
  target: ServerProcess | ServerProcess[],
  scenario: Scenario,
  options: LoadOptions,
): Promise<LoadResult> {
  const servers = Array.isArray(target) ? target : [target];
  const request = (server: ServerProcess) => ({
    url: `${server.baseUrl}/categories`,
    method: scenario,
    headers: { authorization: `Bearer ${options.key}`, 'content-type': 'application/json' },
    ...(scenario === 'POST' && { body: POST_BODY }),
  });
  const connections = Math.max(1, Math.floor(options.connections / servers.length));
  // Every POST round starts from the seed: rounds in turns must measure the same thing, and without it the
  // fifth round of POSTs ran with four rounds' records (near a million) on the fake's heap and the floor
  // with none. How the fake grows with its records is the memory measurement's (after 100,000 requests).
  if (scenario === 'POST') await Promise.all(servers.map(resetToSeed));
  await Promise.all(servers.map((server) => autocannon({ ...request(server), connections, duration: 2 })));
  const cpuBefore = servers.reduce((sum, server) => sum + server.cpuMicros(), 0);
  const results = await Promise.all(
    servers.map((server) => autocannon({ ...request(server), connections, duration: options.durationSeconds })),
  );
  const cpu = servers.reduce((sum, server) => sum + server.cpuMicros(), 0) - cpuBefore;
  const answered = results.reduce((sum, result) => sum + result['2xx'] + result.non2xx, 0);
  const succeeded = results.reduce(
    (sum, result) => sum + (result.statusCodeStats?.[scenario === 'GET' ? '200' : '201']?.count ?? 0),
    0,
  );
  return {
    requestsPerSecond: Math.round(
      answered / (Math.max(...results.map((result) => result.duration)) || options.durationSeconds),
    ),
    p50Ms: Math.max(...results.map((result) => result.latency.p50)),
    p99Ms: Math.max(...results.map((result) => result.latency.p99)),
    requests: answered,
    unexpected: answered - succeeded,
    errors: results.reduce((sum, result) => sum + result.errors + result.timeouts, 0),
    serverCpuMicrosPerRequest: answered > 0 ? Math.round(cpu / answered) : 0,
  };
}

async function resetToSeed(server: ServerProcess): Promise<void> {
  if (!server.resetUrl) return;
  const response = await fetch(server.resetUrl, { method: 'POST' });
  await response.arrayBuffer();
  if (response.status !== 204) throw new Error(`${server.name}: POST ${server.resetUrl} answered ${response.status}`);
}

/**
 * Sends exactly `amount` requests of one scenario as fast as the server takes them.
 * @example await sendRequests(fake, 'GET', 100_000, { connections: 20, key })
 */
export async function sendRequests(
  server: ServerProcess,
  scenario: Scenario,
  amount: number,
  options: Omit<LoadOptions, 'durationSeconds'>,
): Promise<number> {
  const result = await autocannon({
    url: `${server.baseUrl}/categories`,
    method: scenario,
    headers: { authorization: `Bearer ${options.key}`, 'content-type': 'application/json' },
    ...(scenario === 'POST' && { body: POST_BODY }),
    connections: options.connections,
    amount,
  });
  return result['2xx'] + result.non2xx;
}

/**
 * Latency at a frontend's pace: one request at a time, each after the last answer, alternating between
 * the servers so that machine noise falls on each alike. Median per server, in ms (sub-millisecond).
 * @example await pacedMedianMs([fake, watched], 400, key) // [0.41, 0.78]
 */
export async function pacedMedianMs(servers: ServerProcess[], rounds: number, key: string): Promise<number[]> {
  const times: number[][] = servers.map(() => []);
  for (let round = 0; round < rounds; round += 1) {
    for (const [index, server] of servers.entries()) {
      const started = performance.now();
      const response = await fetch(`${server.baseUrl}/categories`, { headers: { authorization: `Bearer ${key}` } });
      await response.arrayBuffer();
      times[index]!.push(performance.now() - started);
    }
  }
  return times.map((each) => Math.round(1000 * [...each].sort((a, b) => a - b)[Math.floor(each.length / 2)]!) / 1000);
}

/**
 * The ratio a/b taken round by round (both loaded in the same turns): median, lowest and highest, in
 * percent. A round's two loads are seconds apart, so the machine's slow minutes fall on both of them.
 * @example ratioOverRounds(fake.GET, floor.GET) // { median: 61, low: 55, high: 66, rounds: 5 }
 */
export function ratioOverRounds(
  a: LoadResult,
  b: LoadResult,
): { median: number; low: number; high: number; rounds: number } | undefined {
  if (!a.rounds || !b.rounds || a.rounds.length !== b.rounds.length || a.rounds.length === 0) return undefined;
  const ratios = a.rounds.map((each, round) => (100 * each) / Math.max(1, b.rounds![round]!)).sort((x, y) => x - y);
  return {
    median: Math.round((ratios[Math.floor((ratios.length - 1) / 2)]! + ratios[Math.floor(ratios.length / 2)]!) / 2),
    low: Math.round(ratios[0]!),
    high: Math.round(ratios.at(-1)!),
    rounds: ratios.length,
  };
}

/**
 * Loads servers in turns, `rounds` times each, starting each round with the next server, and averages
 * each server's rounds: machine noise (these machines are shared) then falls on all of them alike, where
 * one long run each would hand a slow minute to whichever ran in it.
 * @example const [direct, proxied] = await loadInTurns([fake, proxy], 'GET', 3, options);
 */
export async function loadInTurns(
  servers: ServerProcess[],
  scenario: Scenario,
  rounds: number,
  options: LoadOptions,
): Promise<LoadResult[]> {
  const results: LoadResult[][] = servers.map(() => []);
  for (let round = 0; round < rounds; round += 1) {
    for (let turn = 0; turn < servers.length; turn += 1) {
      const index = (round + turn) % servers.length;
      results[index]!.push(await loadServer(servers[index]!, scenario, options));
    }
  }
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  return results.map((each) => ({
    requestsPerSecond: Math.round(mean(each.map((result) => result.requestsPerSecond))),
    p50Ms: median(each.map((result) => result.p50Ms)),
    p99Ms: median(each.map((result) => result.p99Ms)),
    requests: each.reduce((sum, result) => sum + result.requests, 0),
    unexpected: each.reduce((sum, result) => sum + result.unexpected, 0),
    errors: each.reduce((sum, result) => sum + result.errors, 0),
    serverCpuMicrosPerRequest: Math.round(mean(each.map((result) => result.serverCpuMicrosPerRequest))),
    rounds: each.map((result) => result.requestsPerSecond),
  }));
}
