import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startFakeServer, type RunningFakeServer } from '../../mocks/server/index.js';
import { brokenVariant } from '../broken-variants/index.js';
import { capturedIo } from '../cli/captured-io.js';
import { runContractCli } from '../cli/run-contract-cli.js';

// A key whose quota limits the run sends each method token once, not one of each kind: TRACE is an
// entry of the evidence catalogue of its own, which no budget drops.
describe('every method token is tried under a budget', () => {
  let service: RunningFakeServer;
  beforeAll(async () => {
    service = await startFakeServer({ port: 0, ...brokenVariant('trace-echoes-request').fake });
  });
  afterAll(() => service.close());

  it.each([3, 17])(
    'finds a TRACE that echoes the key with a free key (seed %i)',
    async (seed) => {
      await service.fake.reset();
      const { io, out } = capturedIo();
      const args = ['--target', service.baseUrl, '--api-key', 'free-test-key', '--checks', 'every_method_routed'];
      expect(await runContractCli([...args, '--seed', String(seed)], io)).toBe(1);
      const text = out.join('\n');
      expect(text).toMatch(/generated cases stop after \d+ in a row/);
      expect(text).toContain('TRACE');
      expect(text).toMatch(/FAIL {2}every_method_routed/);
    },
    120_000,
  );
});
