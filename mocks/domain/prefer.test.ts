import { describe, expect, it } from '@jest/globals';
import { preferredFaults } from './prefer.js';

describe('preferredFaults (the fake-only Prefer header)', () => {
  it('reads code=, delay= and network=error, a delay first, and what to echo in Preference-Applied', () => {
    expect(preferredFaults('code=503')).toEqual({
      ok: true,
      outcomes: [
        {
          error: { code: 'service_unavailable', message: expect.stringContaining('Prefer: code=503'), status: 503 },
          retryAfterSeconds: 1,
        },
      ],
      applied: ['code=503'],
    });
    expect(preferredFaults('network=error; x=1, delay="2000"')).toEqual({
      ok: true,
      outcomes: [{ delayMs: 2000 }, { network: 'error' }],
      applied: ['delay=2000', 'network=error'],
    });
    expect(preferredFaults('Code=418').ok && preferredFaults('Code=418')).toMatchObject({
      outcomes: [{ error: { code: 'injected_fault', status: 418 } }],
    });
  });

  it('ignores what is not ours (RFC 7240), a success code, and a repeated preference after the first', () => {
    expect(preferredFaults(null)).toEqual({ ok: true, outcomes: [], applied: [] });
    expect(preferredFaults('return=minimal, respond-async, wait=10, example=ok')).toEqual({
      ok: true,
      outcomes: [],
      applied: [],
    });
    expect(preferredFaults('code=200')).toEqual({ ok: true, outcomes: [], applied: [] });
    expect(preferredFaults('code=500, code=503')).toMatchObject({ applied: ['code=500'] });
  });

  it.each([
    ['code=5o3', 'code=5o3 is not understood; the fake expects an HTTP status from 100 to 599'],
    ['code=600', 'code=600'],
    ['delay=-5', 'delay=-5 is not understood; the fake expects milliseconds from 0 to 120000'],
    ['delay=999999', 'delay=999999'],
    ['network=down', 'network=down is not understood; the fake expects "error"'],
    ['network=error, code=503', 'code= and network=error exclude each other'],
  ])('refuses %j naming it', (header, message) => {
    expect(preferredFaults(header)).toEqual({ ok: false, message: expect.stringContaining(message) });
  });
});
