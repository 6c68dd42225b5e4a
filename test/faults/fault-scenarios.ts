import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { FaultRules, type FaultRule } from '../../mocks/domain/faults.js';
import type { KeyState } from '../../mocks/domain/key-controls.js';
import type { ControlRefusal, FaultHost, HostStart, Sent } from './fault-host.js';

// docs/explanation/design.md section 5 in every host: the same scenarios against `setupFake`, the page's worker and the
// standalone server. Every expectation is what a frontend would render from; none is host-specific.

/** 5 s into a UTC minute, so no window rolls over during a scenario. */
const EPOCH = 1_800_000_005;
const STARTUP: HostStart = {
  faults: [{ id: 'orders-down', match: { method: 'GET', path: '/store/orders' }, effect: { status: 500 } }],
};
const SLOW = 30_000;

type Answered = Extract<Sent, { status: number }>;

function answered(sent: Sent): Answered {
  if ('networkError' in sent) throw new Error(`expected an answer, got a network error: ${sent.networkError}`);
  return sent;
}

function json(sent: Sent): unknown {
  return JSON.parse(answered(sent).text);
}

function state(result: KeyState | ControlRefusal): KeyState {
  if ('refused' in result) throw new Error(`control refused: ${result.refused}`);
  return result;
}

const remaining = (sent: Sent) => Number(answered(sent).headers['x-ratelimit-remaining']);

/** The firings a rule with this probability and seed gives: what every host must replay. */
function expectedFirings(rule: FaultRule, requests: number): string {
  const rules = new FaultRules([rule]);
  return Array.from({ length: requests }, () =>
    rules.take({ method: 'GET', path: '/categories' }, 'afterAuth') ? 'x' : '.',
  ).join('');
}

/**
 * Registers the fault and scenario tests for one host. `start` builds the host with the given start-up
 * configuration (fault rules, latency); every test begins from `reset()` with the clock mid-minute.
 */
export function describeFaultControls(hostName: string, start: (config: HostStart) => Promise<FaultHost>): void {
  describe(`faults and scenarios: ${hostName}`, () => {
    let host: FaultHost;
    beforeAll(async () => {
      host = await start(STARTUP);
    }, 2 * SLOW);
    afterAll(() => host?.close());
    beforeEach(async () => {
      await host.reset();
      await host.setClock(EPOCH);
    });

    it(
      'delays the ordinary answer by a fixed delay or one drawn from a range',
      async () => {
        await host.addFault({ match: { path: '/categories' }, effect: { delayMs: 300 }, times: 1 });
        const slow = answered(await host.send('GET', '/categories'));
        expect(slow.elapsedMs).toBeGreaterThanOrEqual(290);
        expect(slow.status).toBe(200);
        expect(JSON.parse(slow.text)).toHaveLength(3);
        await host.addFault({ effect: { delayMs: [200, 260] }, times: 1 });
        expect((await host.send('GET', '/pets/1')).elapsedMs).toBeGreaterThanOrEqual(190);
      },
      SLOW,
    );

    it(
      'answers an injected 503 after auth and quota: the Error body, the rate-limit headers it earned, Retry-After: 1, quota spent',
      async () => {
        const before = remaining(await host.send('GET', '/categories'));
        await host.addFault({
          id: 'maintenance',
          match: { method: 'GET', path: '/categories' },
          effect: { status: 503 },
          times: 1,
        });
        const down = answered(await host.send('GET', '/categories'));
        expect(down.status).toBe(503);
        expect(JSON.parse(down.text)).toEqual({
          code: 'service_unavailable',
          message: expect.stringContaining('"maintenance"'),
          status: 503,
        });
        expect(down.headers['retry-after']).toBe('1');
        expect(down.headers['x-ratelimit-remaining']).toBe(String(before - 1));
        expect(down.headers['x-ratelimit-limit']).toBe('60');
        expect(remaining(await host.send('GET', '/categories'))).toBe(before - 2);
      },
      SLOW,
    );

    it(
      'names the code by status unless the rule gives one, and takes a message and Retry-After from the rule',
      async () => {
        for (const [status, code] of [
          [500, 'internal_error'],
          [502, 'bad_gateway'],
          [504, 'gateway_timeout'],
          [418, 'injected_fault'],
        ] as const) {
          await host.addFault({ effect: { status }, times: 1 });
          const sent = answered(await host.send('GET', '/categories'));
          expect([sent.status, (json(sent) as { code: string }).code, sent.headers['retry-after']]).toEqual([
            status,
            code,
            undefined,
          ]);
        }
        await host.addFault({
          effect: { status: 503, code: 'maintenance', message: 'Back at noon.', retryAfterSeconds: 120 },
          times: 1,
        });
        const custom = answered(
          await host.send('POST', '/categories', {
            headers: { 'content-type': 'application/json' },
            body: '{"name":"ferret"}',
          }),
        );
        expect([custom.status, json(custom), custom.headers['retry-after']]).toEqual([
          503,
          { code: 'maintenance', message: 'Back at noon.', status: 503 },
          '120',
        ]);
        expect((json(await host.send('GET', '/categories')) as unknown[]).length).toBe(3); // the refused write stored nothing
      },
      SLOW,
    );

    it(
      'drops the connection for a network error: no answer at all, quota still spent',
      async () => {
        const before = remaining(await host.send('GET', '/categories'));
        await host.addFault({ match: { path: '/categories' }, effect: { network: 'error' }, times: 1 });
        expect(await host.send('GET', '/categories')).toEqual({
          networkError: expect.any(String),
          elapsedMs: expect.any(Number),
        });
        expect(remaining(await host.send('GET', '/categories'))).toBe(before - 2);
      },
      SLOW,
    );

    it(
      'answers 200 with a truncated JSON body for a malformed body, and stores nothing',
      async () => {
        await host.addFault({ match: { path: '/categories' }, effect: { body: 'malformed' }, times: 2 });
        for (const sent of [
          await host.send('GET', '/categories'),
          await host.send('POST', '/categories', {
            headers: { 'content-type': 'application/json' },
            body: '{"name":"ferret"}',
          }),
        ]) {
          const broken = answered(sent);
          expect(broken.status).toBe(200);
          expect(broken.headers['content-type']).toMatch(/^application\/json/);
          expect(broken.text.length).toBeGreaterThan(0);
          expect(() => JSON.parse(broken.text)).toThrow(SyntaxError);
        }
        expect(json(await host.send('GET', '/categories'))).toHaveLength(3);
      },
      SLOW,
    );

    it(
      'fires a `times` rule that many times, counting in the list, then lets requests through',
      async () => {
        await host.addFault({ id: 'twice', effect: { status: 500 }, times: 2 });
        expect(await host.listFaults()).toContainEqual(expect.objectContaining({ id: 'twice', fired: 0 }));
        const statuses = [];
        for (let i = 0; i < 3; i++) statuses.push(answered(await host.send('GET', '/categories')).status);
        expect(statuses).toEqual([500, 500, 200]);
        expect((await host.listFaults()).map((rule) => rule.id)).toEqual(['orders-down']);
      },
      SLOW,
    );

    it(
      'replays a seeded probabilistic rule: the same requests fail on every run and in every host',
      async () => {
        const rule: FaultRule = {
          id: 'flaky',
          match: { path: '/categories' },
          effect: { status: 503 },
          probability: 0.5,
          seed: 42,
        };
        const run = async () => {
          await host.addFault(rule);
          let firings = '';
          for (let i = 0; i < 16; i++)
            firings += answered(await host.send('GET', '/categories')).status === 503 ? 'x' : '.';
          return firings;
        };
        const first = await run();
        expect(first).toBe(expectedFirings(rule, 16));
        expect(first).toMatch(/x.*\.|\..*x/); // both outcomes occur: the rule is really probabilistic
        const fired = (await host.listFaults()).find((listed) => listed.id === 'flaky')!.fired;
        expect(fired).toBe([...first].filter((c) => c === 'x').length);
        await host.reset();
        await host.setClock(EPOCH);
        expect(await run()).toBe(first);
      },
      SLOW,
    );

    it(
      'removes a rule by its id: the next request is ordinary, and a second removal finds nothing',
      async () => {
        const added = await host.addFault({ match: { path: '/categories' }, effect: { status: 503 } });
        expect('id' in added).toBe(true);
        const { id } = added as { id: string };
        expect(answered(await host.send('GET', '/categories')).status).toBe(503);
        expect(await host.removeFault(id)).toBe(true);
        expect(answered(await host.send('GET', '/categories')).status).toBe(200);
        expect(await host.removeFault(id)).toBe(false);
      },
      SLOW,
    );

    it(
      'matches on method, path pattern and key, first rule added first',
      async () => {
        await host.addFault({
          id: 'pro-writes',
          match: { method: 'POST', path: '/categories', key: 'pro-test-key' },
          effect: { status: 502 },
        });
        await host.addFault({ id: 'one-pet', match: { path: '/pets/{petId}' }, effect: { status: 504 } });
        await host.addFault({ id: 'everything', match: { path: '*' }, effect: { status: 500 } });
        const post = (key: string) =>
          host.send('POST', '/categories', {
            key,
            headers: { 'content-type': 'application/json' },
            body: '{"name":"ferret"}',
          });
        expect(answered(await post('pro-test-key')).status).toBe(502);
        expect(answered(await post('free-test-key')).status).toBe(500);
        expect(answered(await host.send('GET', '/pets/2')).status).toBe(504);
        expect(answered(await host.send('GET', '/nowhere')).status).toBe(500);
      },
      SLOW,
    );

    it(
      'applies a beforeAuth rule first: even without a key, no rate-limit headers, no quota spent',
      async () => {
        await host.addFault({ id: 'gateway', effect: { status: 502 }, beforeAuth: true, times: 2 });
        const anonymous = answered(await host.send('GET', '/categories', { key: null }));
        expect([
          anonymous.status,
          anonymous.headers['x-ratelimit-remaining'],
          anonymous.headers['www-authenticate'],
        ]).toEqual([502, undefined, undefined]);
        expect(answered(await host.send('GET', '/categories')).status).toBe(502);
        expect(state(await host.keys.state('free-test-key')).minute.remaining).toBe(60);
      },
      SLOW,
    );

    it(
      'honours Prefer: code=, delay= and network=error per request, after auth, naming what it applied',
      async () => {
        const down = answered(await host.send('GET', '/categories', { headers: { prefer: 'code=503' } }));
        expect([
          down.status,
          (json(down) as { code: string }).code,
          down.headers['retry-after'],
          down.headers['preference-applied'],
        ]).toEqual([503, 'service_unavailable', '1', 'code=503']);
        const both = answered(await host.send('GET', '/categories', { headers: { prefer: 'delay=250, code=404' } }));
        expect([both.status, both.headers['preference-applied']]).toEqual([404, 'delay=250, code=404']);
        expect(both.elapsedMs).toBeGreaterThanOrEqual(240);
        expect(await host.send('GET', '/categories', { headers: { prefer: 'network=error' } })).toHaveProperty(
          'networkError',
        );
        const ordinary = answered(
          await host.send('GET', '/categories', { headers: { prefer: 'return=minimal, code=200' } }),
        );
        expect([ordinary.status, ordinary.headers['preference-applied']]).toEqual([200, undefined]);
        const typo = answered(await host.send('GET', '/categories', { headers: { prefer: 'code=5o3' } }));
        expect([typo.status, (json(typo) as { message: string }).message]).toEqual([
          400,
          expect.stringContaining('code=5o3'),
        ]);
        expect(
          answered(await host.send('GET', '/categories', { key: null, headers: { prefer: 'code=503' } })).status,
        ).toBe(401);
      },
      SLOW,
    );

    it(
      'sets what a key has left: the next requests count down from it, then the ordinary 429',
      async () => {
        const set = state(await host.keys.setQuota('free-test-key', { minuteRemaining: 2 }));
        expect(set.minute).toEqual(expect.objectContaining({ limit: 60, remaining: 2 }));
        const counted = [await host.send('GET', '/categories'), await host.send('GET', '/categories')].map(remaining);
        expect(counted).toEqual([1, 0]);
        const refused = answered(await host.send('GET', '/categories'));
        expect([refused.status, (json(refused) as { code: string }).code]).toEqual([429, 'rate_limit_exceeded']);
        expect(Number(refused.headers['retry-after'])).toBeGreaterThan(45); // the rest of the minute, 55 s less the time the test took
        state(await host.keys.setQuota('pro-test-key', { dayRemaining: 1 }));
        expect(answered(await host.send('GET', '/categories', { key: 'pro-test-key' })).status).toBe(200);
        const day = answered(await host.send('GET', '/categories', { key: 'pro-test-key' }));
        expect([day.status, Number(day.headers['retry-after'])]).toEqual([429, expect.any(Number)]);
        expect(Number(day.headers['retry-after'])).toBeGreaterThan(60);
      },
      SLOW,
    );

    it(
      'bans a key now; the ban ends on the clock, or when lifted',
      async () => {
        const bannedFor = Date.parse(state(await host.keys.ban('free-test-key', 120)).bannedUntil!) / 1000 - EPOCH;
        expect(bannedFor).toBeGreaterThanOrEqual(120);
        expect(bannedFor).toBeLessThan(130);
        const banned = answered(await host.send('GET', '/categories'));
        expect([banned.status, (json(banned) as { code: string }).code]).toEqual([429, 'temporarily_banned']);
        expect(Number(banned.headers['retry-after'])).toBeGreaterThan(110);
        await host.advanceClock(130);
        expect(answered(await host.send('GET', '/categories')).status).toBe(200);
        state(await host.keys.ban('free-test-key'));
        expect(Number(answered(await host.send('GET', '/categories')).headers['retry-after'])).toBeGreaterThan(290);
        expect(state(await host.keys.unban('free-test-key')).bannedUntil).toBeNull();
        expect(answered(await host.send('GET', '/categories')).status).toBe(200);
      },
      SLOW,
    );

    it(
      'revokes a key (401 invalid_api_key) and restores it',
      async () => {
        expect(state(await host.keys.revoke('free-test-key')).revoked).toBe(true);
        const revoked = answered(await host.send('GET', '/categories'));
        expect([revoked.status, (json(revoked) as { code: string }).code, revoked.headers['www-authenticate']]).toEqual(
          [401, 'invalid_api_key', expect.stringContaining('invalid_token')],
        );
        expect(state(await host.keys.restore('free-test-key')).revoked).toBe(false);
        expect(answered(await host.send('GET', '/categories')).status).toBe(200);
      },
      SLOW,
    );

    it(
      'refuses bad rules and scenario values naming the field, and unknown keys',
      async () => {
        const refusals = [
          [
            await host.addFault({ id: 'boom', effect: { explode: true } } as never),
            400,
            'rule "boom".effect: must be exactly one of',
          ],
          [
            await host.addFault({ match: { path: 'categories' }, effect: { status: 503 } }),
            400,
            'match.path: must be "*" or a path',
          ],
          [
            await host.addFault({ effect: { status: 503 }, probability: 1.5 }),
            400,
            'probability: must be a number from 0 to 1',
          ],
          [
            await host.keys.setQuota('free-test-key', { minuteRemaining: 61 }),
            400,
            'minuteRemaining: must be an integer from 0 to 60',
          ],
          [await host.keys.ban('nobody-key'), 404, 'No API key "nobody-key"'],
        ] as const;
        for (const [result, status, message] of refusals) {
          expect(result).toEqual({ refused: expect.stringContaining(message), ...('status' in result && { status }) });
        }
        expect((await host.listFaults()).map((rule) => rule.id)).toEqual(['orders-down']);
      },
      SLOW,
    );

    it(
      "answers only the spec's paths: another letter case, a trailing or empty segment, an encoded slash are unknown (404 after auth and quota)",
      async () => {
        for (const path of [
          '/Categories',
          '/PETS/1',
          '/store/Orders',
          '/categories/',
          '/pets/1/',
          '/store//orders',
          '//categories',
          '/store%2Forders',
          '/pets%2F1',
        ]) {
          const before = remaining(await host.send('GET', '/store/orders', { key: 'pro-test-key' }));
          const sent = answered(await host.send('GET', path, { key: 'pro-test-key' }));
          expect({ path, status: sent.status, body: JSON.parse(sent.text) }).toEqual({
            path,
            status: 404,
            body: { code: 'not_found', message: expect.stringContaining(path), status: 404 },
          });
          expect({ path, remaining: remaining(sent) }).toEqual({ path, remaining: before - 1 });
          expect({ path, status: answered(await host.send('GET', path, { key: null })).status }).toEqual({
            path,
            status: 401,
          });
        }
        // What RFC 3986 makes the same resource still is: percent-encoded unreserved characters.
        const encoded = answered(await host.send('GET', '/categori%65s'));
        expect([encoded.status, JSON.parse(encoded.text)]).toEqual([200, json(await host.send('GET', '/categories'))]);
      },
      SLOW,
    );

    it(
      'reset drops added rules and scenario state and keeps the rules the fake started with',
      async () => {
        await host.addFault({ id: 'added', effect: { status: 503 } });
        await host.keys.revoke('free-test-key');
        expect(answered(await host.send('GET', '/store/orders', { key: 'pro-test-key' })).status).toBe(500);
        await host.reset();
        await host.setClock(EPOCH);
        expect(await host.listFaults()).toEqual([{ ...STARTUP.faults![0], fired: 0 }]);
        expect(answered(await host.send('GET', '/categories')).status).toBe(200);
        expect(answered(await host.send('GET', '/store/orders')).status).toBe(500);
      },
      SLOW,
    );
  });

  describe(`latency: ${hostName}`, () => {
    let host: FaultHost;
    beforeAll(async () => {
      host = await start({ latency: [200, 300] });
    }, 2 * SLOW);
    afterAll(() => host?.close());

    it(
      'delays every answer under /v1, 401s included, and keeps doing so after a reset',
      async () => {
        expect(answered(await host.send('GET', '/categories', { key: null })).elapsedMs).toBeGreaterThanOrEqual(190);
        await host.reset();
        const after = answered(await host.send('GET', '/categories'));
        expect([after.status, after.elapsedMs >= 190]).toEqual([200, true]);
      },
      SLOW,
    );
  });
}
