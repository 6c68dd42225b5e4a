import { describe, expect, it } from '@jest/globals';
import { ConfigError } from './config-error.js';
import { defaultFaultCode } from './errors.js';
import { drawAt, FaultRules, outcomeOf, parseFaultRule, type FaultRule } from './faults.js';

const get = (path: string, key?: string) => ({ method: 'GET', path, ...(key && { key }) });

describe('parseFaultRule', () => {
  it.each<[string, FaultRule]>([
    ['a fixed delay', { match: { path: '/categories' }, effect: { delayMs: 800 } }],
    ['a delay range', { effect: { delayMs: [200, 1500] } }],
    [
      'an error status',
      {
        id: 'down',
        match: { method: 'post', path: '/categories', key: 'free-test-key' },
        effect: { status: 503, code: 'maintenance', message: 'Back soon.', retryAfterSeconds: 30 },
        times: 2,
      },
    ],
    ['a network error', { match: { path: '/pets/{petId}' }, effect: { network: 'error' }, probability: 0.5, seed: 42 }],
    ['a malformed body', { match: { path: '*' }, effect: { body: 'malformed' }, beforeAuth: true }],
  ])('accepts %s', (_, rule) => {
    expect(parseFaultRule(rule, 'faults.json', '[0]')).toEqual(rule);
  });

  it.each<[string, unknown, string]>([
    [
      'an unknown effect',
      { id: 'x', effect: { explode: true } },
      '[petstore-fake] faults.json: [3] (rule "x").effect: must be exactly one of',
    ],
    ['two effects at once', { effect: { status: 503, delayMs: 10 } }, '[3].effect: must be exactly one of'],
    [
      'a bad path pattern',
      { match: { path: 'categories' }, effect: { status: 503 } },
      '[3].match.path: must be "*" or a path below the base URL',
    ],
    ['a path with a query', { match: { path: '/categories?x=1' }, effect: { status: 503 } }, '[3].match.path'],
    [
      'a probability above 1',
      { effect: { status: 503 }, probability: 1.5 },
      '[3].probability: must be a number from 0 to 1',
    ],
    ['a negative probability', { effect: { status: 503 }, probability: -0.1 }, '[3].probability'],
    [
      'a success status',
      { effect: { status: 200 } },
      '[3].effect.status: must be an HTTP error status from 400 to 599',
    ],
    ['times 0', { effect: { network: 'error' }, times: 0 }, '[3].times: must be a positive integer'],
    ['an inverted delay range', { effect: { delayMs: [900, 100] } }, '[3].effect.delayMs'],
    ['an unknown field', { effect: { network: 'error' }, when: 'later' }, '[3].when: is not a field of a fault rule'],
    [
      'a field of another effect',
      { effect: { network: 'error', code: 'x' } },
      '[3].effect.code: is not a field of a network effect',
    ],
    ['not an object', 'slow', '[3]: a fault rule must be an object'],
  ])('refuses %s, naming the rule and the field', (_, rule, message) => {
    expect(() => parseFaultRule(rule, 'faults.json', '[3]')).toThrow(ConfigError);
    expect(() => parseFaultRule(rule, 'faults.json', '[3]')).toThrow(message);
  });
});

describe('FaultRules', () => {
  it('applies the first matching rule, by method, path pattern and key, in the order added', () => {
    const rules = new FaultRules();
    rules.add({ id: 'pet', match: { path: '/pets/{petId}' }, effect: { network: 'error' } });
    rules.add({ id: 'free-posts', match: { method: 'POST', key: 'free-test-key' }, effect: { status: 503 } });
    rules.add({ id: 'all', effect: { delayMs: 5 } });
    expect(rules.take(get('/pets/7'), 'afterAuth')?.id).toBe('pet');
    // Matched as exactly as routing: another case or a trailing slash is another (unknown) path.
    expect(rules.take(get('/PETS/7/'), 'afterAuth')?.id).toBe('all');
    expect(rules.take(get('/pets/7/x'), 'afterAuth')?.id).toBe('all');
    expect(rules.take({ method: 'post', path: '/categories', key: 'free-test-key' }, 'afterAuth')?.id).toBe(
      'free-posts',
    );
    expect(rules.take({ method: 'POST', path: '/categories', key: 'pro-test-key' }, 'afterAuth')?.id).toBe('all');
    expect(rules.list().map(({ id, fired }) => [id, fired])).toEqual([
      ['pet', 1],
      ['free-posts', 1],
      ['all', 3],
    ]);
  });

  it('keeps before-auth rules and ordinary ones apart', () => {
    const rules = new FaultRules();
    rules.add({ id: 'gateway', effect: { status: 502 }, beforeAuth: true });
    expect(rules.take(get('/categories'), 'afterAuth')).toBeUndefined();
    expect(rules.take(get('/categories'), 'beforeAuth')?.id).toBe('gateway');
  });

  it('expires a rule after `times` firings, and removes one through its handle', () => {
    const rules = new FaultRules();
    rules.add({ id: 'twice', effect: { status: 500 }, times: 2 });
    const always = rules.add({ effect: { status: 504 } });
    expect([1, 2, 3].map(() => rules.take(get('/categories'), 'afterAuth')?.id)).toEqual(['twice', 'twice', 'fault-2']);
    expect(always.id).toBe('fault-2');
    expect(always.remove()).toBe(true);
    expect(rules.take(get('/categories'), 'afterAuth')).toBeUndefined();
    expect(always.remove()).toBe(false);
  });

  it('draws a probabilistic rule from its seed: the same seed fires on the same requests', () => {
    const firings = (seed: number) => {
      const rules = new FaultRules();
      rules.add({ effect: { status: 503 }, probability: 0.3, seed });
      return Array.from({ length: 200 }, () => (rules.take(get('/categories'), 'afterAuth') ? 1 : 0)).join('');
    };
    expect(firings(42)).toBe(firings(42));
    expect(firings(42)).not.toBe(firings(43));
    const share = [...firings(42)].filter((bit) => bit === '1').length / 200;
    expect(share).toBeGreaterThan(0.2);
    expect(share).toBeLessThan(0.4);
  });

  it('refuses a second rule with the same id, and a bad rule, naming it', () => {
    const rules = new FaultRules();
    rules.add({ id: 'slow', effect: { delayMs: 10 } });
    expect(() => rules.add({ id: 'slow', effect: { delayMs: 20 } })).toThrow(
      'rule "slow".id: another rule already has this id',
    );
    expect(() => rules.add({ id: 'bad', effect: { delayMs: 10 }, probability: 2 })).toThrow(
      'fake.faults.add: rule "bad".probability',
    );
  });

  it('draws the nth number of a seed as a pure function, which a shared store replays with a counter', () => {
    const rules = new FaultRules();
    rules.add({ effect: { delayMs: [0, 100_000] }, seed: 99 });
    const sequential = Array.from(
      { length: 20 },
      () => (rules.take(get('/x'), 'afterAuth')!.outcome as { delayMs: number }).delayMs,
    );
    expect(sequential).toEqual(Array.from({ length: 20 }, (_, n) => Math.floor(drawAt(99, n) * 100_001)));
    expect(drawAt(99, 0)).not.toBe(drawAt(100, 0));
  });

  it('draws a delay range from the seed too, within its bounds', () => {
    const delays = (seed: number) => {
      const rules = new FaultRules();
      rules.add({ effect: { delayMs: [100, 200] }, seed });
      return Array.from(
        { length: 50 },
        () => (rules.take(get('/categories'), 'afterAuth')!.outcome as { delayMs: number }).delayMs,
      );
    };
    expect(delays(7)).toEqual(delays(7));
    expect(Math.min(...delays(7))).toBeGreaterThanOrEqual(100);
    expect(Math.max(...delays(7))).toBeLessThanOrEqual(200);
    expect(new Set(delays(7)).size).toBeGreaterThan(10);
  });

  it('reset brings back the rules given at start, unfired and at the start of their seed, and drops the rest', () => {
    const rules = new FaultRules([{ id: 'flaky', effect: { status: 503 }, probability: 0.5, seed: 9 }], 'faults.json');
    const draw = () => Array.from({ length: 40 }, () => (rules.take(get('/categories'), 'afterAuth') ? 1 : 0)).join('');
    const first = draw();
    rules.add({ id: 'later', effect: { network: 'error' } });
    rules.reset();
    expect(rules.list()).toEqual([{ id: 'flaky', effect: { status: 503 }, probability: 0.5, seed: 9, fired: 0 }]);
    expect(draw()).toBe(first);
  });

  it('refuses bad rules given at start, naming the source and the position', () => {
    expect(() => new FaultRules([{ effect: { status: 503 } }, { effect: { nap: 1 } } as never], 'faults.json')).toThrow(
      '[petstore-fake] faults.json: [1].effect: must be exactly one of',
    );
    expect(() => new FaultRules({} as never, 'faults.json')).toThrow(
      'faults.json: must be a JSON array of fault rules',
    );
  });

  it('turns an effect into an Error answer: the status, a default code by status, a message naming the rule, Retry-After 1 on a 503', () => {
    expect(outcomeOf('down', { status: 503 }, Math.random)).toEqual({
      error: {
        code: 'service_unavailable',
        message: 'Injected by the fake\'s fault rule "down" (status 503).',
        status: 503,
      },
      retryAfterSeconds: 1,
    });
    expect(
      outcomeOf('x', { status: 500, code: 'db_down', message: 'DB down.', retryAfterSeconds: 9 }, Math.random),
    ).toEqual({ error: { code: 'db_down', message: 'DB down.', status: 500 }, retryAfterSeconds: 9 });
    expect(outcomeOf('x', { status: 418 }, Math.random)).toEqual({
      error: { code: 'injected_fault', message: 'Injected by the fake\'s fault rule "x" (status 418).', status: 418 },
    });
  });

  it('names the default code of an injected error by status', () => {
    expect([500, 502, 503, 504, 418].map(defaultFaultCode)).toEqual([
      'internal_error',
      'bad_gateway',
      'service_unavailable',
      'gateway_timeout',
      'injected_fault',
    ]);
  });
});
