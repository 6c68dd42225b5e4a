// The fake built in-process, answering through its msw handlers (no network), with keys whose quota a
// long property run cannot exhaust: robustness tests must fail on robustness, not on a 429.
import type { Clock } from '../../mocks/domain/clock.js';
import { DEFAULT_KEYS, type ApiKey } from '../../mocks/domain/plans.js';
import { createFake, type Fake } from '../../mocks/fake.js';

/** A key with limits no test reaches. */
export const UNLIMITED_KEY: ApiKey = {
  key: 'unlimited-test-key',
  plan: 'enterprise',
  limits: { perMinute: 1e12, perDay: 1e12 },
};

/** The base address the in-process fake answers under. */
export const BASE_URL = 'http://fake.test/v1';

/** A fake with the default keys plus {@link UNLIMITED_KEY}, on an optional fixed clock. */
export function inProcessFake(clock?: Clock): Fake {
  return createFake({ baseUrl: BASE_URL, keys: [...DEFAULT_KEYS, UNLIMITED_KEY], ...(clock && { clock }) });
}

/** Sends one request to the fake; fails when no handler answered (every path under /v1 must be answered). */
export async function send(fake: Fake, path: string, init: RequestInit = {}): Promise<Response> {
  const request = new Request(`${BASE_URL}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${UNLIMITED_KEY.key}`, ...init.headers },
  });
  const response = await fake.handle(request);
  if (!response) throw new Error(`no handler answered ${init.method ?? 'GET'} ${path}`);
  return response;
}
