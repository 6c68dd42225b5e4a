import { PLAN_LIMITS } from '../../mocks/domain/plans.js';
import { startFakeServer, type FakeServerOptions } from '../../mocks/server/index.js';
import type { Capability } from '../core/capabilities.js';
import type { RunningTarget } from './target.js';

/** The fake supports everything the suite checks, the clock included. */
export const FAKE_CAPABILITIES: Capability[] = [
  'stateful',
  'writes',
  'quota',
  'clock',
  'realAuth',
  'deprecationHeaders',
  'uniformErrors',
  'bodyLimit',
  'hostChecked',
  'httpEquivalences',
  'exactParameters',
  'closedCors',
  'preferredStatus',
];

/** The key the suite uses on the fake, and that key's plan (free: the smallest quota, the fastest to drive), as the spec states it. */
const FAKE_KEY = { apiKey: 'free-test-key', plan: PLAN_LIMITS.free };

/**
 * Options of {@link startFakeTarget}: the fake's own configuration (keys, plans, ban policy, clock, faults,
 * overrides...), as a user gives `startFakeServer`; where it listens is the target's choice.
 */
export type FakeTargetOptions = Omit<FakeServerOptions, 'host' | 'port' | 'redis' | 'adminToken' | 'limits'>;

/**
 * Starts the fake in this process on 127.0.0.1 and a random port; the suite resets it before each check.
 * @example const target = await startFakeTarget(); try { ... } finally { await target.close(); }
 */
export async function startFakeTarget(options: FakeTargetOptions = {}): Promise<RunningTarget> {
  const server = await startFakeServer({ host: '127.0.0.1', port: 0, ...options });
  let closed: Promise<void> | undefined;
  return {
    descriptor: {
      kind: 'fake',
      label: 'fake',
      baseUrl: server.baseUrl,
      apiKey: FAKE_KEY.apiKey,
      plan: FAKE_KEY.plan,
      capabilities: FAKE_CAPABILITIES,
      lacking: {},
      adminUrl: server.url,
      paced: false,
    },
    close: () => (closed ??= server.close()),
  };
}
