// Counterexamples the property tests found and fast-check shrank, kept as ordinary tests so they run
// on every change whatever the random seed. Each names the property that found it.
import { describe, expect, it } from '@jest/globals';
import { answerAdmin } from '../../mocks/server/admin.js';
import { conforming } from '../support/spec-conformance.js';
import { inProcessFake, send } from './in-process-fake.js';

describe('shrunk counterexamples', () => {
  // handlers.property: GET /pets/{petId} with any path segment. msw's own decoding threw: a 500.
  it('GET /pets/% is a 400, not an exception', async () => {
    const { status, json } = await conforming('getPetById', await send(inProcessFake(), '/pets/%'));
    expect(status).toBe(400);
    expect(json).toMatchObject({ code: 'invalid_request' });
  });

  // admin-clock.property: the clock moved before 1970 made X-RateLimit-Reset negative; past Date's
  // range it became NaN and the ban message threw.
  it.each([{ epochSeconds: -86_401 }, { epochSeconds: 1e308 }, { advanceSeconds: 1e308 }, { advanceSeconds: -1e12 }])(
    'POST /__admin/clock %j is a 400 and leaves the clock alone',
    async (body) => {
      const fake = inProcessFake();
      const before = fake.clock.now();
      const answer = await answerAdmin(
        fake,
        { loopback: true },
        { method: 'POST', path: '/__admin/clock', body: () => body },
      );
      expect(answer).toMatchObject({ status: 400, body: { code: 'invalid_request', status: 400 } });
      expect(fake.clock.now() - before).toBeLessThan(60_000);
      expect((await conforming('listCategories', await send(fake, '/categories'))).status).toBe(200);
    },
  );

  it('still moves the clock to the first and the last second it allows', async () => {
    const fake = inProcessFake();
    const last = Date.UTC(9999, 11, 31, 23, 59, 59) / 1000;
    for (const epochSeconds of [0, last]) {
      const answer = await answerAdmin(
        fake,
        { loopback: true },
        { method: 'POST', path: '/__admin/clock', body: () => ({ epochSeconds }) },
      );
      expect(answer).toEqual({ status: 200, body: { epochSeconds } });
      expect((await conforming('getPetById', await send(fake, '/pets/1'))).status).toBeLessThan(500);
    }
  });
});
