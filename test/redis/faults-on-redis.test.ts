import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startFakeServer } from '../../mocks/server/index.js';
import { describeFaultControls } from '../faults/fault-scenarios.js';
import { startStandaloneHost } from '../faults/standalone-host.js';
import {
  REDIS_INSTALL_COMMAND,
  REDIS_SERVER_PATH,
  redisIsInstalled,
  startRedis,
  type RedisProcess,
} from './redis-server.js';

// The scenario suite of every host, run once more against the standalone fake with its state in Redis,
// then what only a shared store can show: two instances firing one rule.
const installed = redisIsInstalled();
let redis: RedisProcess | undefined;
let prefixes = 0;
beforeAll(async () => {
  if (installed) redis = await startRedis();
}, 30_000);
afterAll(() => redis?.stop());

if (installed) {
  describeFaultControls('standalone server on Redis', (config) =>
    startStandaloneHost(config, { redis: { url: redis!.url, prefix: `scenarios-${++prefixes}:` } }),
  );

  describe('fault rules shared by two instances on one Redis', () => {
    it('fires a times rule exactly that often across both, and replays a seeded rule whichever instance answers', async () => {
      const prefix = `shared-faults-${++prefixes}:`;
      const [a, b] = [
        await startFakeServer({ port: 0, redis: { url: redis!.url, prefix } }),
        await startFakeServer({ port: 0, redis: { url: redis!.url, prefix } }),
      ];
      try {
        const add = (rule: object) =>
          fetch(`${a.url}/__admin/faults`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(rule),
          });
        expect(
          (await add({ id: 'three', match: { path: '/store/orders' }, effect: { status: 503 }, times: 3 })).status,
        ).toBe(201);
        const statuses = await Promise.all(
          Array.from({ length: 12 }, (_, i) =>
            fetch(`${(i % 2 ? a : b).baseUrl}/store/orders`, {
              headers: { authorization: 'Bearer enterprise-test-key' },
            }).then((r) => r.status),
          ),
        );
        expect(statuses.filter((status) => status === 503)).toHaveLength(3);
        expect(await (await fetch(`${b.url}/__admin/faults`)).json()).toEqual([]);

        await add({ id: 'flaky', match: { path: '/categories' }, effect: { status: 503 }, probability: 0.5, seed: 42 });
        let firings = '';
        for (let i = 0; i < 16; i++)
          firings +=
            (
              await fetch(`${(i % 2 ? a : b).baseUrl}/categories`, {
                headers: { authorization: 'Bearer enterprise-test-key' },
              })
            ).status === 503
              ? 'x'
              : '.';
        const local = await startFakeServer({
          port: 0,
          faults: [{ effect: { status: 503 }, probability: 0.5, seed: 42 }],
        });
        let expected = '';
        for (let i = 0; i < 16; i++)
          expected +=
            (await fetch(`${local.baseUrl}/categories`, { headers: { authorization: 'Bearer enterprise-test-key' } }))
              .status === 503
              ? 'x'
              : '.';
        await local.close();
        expect(firings).toBe(expected);
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
    }, 30_000);

    // Each instance answers from the rules it last read; a change anywhere must reach its very next request.
    it('fires, on an instance that already served requests, a rule the other added or a reset brought back', async () => {
      const prefix = `cached-faults-${++prefixes}:`;
      const startUp = [{ id: 'orders-down', match: { path: '/store/orders' }, effect: { status: 503 } }];
      const [a, b] = [
        await startFakeServer({ port: 0, redis: { url: redis!.url, prefix }, faults: startUp }),
        await startFakeServer({ port: 0, redis: { url: redis!.url, prefix } }),
      ];
      const get = async (server: typeof a, path: string) =>
        (await fetch(`${server.baseUrl}${path}`, { headers: { authorization: 'Bearer enterprise-test-key' } })).status;
      const admin = (method: string, path: string, rule?: object) =>
        fetch(`${a.url}/__admin${path}`, {
          method,
          ...(rule && { headers: { 'content-type': 'application/json' }, body: JSON.stringify(rule) }),
        });
      try {
        expect(await get(b, '/store/orders')).toBe(503);
        expect((await admin('DELETE', '/faults')).status).toBe(204);
        expect([await get(b, '/categories'), await get(b, '/store/orders')]).toEqual([200, 200]);

        expect(
          (
            await admin('POST', '/faults', {
              id: 'once',
              match: { path: '/categories' },
              effect: { status: 502 },
              times: 1,
            })
          ).status,
        ).toBe(201);
        expect([await get(b, '/categories'), await get(b, '/categories'), await get(a, '/categories')]).toEqual([
          502, 200, 200,
        ]);

        expect((await admin('POST', '/reset')).status).toBe(204);
        expect([await get(b, '/store/orders'), await get(b, '/categories')]).toEqual([503, 200]);
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
    }, 30_000);
  });
} else {
  describe.skip(`fault rules on Redis (skipped: no ${REDIS_SERVER_PATH}; install it with \`${REDIS_INSTALL_COMMAND}\`)`, () =>
    undefined);
}
