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
}

export interface LoadOptions {
  connections: number;
  durationSeconds: number;
  key: string;
}

/** The request body of the POST scenario: a valid NewCategory. */
export const POST_BODY = JSON.stringify({ name: 'hamster', description: 'Small and quick' });

/**
 * Loads one server with autocannon after a short warm-up (so the JIT has compiled the hot path).
 * @example await loadServer(fake, 'GET', { connections: 20, durationSeconds: 10, key })
 */
export async function loadServer(server: ServerProcess, scenario: Scenario, options: LoadOptions): Promise<LoadResult> {
  const request = {
    url: `${server.baseUrl}/categories`,
    method: scenario,
    headers: { authorization: `Bearer ${options.key}`, 'content-type': 'application/json' },
    ...(scenario === 'POST' && { body: POST_BODY }),
  };
  await autocannon({ ...request, connections: options.connections, duration: 2 });
  const cpuBefore = server.cpuMicros();
  const result = await autocannon({ ...request, connections: options.connections, duration: options.durationSeconds });
  const answered = result['2xx'] + result.non2xx;
  const succeeded = result.statusCodeStats?.[scenario === 'GET' ? '200' : '201']?.count ?? 0;
  return {
    requestsPerSecond: Math.round(answered / (result.duration || options.durationSeconds)),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: answered,
    unexpected: answered - succeeded,
    errors: result.errors + result.timeouts,
    serverCpuMicrosPerRequest: answered > 0 ? Math.round((server.cpuMicros() - cpuBefore) / answered) : 0,
  };
}

/**
 * Sends exactly `amount` requests of one scenario as fast as the server takes them.
 * @example await sendRequests(fake, 'GET', 100_000, { connections: 20, key })
 */
export async function sendRequests(server: ServerProcess, scenario: Scenario, amount: number, options: Omit<LoadOptions, 'durationSeconds'>): Promise<number> {
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
