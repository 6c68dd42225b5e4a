// Property test of the admin clock: whatever body it gets, it answers 200 or a 400 Error, and the fake
// it moved still answers every /v1 request per the spec.
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { answerAdmin } from '../../mocks/server/admin.js';
import { conforming } from '../support/spec-conformance.js';
import { inProcessFake, send } from './in-process-fake.js';

const clockBody = fc.oneof(
  fc.record({
    advanceSeconds: fc.oneof(fc.double(), fc.integer(), fc.constantFrom(1e308, -1e308, 8.64e12, -8.64e12, 2 ** 53)),
  }),
  fc.record({
    epochSeconds: fc.oneof(
      fc.double(),
      fc.integer(),
      fc.constantFrom(1e308, -1e308, 8.64e12, 8.64e12 + 1, -1, 0, 253402300800),
    ),
  }),
  fc.jsonValue({ maxDepth: 2 }),
);

describe('POST /__admin/clock with any body', () => {
  it('answers 200 or 400, and afterwards the fake still answers per the spec', async () => {
    const fake = inProcessFake();
    await fc.assert(
      fc.asyncProperty(clockBody, async (body) => {
        await fake.reset();
        const answer = await answerAdmin(
          fake,
          { loopback: true },
          { method: 'POST', path: '/__admin/clock', body: () => body },
        );
        expect([200, 400]).toContain(answer.status);
        if (answer.status === 200)
          expect(Number.isSafeInteger((answer.body as { epochSeconds: number }).epochSeconds)).toBe(true);
        for (const [operation, path] of [
          ['listCategories', '/categories'],
          ['getPetById', '/pets/1'],
        ] as const) {
          expect((await conforming(operation, await send(fake, path))).status).toBeLessThan(500);
        }
      }),
      { numRuns: 200, interruptAfterTimeLimit: 60_000 },
    );
  });
});
