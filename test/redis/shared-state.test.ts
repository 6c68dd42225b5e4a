import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { startFakeServer, type RunningFakeServer } from '../../mocks/server/index.js';
import {
  REDIS_INSTALL_COMMAND,
  REDIS_SERVER_PATH,
  redisIsInstalled,
  startRedis,
  type RedisProcess,
} from './redis-server.js';

// docs/explanation/design.md section 6 against a real redis-server: several standalone fakes on one Redis behave as one.
const installed = redisIsInstalled();
if (!installed)
  console.warn(`[redis] skipped: ${REDIS_SERVER_PATH} not found; install it with: ${REDIS_INSTALL_COMMAND}`);
const describeWithRedis = installed ? describe : describe.skip;

const free = { authorization: 'Bearer free-test-key' };
const SLOW = 30_000;

describeWithRedis(
  `two standalone fakes on one Redis${installed ? '' : ` (skipped: install it with \`${REDIS_INSTALL_COMMAND}\`)`}`,
  () => {
    let redis: RedisProcess;
    const running: RunningFakeServer[] = [];
    const instance = async (prefix = 'petstore:') => {
      const server = await startFakeServer({ port: 0, redis: { url: redis.url, prefix } });
      running.push(server);
      return server;
    };

    beforeAll(async () => {
      redis = await startRedis();
    }, SLOW);
    afterEach(async () => {
      await Promise.all(running.splice(0).map((server) => server.close()));
    });
    afterAll(() => redis?.stop());

    /** Two instances on a fresh state, the clock in the middle of a minute. */
    const pair = async () => {
      const [a, b] = [await instance(), await instance()];
      expect((await fetch(`${a.url}/__admin/reset`, { method: 'POST' })).status).toBe(204);
      await fetch(`${a.url}/__admin/clock`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ epochSeconds: 1_800_000_005 }),
      });
      return [a, b] as const;
    };

    it(
      'admits exactly 60 of 80 parallel free-key requests spread over both, and bans the key once',
      async () => {
        const [a, b] = await pair();
        const answers = await Promise.all(
          Array.from({ length: 80 }, async (_, i) => {
            const response = await fetch(`${(i % 2 ? a : b).baseUrl}/store/orders`, { headers: free });
            const body = (await response.json()) as { code?: string };
            return { status: response.status, code: body.code, reset: response.headers.get('x-ratelimit-reset') };
          }),
        );
        expect(answers.filter((answer) => answer.status === 200)).toHaveLength(60);
        const refused = answers.filter((answer) => answer.status === 429);
        // More than 10 rejections in the minute ban the key: 10 are rate_limit_exceeded, the 11th starts the ban.
        expect(refused.filter((answer) => answer.code === 'rate_limit_exceeded')).toHaveLength(10);
        const bannedAnswers = refused.filter((answer) => answer.code === 'temporarily_banned');
        expect(bannedAnswers).toHaveLength(10);
        expect(new Set(bannedAnswers.map((answer) => answer.reset)).size).toBe(1); // one ban, one end
        const state = (await (await fetch(`${b.url}/__admin/keys/free-test-key`)).json()) as {
          minute: { remaining: number };
          bannedUntil: string;
        };
        expect(state.minute.remaining).toBe(0);
        expect(Math.ceil(Date.parse(state.bannedUntil) / 1000)).toBe(Number(bannedAnswers[0]!.reset));
      },
      SLOW,
    );

    it(
      'lists through one instance what the other created, same id; ids stay unique under parallel creates',
      async () => {
        const [a, b] = await pair();
        const create = (server: RunningFakeServer, name: string) =>
          fetch(`${server.baseUrl}/categories`, {
            method: 'POST',
            headers: { authorization: 'Bearer enterprise-test-key', 'content-type': 'application/json' },
            body: JSON.stringify({ name }),
          }).then(async (response) => ({
            status: response.status,
            body: (await response.json()) as { id: number; name: string },
          }));
        const ferret = await create(a, 'ferret');
        expect(ferret).toEqual({ status: 201, body: { id: 4, name: 'ferret' } });
        const listed = (await (await fetch(`${b.baseUrl}/categories`, { headers: free })).json()) as Array<{
          id: number;
          name: string;
        }>;
        expect(listed.at(-1)).toEqual({ id: 4, name: 'ferret' });
        const created = await Promise.all(Array.from({ length: 40 }, (_, i) => create(i % 2 ? a : b, `pet kind ${i}`)));
        const ids = created.map((answer) => answer.body.id).sort((x, y) => x - y);
        expect(new Set(ids).size).toBe(40);
        expect(ids).toEqual(Array.from({ length: 40 }, (_, i) => i + 5));
        const all = (await (await fetch(`${a.baseUrl}/categories`, { headers: free })).json()) as unknown[];
        expect(all).toHaveLength(44);
      },
      SLOW,
    );

    it(
      "keeps a category's text exactly, whatever it holds: admission sends a request's fields and reads its reply as newline-separated text",
      async () => {
        const [a, b] = await pair();
        const category = { name: 'two\nlines "quoted" \\ and\ttab', description: 'one\ntwo\r\nthree \u2028 ✓ % =' };
        const created = await fetch(`${a.baseUrl}/categories`, {
          method: 'POST',
          headers: { authorization: 'Bearer enterprise-test-key', 'content-type': 'application/json' },
          body: JSON.stringify(category),
        });
        expect(created.status).toBe(201);
        expect(await created.json()).toEqual({ id: 4, ...category });
        const listed = (await (await fetch(`${b.baseUrl}/categories`, { headers: free })).json()) as unknown[];
        expect(listed).toHaveLength(4);
        expect(listed.at(-1)).toEqual({ id: 4, ...category });
      },
      SLOW,
    );

    it(
      'keeps every record, counter, ban and revocation across a restart of the instances',
      async () => {
        const [a, b] = await pair();
        await fetch(`${a.baseUrl}/categories`, {
          method: 'POST',
          headers: { ...free, 'content-type': 'application/json' },
          body: '{"name":"ferret"}',
        });
        await fetch(`${a.url}/__admin/keys/pro-test-key/ban`, { method: 'POST' });
        await fetch(`${b.url}/__admin/keys/business-test-key/revoke`, { method: 'POST' });
        await Promise.all(running.splice(0).map((server) => server.close()));

        const restarted = await instance();
        const list = await fetch(`${restarted.baseUrl}/categories`, { headers: free });
        expect(((await list.json()) as Array<{ name: string }>).map((category) => category.name)).toEqual([
          'dog',
          'cat',
          'rabbit',
          'ferret',
        ]);
        expect(list.headers.get('x-ratelimit-remaining')).toBe('58'); // the create before the restart, and this list
        expect(
          (
            (await (
              await fetch(`${restarted.baseUrl}/categories`, { headers: { authorization: 'Bearer pro-test-key' } })
            ).json()) as { code: string }
          ).code,
        ).toBe('temporarily_banned');
        expect(
          (await fetch(`${restarted.baseUrl}/categories`, { headers: { authorization: 'Bearer business-test-key' } }))
            .status,
        ).toBe(401);
        const clock = (await (
          await fetch(`${restarted.url}/__admin/clock`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: '{"advanceSeconds":0}',
          })
        ).json()) as { epochSeconds: number };
        expect(clock.epochSeconds - 1_800_000_005).toBeLessThan(30); // the clock offset too
      },
      SLOW,
    );

    it(
      'answers 503 store_unavailable while Redis is gone, then normally once it is back, nothing lost',
      async () => {
        const [a, b] = await pair();
        await fetch(`${a.baseUrl}/categories`, {
          method: 'POST',
          headers: { ...free, 'content-type': 'application/json' },
          body: '{"name":"ferret"}',
        });
        await redis.stop();
        for (const server of [a, b]) {
          const down = await fetch(`${server.baseUrl}/categories`, { headers: free });
          expect(down.status).toBe(503);
          expect(down.headers.get('retry-after')).toBe('1');
          expect(await down.json()).toEqual({
            code: 'store_unavailable',
            message: expect.stringContaining('Redis'),
            status: 503,
          });
        }
        const write = await fetch(`${b.baseUrl}/categories`, {
          method: 'POST',
          headers: { ...free, 'content-type': 'application/json' },
          body: '{"name":"lost?"}',
        });
        expect(write.status).toBe(503);
        const reset = await fetch(`${a.url}/__admin/reset`, { method: 'POST' });
        expect([reset.status, ((await reset.json()) as { code: string }).code]).toEqual([503, 'store_unavailable']);
        await redis.start();
        // The clients reconnect by themselves (backoff up to 1 s).
        let back: Response | undefined;
        for (let attempt = 0; attempt < 50 && back?.status !== 200; attempt++) {
          await new Promise((resolve) => setTimeout(resolve, 200));
          back = await fetch(`${b.baseUrl}/categories`, { headers: free });
        }
        expect(back?.status).toBe(200);
        expect(((await back!.json()) as Array<{ name: string }>).map((category) => category.name)).toEqual([
          'dog',
          'cat',
          'rabbit',
          'ferret',
        ]);
        expect((await fetch(`${a.baseUrl}/categories`, { headers: free })).status).toBe(200); // not stuck behind the failed reset
      },
      SLOW,
    );

    it(
      'moves one clock for both: an advance through one instance adds to what the other set',
      async () => {
        const [a, b] = await pair();
        const advance = async (server: RunningFakeServer, seconds: number) =>
          (
            (await (
              await fetch(`${server.url}/__admin/clock`, {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify({ advanceSeconds: seconds }),
              })
            ).json()) as { epochSeconds: number }
          ).epochSeconds;
        const afterA = await advance(a, 3_600);
        const afterB = await advance(b, 60);
        expect(afterB - afterA).toBeGreaterThanOrEqual(60);
        expect(afterB - afterA).toBeLessThan(70);
        const reset = Number(
          (await fetch(`${a.baseUrl}/categories`, { headers: free })).headers.get('x-ratelimit-reset'),
        );
        expect(reset - afterB).toBeGreaterThan(0);
        expect(reset - afterB).toBeLessThanOrEqual(60);
      },
      SLOW,
    );

    it(
      'resets both instances through one, and leaves a fake on another prefix untouched',
      async () => {
        const [a, b] = await pair();
        const other = await instance('other-team:');
        await fetch(`${other.url}/__admin/reset`, { method: 'POST' });
        for (const server of [b, other]) {
          await fetch(`${server.baseUrl}/categories`, {
            method: 'POST',
            headers: { ...free, 'content-type': 'application/json' },
            body: '{"name":"ferret"}',
          });
        }
        expect((await fetch(`${a.url}/__admin/reset`, { method: 'POST' })).status).toBe(204);
        const names = async (server: RunningFakeServer) =>
          (
            (await (await fetch(`${server.baseUrl}/categories`, { headers: free })).json()) as Array<{ name: string }>
          ).map((category) => category.name);
        expect(await names(b)).toEqual(['dog', 'cat', 'rabbit']);
        expect(await names(other)).toEqual(['dog', 'cat', 'rabbit', 'ferret']);
        const otherState = (await (await fetch(`${other.url}/__admin/keys/free-test-key`)).json()) as {
          minute: { remaining: number };
        };
        expect(otherState.minute.remaining).toBe(58);
      },
      SLOW,
    );

    // Each instance keeps the category list it last read and reads the records again only when their version in Redis moved.
    it(
      'lists, on an instance that holds the category list, what the other created (with or without a fault rule) or reset',
      async () => {
        const [a, b] = await pair();
        const names = async (server: RunningFakeServer) =>
          (
            (await (await fetch(`${server.baseUrl}/categories`, { headers: free })).json()) as Array<{ name: string }>
          ).map((category) => category.name);
        const create = (server: RunningFakeServer, name: string) =>
          fetch(`${server.baseUrl}/categories`, {
            method: 'POST',
            headers: { ...free, 'content-type': 'application/json' },
            body: JSON.stringify({ name }),
          });
        expect(await names(b)).toEqual(['dog', 'cat', 'rabbit']);
        expect(await names(b)).toEqual(['dog', 'cat', 'rabbit']);
        expect((await create(a, 'ferret')).status).toBe(201);
        expect(await names(b)).toEqual(['dog', 'cat', 'rabbit', 'ferret']);
        // A rule that applies to the create takes it through the stages one by one, not the admission script.
        const rule = { id: 'slow-create', match: { method: 'POST', path: '/categories' }, effect: { delayMs: 1 } };
        expect(
          (
            await fetch(`${a.url}/__admin/faults`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify(rule),
            })
          ).status,
        ).toBe(201);
        expect((await create(a, 'gerbil')).status).toBe(201);
        expect(await names(b)).toEqual(['dog', 'cat', 'rabbit', 'ferret', 'gerbil']);
        expect((await fetch(`${a.url}/__admin/reset`, { method: 'POST' })).status).toBe(204);
        expect(await names(b)).toEqual(['dog', 'cat', 'rabbit']);
      },
      SLOW,
    );

    it(
      'refuses to start when Redis cannot be reached, naming the URL',
      async () => {
        await expect(startFakeServer({ port: 0, redis: { url: 'redis://127.0.0.1:1' } })).rejects.toThrow(
          'cannot reach Redis at redis://127.0.0.1:1',
        );
      },
      SLOW,
    );
  },
);
