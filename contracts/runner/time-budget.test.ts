import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startFakeServer, type RunningFakeServer } from '../../mocks/server/index.js';
import fc from 'fast-check';
import type { Check } from '../checks/check.js';
import { concurrentClientsSerialisable } from '../checks/concurrent-clients-check.js';
import { checkProperty } from '../checks/property.js';
import { connectUrlTarget } from '../targets/url-target.js';
import { runCheck } from './run-check.js';
import { LEFT_OUT } from './target-session.js';

// --max-minutes against a live URL: what would not fit is left out, said so, and never waited for.
let server: RunningFakeServer;
beforeAll(async () => {
  server = await startFakeServer({ port: 0 });
});
afterAll(() => server.close());

const target = async () =>
  (await connectUrlTarget({ baseUrl: server.baseUrl, apiKey: 'free-test-key', allow: [] })).descriptor;
const waitingCheck = (seconds: number): Check => ({
  name: 'waits' as Check['name'], // a check of this test only, in no registry
  verifies: "nothing; it needs the target's time to pass",
  needs: [],
  async run(context) {
    await context.send({ method: 'GET', path: '/categories' });
    await context.wait(seconds, 'a window to end');
  },
});

describe('the time budget of a run (--max-minutes)', () => {
  it('leaves out a check whose wait would not fit, at once and naming the budget; one that fits passes', async () => {
    const descriptor = await target();
    const settings = { seed: 1, runs: 1, maxMinutes: 0.05 };
    const started = performance.now();
    const leftOut = await runCheck(waitingCheck(30), descriptor, { settings });
    expect(performance.now() - started).toBeLessThan(2_000);
    // 30 s is past the whole budget (3 s): the target asked for more than the run could ever wait.
    expect(leftOut).toMatchObject({
      outcome: 'skipped',
      reason:
        "not completed: the target asked for a 30 s wait (a window to end), past the run's whole bound of 3 s (--max-minutes)",
      requests: 1,
    });
    expect(await runCheck(waitingCheck(0.01), descriptor, { settings })).toMatchObject({ outcome: 'passed' });
    // 2.9 s fits the budget but no longer what is left of it: left out, not a finding.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await runCheck(waitingCheck(2.9), descriptor, { settings })).toMatchObject({
      outcome: 'skipped',
      reason: expect.stringMatching(
        new RegExp(`^${LEFT_OUT} 0.05: it needed a 2.9 s wait with \\d+ s left$`),
      ) as unknown,
    });
  });

  it('sends nothing more once the time is used up', async () => {
    const descriptor = await target();
    const settings = { seed: 1, runs: 1, maxMinutes: 0.01 };
    expect(await runCheck(waitingCheck(0.01), descriptor, { settings })).toMatchObject({
      outcome: 'passed',
      requests: 1,
    });
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(await runCheck(waitingCheck(0.01), descriptor, { settings })).toMatchObject({
      outcome: 'skipped',
      reason: `${LEFT_OUT} 0.01: the time was used up`,
      requests: 0,
    });
  });
});

// A budget runs out inside generated cases too: fast-check catches what the case threw, and the check
// must still end as left out, neither passed (nothing was judged) nor failed (the target did nothing wrong).
describe('a budget used up inside generated cases', () => {
  const generated: Check = {
    name: 'generated' as Check['name'], // a check of this test only, in no registry
    verifies: 'nothing; it sends one request per generated case',
    needs: [],
    async run(context) {
      await checkProperty(
        context,
        'cases',
        fc.integer(),
        async () => {
          await context.send({ method: 'GET', path: '/categories' });
        },
        { runs: 5 },
      );
    },
  };

  it('leaves a property-based check out when the time is used up, instead of failing it', async () => {
    const descriptor = await target();
    const settings = { seed: 1, runs: 5, maxMinutes: 0.01 };
    expect(await runCheck(waitingCheck(0.01), descriptor, { settings })).toMatchObject({ outcome: 'passed' });
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(await runCheck(generated, descriptor, { settings })).toMatchObject({
      outcome: 'skipped',
      reason: `${LEFT_OUT} 0.01: the time was used up`,
    });
  });

  it('leaves the concurrent-clients check out when its requests run out, instead of passing it', async () => {
    const descriptor = await target();
    const result = await runCheck(concurrentClientsSerialisable, descriptor, {
      settings: { seed: 1, runs: 5, maxRequests: 1 },
    });
    expect(result).toMatchObject({ outcome: 'skipped', reason: 'the request budget is used up (--max-requests 1)' });
  });
});
