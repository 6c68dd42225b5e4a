import type { TargetClock } from '../core/target-clock.js';

async function post(url: string, body?: unknown): Promise<Response> {
  const response = await fetch(url, {
    method: 'POST',
    ...(body !== undefined && { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`POST ${url} answered ${response.status}: ${await response.text()}`);
  return response;
}

/**
 * Back to the seed: records, quota counters, bans and clock offset (`POST /__admin/reset`).
 * @example await resetFake('http://127.0.0.1:4010')
 */
export async function resetFake(adminUrl: string): Promise<void> {
  await (await post(`${adminUrl}/__admin/reset`)).arrayBuffer();
}

/**
 * The fake's clock, moved through `POST /__admin/clock`.
 * @example await fakeClock('http://127.0.0.1:4010').advanceSeconds(61)
 */
export function fakeClock(adminUrl: string): TargetClock {
  const move = async (body: Record<string, number>) => {
    const answer = (await (await post(`${adminUrl}/__admin/clock`, body)).json()) as { epochSeconds: number };
    return answer.epochSeconds;
  };
  return {
    setEpochSeconds: (epochSeconds) => move({ epochSeconds }),
    advanceSeconds: (advanceSeconds) => move({ advanceSeconds }),
  };
}
