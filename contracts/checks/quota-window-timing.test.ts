import { afterEach, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { specValidators } from '../conformance/spec-validators.js';
import type { Exchange } from '../core/exchange.js';
import { MINUTE, serverEpochSeconds } from '../core/quota-windows.js';
import { QuotaModel } from '../model/quota-model.js';
import { runChecks } from '../runner/run-checks.js';
import { startFakeTarget } from '../targets/fake-target.js';
import { sendRequest } from '../transport/send-request.js';
import { sendOnConnection } from '../transport/raw-connection.js';
import { isCheckFailure, isSkip, type CheckContext } from './check.js';
import { banAfterRepeatedRejections, quotaWindowRollsOver, rateLimitExceededAnswer } from './quota-checks.js';
import { bothQuotaWindowsHeld } from './quota-window-checks.js';

const KEY = 'free-test-key';
const PLAN = { perMinute: 60, perDay: 1000 };
/** A minute boundary (2026-01-01T01:10:00Z), not a day's, months from this machine's clock: the service's clock is its own. */
const BOUNDARY = 1_767_229_800;

/**
 * How a service answers in time: where its clock starts, how far one request moves it, the second its
 * Date names, and how far this machine's clock is off the service's.
 */
interface Timing {
  startMs: number;
  stepMs: number;
  dateOf(decidedMs: number): number;
  machineOffsetSeconds: number;
}

/** This machine's clock five minutes off the service's: only the service's Date can tell its now. */
const FAR_OFF = 300;

const exactDate = (ms: number) => Math.floor(ms / 1000);
/** uvicorn's Date: refreshed every ten 0.1 s ticks of its main loop (a little over a second), from its clock then. */
const cachedDate = (firstTickMs: number, periodMs: number) => (ms: number) =>
  Math.floor((firstTickMs + Math.floor((ms - firstTickMs) / periodMs) * periodMs) / 1000);
/** A Date stamped as the answer goes out, `laterMs` after the quota was decided (a slow handler). */
const stampedAfter = (laterMs: number) => (ms: number) => Math.floor((ms + laterMs) / 1000);

/** The Date uvicorn before 0.19 sends on a keep-alive connection: the one of the moment the connection opened. */
const frozenDate = (openedMs: number) => () => Math.floor(openedMs / 1000);

const TIMINGS: Array<[string, Timing]> = [
  [
    'the burst inside one minute, Date exact',
    { startMs: (BOUNDARY + 30) * 1000, stepMs: 5, dateOf: exactDate, machineOffsetSeconds: FAR_OFF },
  ],
  [
    'the burst straddling a minute boundary, the 429 in the new minute, Date exact',
    { startMs: BOUNDARY * 1000 - 60, stepMs: 2, dateOf: exactDate, machineOffsetSeconds: FAR_OFF },
  ],
  [
    "the burst straddling a minute boundary, the 429 in the new minute, Date from uvicorn's cache (the old minute's)",
    {
      startMs: BOUNDARY * 1000 - 60,
      stepMs: 2,
      dateOf: cachedDate(BOUNDARY * 1000 - 800, 1050),
      machineOffsetSeconds: FAR_OFF,
    },
  ],
  [
    "the 429 decided in a minute's last millisecond, Date stamped 1.5 s later (the new minute's)",
    { startMs: BOUNDARY * 1000 - 1 - 60 * 5, stepMs: 5, dateOf: stampedAfter(1500), machineOffsetSeconds: FAR_OFF },
  ],
  [
    "the burst straddling a minute boundary, Date frozen 20 s earlier (uvicorn < 0.19, a keep-alive connection), this machine's clock 1 s behind",
    {
      startMs: BOUNDARY * 1000 - 60,
      stepMs: 2,
      dateOf: frozenDate(BOUNDARY * 1000 - 20_000),
      machineOffsetSeconds: -1,
    },
  ],
];

/** How a broken service announces a Reset: from the right one, on a 429 or not; `retryAfterToIt` waits for the announced one. */
interface ResetFault {
  announce(reset: number, rejected: boolean): number;
  retryAfterToIt: boolean;
}

const FAULTS: Array<[string, ResetFault]> = [
  [
    'the 429 names the next minute',
    { announce: (reset, rejected) => reset + (rejected ? MINUTE : 0), retryAfterToIt: true },
  ],
  ['every Reset a minute late, Retry-After right', { announce: (reset) => reset + MINUTE, retryAfterToIt: false }],
  ['every Reset a minute late, Retry-After to it', { announce: (reset) => reset + MINUTE, retryAfterToIt: true }],
];

/** A service of `GET /v1/categories` with the spec's fixed UTC windows, on a clock the test moves. */
function quotaService(timing: Timing, fault?: ResetFault) {
  let clockMs = timing.startMs;
  const used = new Map<string, number>();
  const server: Server = createServer((request, response) => {
    const decided = clockMs;
    clockMs += timing.stepMs;
    const minuteEnd = (Math.floor(decided / 60_000) + 1) * MINUTE;
    const dayEnd = (Math.floor(decided / 86_400_000) + 1) * 86_400;
    const minuteLeft = PLAN.perMinute - (used.get(`minute ${minuteEnd}`) ?? 0);
    const dayLeft = PLAN.perDay - (used.get(`day ${dayEnd}`) ?? 0);
    const rejected = minuteLeft <= 0 || dayLeft <= 0;
    const dayDescribed = rejected ? dayLeft <= 0 : dayLeft <= minuteLeft;
    const reset = dayDescribed ? dayEnd : minuteEnd;
    const announced = fault ? fault.announce(reset, rejected) : reset;
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      date: new Date(timing.dateOf(decided) * 1000).toUTCString(),
      'x-ratelimit-limit': String(dayDescribed ? PLAN.perDay : PLAN.perMinute),
      'x-ratelimit-remaining': String(rejected ? 0 : (dayDescribed ? dayLeft : minuteLeft) - 1),
      'x-ratelimit-reset': String(announced),
    };
    let body: unknown = [{ id: 1, name: 'dog' }];
    if (rejected) {
      const until = fault?.retryAfterToIt ? announced : reset;
      headers['retry-after'] = String(Math.max(1, Math.ceil(until - decided / 1000)));
      body = { code: 'rate_limit_exceeded', message: 'The per-minute limit is used up.', status: 429 };
    } else {
      used.set(`minute ${minuteEnd}`, PLAN.perMinute - minuteLeft + 1);
      used.set(`day ${dayEnd}`, PLAN.perDay - dayLeft + 1);
    }
    response.sendDate = false;
    response.writeHead(request.headers.authorization === `Bearer ${KEY}` ? (rejected ? 429 : 200) : 401, headers);
    response.end(JSON.stringify(body));
  });
  return {
    async baseUrl(): Promise<string> {
      server.listen(0, '127.0.0.1');
      await new Promise((resolve) => server.once('listening', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    },
    advance: (seconds: number) => void (clockMs += seconds * 1000),
    now: () => clockMs / 1000,
    close: () => new Promise((resolve) => server.close(resolve).closeAllConnections()),
  };
}

let closing: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  await Promise.all(closing.map((close) => close()));
  closing = [];
});

/** Runs the check as on a URL target (no clock capability: waits are real time, here the service's clock moved). */
async function rollOver(timing: Timing, fault?: ResetFault) {
  const service = quotaService(timing, fault);
  const baseUrl = await service.baseUrl();
  closing.push(service.close);
  const exchanges: Answered[] = [];
  const context: CheckContext = {
    send: async (request) => {
      const exchange = await sendRequest(baseUrl, KEY, request);
      exchanges.push({ exchange, machineNow: service.now() + timing.machineOffsetSeconds });
      return exchange;
    },
    connect: (origin, requests, options) => sendOnConnection(origin, requests, options),
    spec: specValidators(),
    seed: 1,
    runs: 0,
    now: async () => service.now() + timing.machineOffsetSeconds,
    wait: async (seconds) => service.advance(seconds),
    plan: PLAN,
    note: () => undefined,
    capabilities: ['stateful', 'quota'],
    maxConcurrency: 1,
    patience: () => undefined,
    triedKind: () => false,
    evidence: () => 0,
    strict: false,
    report: () => undefined,
    takeBrokenPromises: () => [],
    marked: (request) => request,
  };
  const outcome = await quotaWindowRollsOver.run(context).then(
    () => 'passed',
    (error: unknown) => {
      if (isCheckFailure(error)) return `failed: ${error.title}`;
      if (isSkip(error)) return `skipped: ${error.message}`;
      throw error;
    },
  );
  return { outcome, exchanges, findings: modelFindings(exchanges) };
}

/** An exchange, and this machine's clock when it came. */
interface Answered {
  exchange: Exchange;
  machineNow: number;
}

/** What the run's model finds in the exchanges, judged one at a time as they come (a client that waits for each answer). */
function modelFindings(answered: Answered[]): string[] {
  let machineNow = 0;
  const model = new QuotaModel(PLAN, { machineNow: () => machineNow });
  return answered.flatMap(({ exchange, machineNow: then }, index) => {
    machineNow = then;
    return model
      .judge([{ exchange, sent: 2 * index, answered: 2 * index + 1, now: serverEpochSeconds(exchange) }])
      .map(({ promise, title }) => `${promise}: ${title}`);
  });
}

describe("the quota checks on the fake (its clock moved, not this machine's)", () => {
  it('pass', async () => {
    const target = await startFakeTarget({});
    closing.push(() => target.close());
    const results = await runChecks(
      [rateLimitExceededAnswer, quotaWindowRollsOver, banAfterRepeatedRejections, bothQuotaWindowsHeld],
      target.descriptor,
    );
    expect(results.map(({ check, outcome, failure }) => [check, outcome, failure?.title])).toEqual([
      ['rate_limit_exceeded_answer', 'passed', undefined],
      ['quota_window_rolls_over', 'passed', undefined],
      ['ban_after_repeated_rejections', 'passed', undefined],
      ['both_quota_windows_held', 'passed', undefined],
    ]);
  }, 60_000);
});

describe('quota_window_rolls_over whatever the timing of the 429 (a service on its own clock, on 127.0.0.1)', () => {
  it.each(TIMINGS)('passes a correct service, and the model finds nothing: %s', async (_timing, timing) => {
    const { outcome, findings } = await rollOver(timing);
    expect([outcome, findings]).toEqual(['passed', []]);
  });

  it('meets, in the timings named for it, a 429 whose Date is in another minute than the one its Reset ends (the failure seen on FastAPI)', async () => {
    for (const [name, timing] of TIMINGS.filter(([name]) => /Date (from|stamped|frozen)/.test(name))) {
      const { exchanges } = await rollOver(timing);
      const { exchange: rejection } = exchanges.find(({ exchange }) => exchange.status === 429)!;
      const reset = Number(rejection.headers['x-ratelimit-reset']);
      const endOfDatesMinute = (Math.floor(serverEpochSeconds(rejection) / MINUTE) + 1) * MINUTE;
      expect([name, endOfDatesMinute - reset]).toEqual([name, name.includes('stamped') ? MINUTE : -MINUTE]);
    }
  });

  describe.each(FAULTS)('fails a service whose Reset is wrong: %s', (_fault, fault) => {
    it.each(TIMINGS)('%s', async (_timing, timing) => {
      const { outcome } = await rollOver(timing, fault);
      expect(outcome).toMatch(/^failed: .*(X-RateLimit-Reset|Retry-After)/);
    });
  });
});
