// Parallel load on the standalone fake: ids stay unique, the quota admits exactly its limit, the ban
// triggers exactly once. Counts are asserted, never timings.
import { describe, expect, it, jest } from '@jest/globals';
import type { Clock } from '../../mocks/domain/clock.js';
import type { Category } from '../../mocks/domain/seed.js';
import { conforming } from '../support/spec-conformance.js';
import { startAttackedServer } from './fake-server-fixture.js';
import { UNLIMITED_KEY } from './in-process-fake.js';

// A minute boundary, and a clock that moves a little each time it is read: requests land at distinct
// instants, and every test stays within one minute window (a request reads the clock about 3 times).
const T0 = Date.UTC(2026, 10, 22, 10, 0, 0);
function steppingClock(stepMs: number): Clock {
  let reads = 0;
  return { now: () => T0 + stepMs * reads++ };
}

function countBy<T>(items: T[], keyOf: (item: T) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[keyOf(item)] = (counts[keyOf(item)] ?? 0) + 1;
  return counts;
}

async function parallel(count: number, request: (i: number) => Promise<Response>, operation: string) {
  return Promise.all(Array.from({ length: count }, async (_, i) => conforming(operation, await request(i))));
}

// Counts, not timings: on a CI machine whose two cores run eight suites, hundreds of requests can take
// longer than jest's default five seconds (one CI run this stop), which says nothing of the counts.
jest.setTimeout(60_000);

describe('under parallel load', () => {
  it('200 parallel creates get 200 distinct ids, each listed once', async () => {
    const { server } = await startAttackedServer();
    try {
      const headers = { authorization: `Bearer ${UNLIMITED_KEY.key}`, 'content-type': 'application/json' };
      const created = await parallel(
        200,
        (i) =>
          fetch(`${server.baseUrl}/categories`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ name: `parallel-${i}` }),
          }),
        'createCategory',
      );
      expect(created.every(({ status }) => status === 201)).toBe(true);
      const ids = created.map(({ json }) => (json as Category).id);
      expect(new Set(ids).size).toBe(200);
      expect(Math.min(...ids)).toBe(4);
      expect(Math.max(...ids)).toBe(203);
      const list = (await conforming('listCategories', await fetch(`${server.baseUrl}/categories`, { headers })))
        .json as Category[];
      expect(list.map((category) => category.id)).toEqual(Array.from({ length: 203 }, (_, i) => i + 1));
      for (const { json } of created) expect(list).toContainEqual(json);
    } finally {
      await server.close();
    }
  });

  it('150 parallel calls with a free key: exactly 60 admitted, 10 rate-limited, then one ban for the rest', async () => {
    // 50 ms steps: a second ban, had one been triggered, would end at a later second than the first.
    const { server } = await startAttackedServer({ clock: steppingClock(50) });
    try {
      const answers = await parallel(
        150,
        () => fetch(`${server.baseUrl}/store/orders`, { headers: { authorization: 'Bearer free-test-key' } }),
        'listOrders',
      );
      const outcome = countBy(answers, ({ status, json }) =>
        status === 200 ? '200' : `${status} ${(json as { code: string }).code}`,
      );
      expect(outcome).toEqual({ '200': 60, '429 rate_limit_exceeded': 10, '429 temporarily_banned': 80 });
      // Requests during a ban neither extend nor renew it: every banned answer names the same end.
      const banEnds = new Set(
        answers
          .filter(({ json }) => (json as { code?: string }).code === 'temporarily_banned')
          .map(({ headers }) => headers['x-ratelimit-reset']),
      );
      expect(banEnds.size).toBe(1);
      const remaining = answers
        .filter(({ status }) => status === 200)
        .map(({ headers }) => Number(headers['x-ratelimit-remaining']));
      expect(remaining.sort((a, b) => a - b)).toEqual(Array.from({ length: 60 }, (_, i) => i));
    } finally {
      await server.close();
    }
  });

  it('two keys in parallel each get exactly their own plan limit', async () => {
    const { server } = await startAttackedServer({ clock: steppingClock(10), ban: { threshold: 1_000 } });
    try {
      const call = (key: string) =>
        fetch(`${server.baseUrl}/categories`, { headers: { authorization: `Bearer ${key}` } });
      const answers = await parallel(
        400,
        (i) => call(i % 2 === 0 ? 'free-test-key' : 'pro-test-key'),
        'listCategories',
      );
      const admitted = countBy(
        answers.filter(({ status }) => status === 200),
        ({ headers }) => headers['x-ratelimit-limit']!,
      );
      expect(admitted).toEqual({ '60': 60, '300': 200 });
      const again = await parallel(120, () => call('pro-test-key'), 'listCategories');
      expect(countBy(again, ({ status }) => String(status))).toEqual({ '200': 100, '429': 20 });
    } finally {
      await server.close();
    }
  });

  it('100 parallel calls with no key from one address: exactly 60 answered 401, the rest 429', async () => {
    const { server } = await startAttackedServer({ clock: steppingClock(10) });
    try {
      const answers = await parallel(100, () => fetch(`${server.baseUrl}/categories`), 'listCategories');
      expect(countBy(answers, ({ status, json }) => `${status} ${(json as { code: string }).code}`)).toEqual({
        '401 missing_api_key': 60,
        '429 rate_limit_exceeded': 40,
      });
    } finally {
      await server.close();
    }
  });
});
