import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Access } from '../../mocks/domain/access.js';
import { AdjustableClock } from '../../mocks/domain/clock.js';
import type { FakeStore, StoreParts } from '../../mocks/domain/fake-store.js';
import { apiKeysFromConfig } from '../../mocks/domain/plans.js';
import { EMPTY_SEED } from '../../mocks/domain/seed.js';
import { MemoryStore } from '../../mocks/stores/memory-store.js';
import { connectRedisStore } from '../../mocks/stores/redis-connection.js';
import { specValidators } from '../../spec/spec-artifacts.js';
import { ADMISSION_CASES, T0_MS, type AdmissionCase, type Outcome } from './admission-cases.js';
import { REDIS_INSTALL_COMMAND, redisIsInstalled, startRedis, type RedisProcess } from './redis-server.js';

// The admission rules are written twice, of necessity: in TypeScript for the memory store and in Lua for
// Redis, where only a script is atomic across instances. Both are held to the same table of cases.

/** Builds a fresh store for a case from its parts (each case gets its own Redis prefix). */
type StoreMaker = (parts: StoreParts, name: string) => Promise<FakeStore>;

function outcomeOf(access: Access): Outcome {
  const { limit, remaining, resetEpochSeconds: reset } = access.rateLimit;
  const outcome = access.granted ? 'granted' : access.error.code;
  const retryAfter = access.granted ? undefined : access.retryAfterSeconds;
  return { outcome, limit, remaining, reset, ...(retryAfter !== undefined && { retryAfter }) };
}

/** Runs a case's steps; returns each judged request's outcome beside what the table expects. */
async function run(testCase: AdmissionCase, make: StoreMaker): Promise<Array<{ got: Outcome; expected: Outcome }>> {
  let nowMs = T0_MS;
  const keys = apiKeysFromConfig(
    testCase.keys.map(({ key, perMinute, perDay }) => ({ key, plan: 'enterprise', perMinute, perDay })),
    testCase.name,
  );
  const clock = new AdjustableClock({ now: () => nowMs });
  const store = await make(
    {
      schemas: specValidators(),
      access: { keys, clock, ban: testCase.ban, anonymousCapacity: 100 },
      seed: EMPTY_SEED,
      faults: [],
    },
    testCase.name,
  );
  await store.ready();
  const judged: Array<{ got: Outcome; expected: Outcome }> = [];
  try {
    for (const step of testCase.steps) {
      nowMs = step.atMs;
      if ('act' in step) {
        if (step.act === 'ban') await store.access.ban(step.key, step.seconds);
        else await store.access[step.act](step.key);
        continue;
      }
      const address = step.address ?? '127.0.0.1';
      const subject = { method: 'GET', path: '/categories', key: undefined };
      let admission;
      for (let sent = 0; sent < (step.repeat ?? 1); sent += 1) {
        await store.faults.take(subject, 'beforeAuth');
        admission = await store.admit({
          authorization: step.authorization,
          clientAddress: address,
          subject,
          takeRule: true,
        });
      }
      if (!admission || 'early' in admission) throw new Error(`${testCase.name}: no admission`);
      judged.push({ got: outcomeOf(admission.access), expected: step.expect });
    }
  } finally {
    await store.close();
  }
  return judged;
}

const stores: Array<[string, () => StoreMaker | undefined]> = [];
let redis: RedisProcess | undefined;
let redisStore: StoreMaker | undefined;
stores.push(['the memory store (AccessControl, TypeScript)', () => async (parts) => new MemoryStore(parts)]);
if (redisIsInstalled()) stores.push(['the Redis store (the ADMIT script, Lua)', () => redisStore]);
else console.warn(`[redis] the Lua half of the admission cases is skipped: install it with ${REDIS_INSTALL_COMMAND}`);

beforeAll(async () => {
  if (!redisIsInstalled()) return;
  redis = await startRedis({ durable: false });
  let caseNumber = 0;
  redisStore = async (parts) => {
    caseNumber += 1;
    const connect = await connectRedisStore({ url: redis!.url, prefix: `cases-${caseNumber}:` });
    return connect(parts);
  };
}, 30_000);
afterAll(() => redis?.stop());

describe.each(stores)('admission, by one table of cases: %s', (_, maker) => {
  it.each(ADMISSION_CASES.map((testCase) => [testCase.name, testCase] as const))('%s', async (_name, testCase) => {
    const judged = await run(testCase, maker()!);
    expect(judged.map(({ got }) => got)).toEqual(judged.map(({ expected }) => expected));
  });
});
