import { describe, expect, it } from '@jest/globals';
import type { ContractRequest, Exchange } from '../core/exchange.js';
import { pacedSender, type Waiter } from './paced-sender.js';

const request: ContractRequest = { method: 'GET', path: '/categories' };

function answer(status: number, headers: Record<string, string> = {}, json?: unknown): Exchange {
  return {
    request: { method: 'GET', url: 'http://127.0.0.1:1/v1/categories', headers: {} },
    status,
    headers,
    text: '',
    json,
  };
}

function scripted(
  answers: Exchange[],
  needlessWait?: (exchange: Exchange) => string | undefined,
  pastAnyWait?: (exchange: Exchange, seconds: number, what: string) => never,
) {
  const sent: ContractRequest[] = [];
  const waits: number[] = [];
  // Each answer comes back with the request's credential, as a real sender records it.
  const send = async (next: ContractRequest): Promise<Exchange> => {
    sent.push(next);
    const exchange = answers.shift() ?? answer(200);
    const auth = next.auth ?? 'key';
    const authorization =
      auth === 'key'
        ? 'Bearer free-test-key'
        : typeof auth === 'object' && 'bearer' in auth
          ? `Bearer ${auth.bearer}`
          : '';
    return {
      ...exchange,
      request: { ...exchange.request, headers: authorization ? { Authorization: authorization } : {} },
    };
  };
  const waiter: Waiter = {
    now: async () => Date.now() / 1000,
    wait: async (seconds) => {
      waits.push(seconds * 1000);
    },
    longestProactiveWaitSeconds: 120,
    say: (seconds) => `waiting ${seconds} s`,
  };
  const notes: string[] = [];
  const paced = pacedSender(send, (message) => notes.push(message), waiter, needlessWait, pastAnyWait);
  return { paced, sent, waits, notes };
}

describe('pacedSender', () => {
  it("paces requests written some other way (a raw connection's) by the same windows: turn waits out what observe learnt", async () => {
    const { paced, sent, waits } = scripted([]);
    const reset = Math.floor(Date.now() / 1000) + 30;
    const usedUp = answer(200, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) });
    // An answer to a request on a raw connection, carrying the key, says the key's window is used up.
    paced.observe(request, { ...usedUp, request: { ...usedUp.request, headers: { Authorization: 'Bearer k' } } });
    await paced.turn(request);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThan(25_000);
    // The next request through the sender itself waits too, for the same window.
    await paced(request);
    expect([waits.length, sent.length]).toEqual([2, 1]);
  });

  it('hands a 429 whose Retry-After no run waits out (a used-up day) to pastAnyWait at once: no wait, no retry', async () => {
    const dayUsedUp = answer(429, { 'retry-after': '54450', 'x-ratelimit-remaining': '0' });
    const told: Array<{ seconds: number; what: string }> = [];
    const { paced, sent, waits } = scripted([dayUsedUp, answer(200)], undefined, (_exchange, seconds, what) => {
      told.push({ seconds, what });
      throw new Error('the key is spent');
    });
    await expect(paced(request)).rejects.toThrow('the key is spent');
    expect(told).toEqual([{ seconds: 54450, what: 'GET /categories' }]);
    expect(sent).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('still waits out a Retry-After within the longest wait, and without pastAnyWait retries a long one after the longest wait', async () => {
    const told: number[] = [];
    const spent = (_exchange: Exchange, seconds: number): never => {
      told.push(seconds);
      throw new Error('spent');
    };
    const short = scripted([answer(429, { 'retry-after': '300' }), answer(200)], undefined, spent);
    expect((await short.paced(request)).status).toBe(200);
    expect(short.waits).toEqual([300_000]);
    const uncapped = scripted([answer(429, { 'retry-after': '54450' }), answer(200)]);
    expect((await uncapped.paced(request)).status).toBe(200);
    expect(uncapped.waits).toEqual([300_000]);
    expect(told).toEqual([]);
  });

  it('waits Retry-After after an unexpected 429, then retries', async () => {
    const { paced, sent, waits } = scripted([answer(429, { 'retry-after': '41' }), answer(200)]);
    expect((await paced(request)).status).toBe(200);
    expect(sent).toHaveLength(2);
    expect(waits).toEqual([41_000]);
  });

  it("waits for the minute's end, not the Retry-After of a 429 that broke a promise of the windows, and says why", async () => {
    const intoTheDay = answer(429, { 'retry-after': '50000' });
    const { paced, sent, waits, notes } = scripted([intoTheDay, answer(200)], (exchange) =>
      exchange.headers['retry-after'] === '50000' ? 'it breaks no_surprise_rate_limit' : undefined,
    );
    expect((await paced(request)).status).toBe(200);
    expect(sent).toHaveLength(2);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThanOrEqual(1_000);
    expect(waits[0]).toBeLessThanOrEqual(61_000);
    expect(notes[0]).toMatch(
      /^429 on GET \/categories: Retry-After 50000 not waited \(it breaks no_surprise_rate_limit\); waiting \d+ s to the minute's end, retry 1 of 5$/,
    );
  });

  it('backs off exponentially when Retry-After is short or missing, and gives up after five retries', async () => {
    const { paced, sent, waits } = scripted(Array.from({ length: 10 }, () => answer(429)));
    expect((await paced(request)).status).toBe(429);
    expect(sent).toHaveLength(6);
    expect(waits).toEqual([1_000, 2_000, 4_000, 8_000, 16_000]);
  });

  it('never retries a ban, nor a 429 the check asked for', async () => {
    const banned = scripted([answer(429, { 'retry-after': '300' }, { code: 'temporarily_banned' })]);
    expect((await banned.paced(request)).status).toBe(429);
    expect(banned.sent).toHaveLength(1);
    const wanted = scripted([answer(429, { 'retry-after': '5' })]);
    expect((await wanted.paced({ ...request, expectsRateLimit: true })).status).toBe(429);
    expect(wanted.sent).toHaveLength(1);
  });

  it('waits for the window to end before sending when the last answer said Remaining 0', async () => {
    const reset = String(Math.floor(Date.now() / 1000) + 30);
    const { paced, waits } = scripted([
      answer(200, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset }),
      answer(200),
    ]);
    await paced(request);
    expect(waits).toEqual([]);
    await paced(request);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThan(25_000);
    expect(waits[0]).toBeLessThanOrEqual(32_000);
  });

  it('waits on a limit of requests without a valid key only once a 429 showed the target keeps one, and then only for those', async () => {
    const reset = String(Math.floor(Date.now() / 1000) + 30);
    const { paced, waits } = scripted([
      answer(401, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset }),
      answer(401),
      answer(429, { 'retry-after': '1' }, { code: 'rate_limit_exceeded' }),
      answer(401, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset }),
      answer(200),
      answer(401),
    ]);
    // The spec promises no such limit: a 401's Remaining 0 alone says nothing worth waiting for.
    await paced({ ...request, auth: 'none' });
    await paced({ ...request, auth: 'none' });
    expect(waits).toEqual([]);
    await paced({ ...request, auth: 'none', expectsRateLimit: true });
    await paced({ ...request, auth: 'none' });
    await paced(request);
    expect(waits).toEqual([]);
    await paced({ ...request, auth: { bearer: 'not-a-key' } });
    expect(waits).toHaveLength(1);
  });
});
