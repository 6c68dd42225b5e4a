import { describe, expect, it } from '@jest/globals';
import { conforming } from '../support/spec-conformance.js';
import { inProcessFake, send } from './in-process-fake.js';

// msw used to percent-decode path parameters itself and threw on malformed escapes: a 500 for a typo.
describe('paths with malformed or unusual percent-encoding', () => {
  const fake = inProcessFake();

  it.each(['%ZZ', '%', '%E0%A4%A', '%FF', '%C0%AF', '1%'])(
    'GET /pets/%s is a 400 invalid_request, not a 500',
    async (petId) => {
      const { status, json } = await conforming('getPetById', await send(fake, `/pets/${petId}`));
      expect(status).toBe(400);
      expect(json).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('petId') });
    },
  );

  it.each(['/categories%FF', '/%ZZ', '/store/orders/%E0%A4%A', '/pets/1/%ZZ'])(
    '%s is a 404 not_found',
    async (path) => {
      const { status, json } = await conforming('undocumented', await send(fake, path));
      expect(status).toBe(404);
      expect(json).toMatchObject({ code: 'not_found' });
    },
  );

  it('decodes a well-formed escape in petId like any other character (%31 is 1)', async () => {
    const { status, json } = await conforming('getPetById', await send(fake, '/pets/%31'));
    expect(status).toBe(200);
    expect(json).toMatchObject({ id: 1 });
  });

  it('still answers 405 with Allow on a known path; a trailing slash is an unknown path', async () => {
    const wrongMethod = await conforming('undocumented', await send(fake, '/pets/1', { method: 'DELETE' }));
    expect(wrongMethod).toMatchObject({ status: 405, headers: { allow: 'GET' } });
    expect(await conforming('undocumented', await send(fake, '/pets/2/'))).toMatchObject({
      status: 404,
      json: { code: 'not_found' },
    });
  });
});
