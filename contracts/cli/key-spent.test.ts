import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startFakeServer, type RunningFakeServer } from '../../mocks/server/index.js';
import { capturedIo } from './captured-io.js';
import { runContractCli } from './run-contract-cli.js';

const DAY = 86_400;

// A key whose day is used up answers 429 with a Retry-After of hours: no run can wait that out, so the
// run says so once and stops sending with the key, instead of each check waiting the longest wait on it.
describe('a key whose day is used up', () => {
  let fake: RunningFakeServer;
  beforeAll(async () => {
    fake = await startFakeServer({ port: 0 });
    // Noon of the next UTC day: the day window then ends 43,200 s later, whenever the test runs.
    const now = Math.floor(Date.now() / 1000);
    fake.fake.clock.setEpochSeconds(Math.floor(now / DAY) * DAY + DAY + DAY / 2);
    await fake.fake.keys.setQuota('free-test-key', { dayRemaining: 0 });
  });
  afterAll(() => fake.close());

  it('reports the 429 once, ends the keyed part at once, and says the run is incomplete in its last line', async () => {
    const { io, out } = capturedIo();
    const started = Date.now();
    const code = await runContractCli(
      [
        '--target',
        fake.baseUrl,
        '--api-key',
        'free-test-key',
        '--max-minutes',
        '5',
        '--checks',
        'list_categories_conforms,get_pet_conforms,list_orders_conforms,unknown_path_not_found',
      ],
      io,
    );
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(code).toBe(1);
    const text = out.join('\n');
    // Reported once, with the answer that asked for it; the checks after it end at once, not completed.
    expect(out.filter((line) => line.startsWith("Wait past the run's bound:"))).toHaveLength(1);
    expect(text).toMatch(/needed 43[12]\d\d s \(Retry-After of a 429 to GET \//);
    expect(text).not.toMatch(/waiting 300 s/);
    const notCompleted = out.filter((line) =>
      /skipped: not completed: the target asked for a \d+ s wait .*; no request with the key is sent after it/.test(
        line,
      ),
    );
    expect(notCompleted.length).toBeGreaterThanOrEqual(3);
    expect(out.at(-1)).toMatch(/^INCOMPLETE: .*checks not completed/);
  }, 90_000);
});
