/** @startsFirst a paced contract run against a live service: mostly waits for its quota windows (test/waiting-first-sequencer.js). */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { contractRunAgainst, WITNESS_KEYS, WITNESS_SEED } from './contract-run.js';
import { startExpressService, type RunningService } from './express/index.js';

// A correct service the suite was not shaped to, written from spec/openapi.yaml alone: a failure here is
// a defect of the suite until a quoted requirement on the server says otherwise.
describe('the contract suite against a correct service on Express 5 with helmet', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startExpressService({ port: 0, keys: WITNESS_KEYS });
  });
  afterAll(() => service.close());

  it(`passes every check (seed ${WITNESS_SEED}: replay with WITNESS_SEED=${WITNESS_SEED})`, async () => {
    const { code, printed } = await contractRunAgainst(service.baseUrl);
    expect({ code, printed }).toEqual({ code: 0, printed: expect.stringContaining(' 0 failed') });
  }, 600_000);
});
