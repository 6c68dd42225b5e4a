import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { AccessStore, Admission, AdmissionRequest, FakeStore, StoreParts } from '../domain/fake-store.js';
import { matchesSubject } from '../domain/faults.js';
import type { Access } from '../domain/access.js';
import type { AdjustableClock } from '../domain/clock.js';
import type { ApiKey } from '../domain/plans.js';
import { windowsOfCounts, type WindowName, type WindowState } from '../domain/quota.js';
import type { RecordStep, StepResult } from '../domain/record-step.js';
import type { SeedData } from '../domain/seed.js';
import { ANY_VERSION, RedisAdmission } from './redis-admission.js';
import { reachable, RedisFaultStore } from './redis-faults.js';

/**
 * The state of the standalone fake in Redis (docs/explanation/design.md section 6): records, the category sequence,
 * quota counters, bans, revocations and the clock offset, every key under one prefix. Admission is
 * one Lua script per request; ids come from one `INCR` and are never reused.
 */
export class RedisStore implements FakeStore {
  readonly access: AccessStore;
  readonly faults: RedisFaultStore;
  readonly #redis: Redis;
  readonly #prefix: string;
  readonly #clock: AdjustableClock;
  readonly #admission: RedisAdmission;
  #loading: Promise<void>;

  constructor(redis: Redis, prefix: string, parts: StoreParts) {
    this.#redis = redis;
    this.#prefix = prefix;
    this.#clock = parts.access.clock;
    const key = (name: string) => `${prefix}${name}`;
    const keys = new Map(parts.access.keys.map((apiKey) => [apiKey.key, apiKey]));
    const ban = parts.access.ban;
    this.faults = new RedisFaultStore(redis, prefix, parts.faults);
    const admission = new RedisAdmission(redis, prefix, parts.access);
    this.#admission = admission;
    // The system's clock plus the shared offset, read from Redis.
    const offsetNow = async () => admission.systemNow() + Number((await redis.get(key('clock'))) ?? 0);

    this.access = {
      keyOf: (name) => keys.get(name),
      windowsOf: (apiKey: ApiKey) =>
        reachable(async () =>
          windowsAt(
            await redis.hmget(key(`quota:key:${apiKey.key}`), 'ms', 'mc', 'ds', 'dc'),
            apiKey,
            await offsetNow(),
          ),
        ),
      setRemaining: (apiKey: ApiKey, remaining: Partial<Record<WindowName, number>>) =>
        reachable(async () => {
          const current = windowsAt(
            await redis.hmget(key(`quota:key:${apiKey.key}`), 'ms', 'mc', 'ds', 'dc'),
            apiKey,
            await offsetNow(),
          );
          const [minute, day] = current.map((window) => ({
            start: window.resetEpochSeconds - window.seconds,
            count: window.limit - (remaining[window.name] ?? window.remaining),
          }));
          await redis.hset(
            key(`quota:key:${apiKey.key}`),
            'ms',
            minute!.start,
            'mc',
            minute!.count,
            'ds',
            day!.start,
            'dc',
            day!.count,
          );
        }),
      bannedUntil: (name) =>
        reachable(async () => {
          const [until, now] = [Number((await redis.get(key(`ban:${name}`))) ?? 0), await offsetNow()];
          return until > now ? until : undefined;
        }),
      ban: (name, seconds = ban.seconds) =>
        reachable(async () => void (await redis.set(key(`ban:${name}`), String((await offsetNow()) + seconds * 1000)))),
      unban: (name) => reachable(async () => void (await redis.del(key(`ban:${name}`), key(`rejections:${name}`)))),
      isRevoked: (name) => reachable(async () => (await redis.sismember(key('revoked'), name)) === 1),
      revoke: (name) => reachable(async () => void (await redis.sadd(key('revoked'), name))),
      restore: (name) => reachable(async () => void (await redis.srem(key('revoked'), name))),
    };
    this.#loading = this.#seedIfEmpty(parts.seed);
  }

  /**
   * One round trip when no `afterAuth` rule applies: admission and the step, under the fault rules'
   * version the request's `beforeAuth` stage read (Redis refuses it when they changed since: that stage
   * again, on the rules now). When a rule applies: admission, then the rule; the step is the caller's.
   */
  admit({ authorization, clientAddress, subject, step, takeRule }: AdmissionRequest): Promise<Admission> {
    return reachable(async () => {
      let seen = this.faults.seenBy(subject) ?? (await this.faults.snapshot());
      for (let attempt = 0; attempt < 3; attempt += 1) {
        if (takeRule && seen.rules.some((rule) => matchesSubject(rule, subject, 'afterAuth'))) break;
        const admitted = await this.#admission.admit(authorization, clientAddress, seen.version, step);
        if (admitted !== 'stale') return admitted;
        this.faults.forget();
        const early = await this.faults.take(subject, 'beforeAuth');
        if (early) return { early };
        seen = this.faults.seenBy(subject) ?? (await this.faults.snapshot());
      }
      // A rule applies after auth, or the rules keep changing under this request: the stages one by one.
      const { access } = (await this.#admission.admit(authorization, clientAddress, ANY_VERSION)) as { access: Access };
      if (!access.granted || !takeRule) return { access };
      return { access, fault: await this.faults.take(subject, 'afterAuth') };
    });
  }

  takeStep<S extends RecordStep>(step: S): Promise<StepResult<S>> {
    return reachable(async () => (await this.#admission.takeStep(step)) as StepResult<S>);
  }

  setClockOffset(offsetMs: number): Promise<void> {
    return reachable(async () => void (await this.#redis.set(`${this.#prefix}clock`, String(offsetMs))));
  }

  syncClock(): Promise<void> {
    return reachable(async () => this.#clock.setOffsetMs(Number((await this.#redis.get(`${this.#prefix}clock`)) ?? 0)));
  }

  /** Deletes every key under this fake's prefix (no other), then seeds again. */
  reset(seed: SeedData): Promise<void> {
    const resetting = reachable(async () => {
      const pattern = `${this.#prefix.replace(/[*?[\]\\]/g, '\\$&')}*`;
      for await (const batch of this.#redis.scanStream({ match: pattern, count: 500 }) as AsyncIterable<string[]>) {
        if (batch.length > 0) await this.#redis.unlink(...batch);
      }
      this.#clock.setOffsetMs(0);
      await this.#seedIfEmpty(seed);
    });
    // A reset Redis cut short answers 503 to its caller; later requests must not wait on it forever.
    this.#loading = resetting.catch(() => undefined);
    return resetting;
  }

  ready(): Promise<void> {
    return this.#loading;
  }

  async close(): Promise<void> {
    await this.#redis.quit().catch(() => this.#redis.disconnect());
  }

  /** Seeds a fresh prefix, with this instance's start-up fault rules; a prefix in use is kept as it is. */
  async #seedIfEmpty(seed: SeedData): Promise<void> {
    const key = (name: string) => `${this.#prefix}${name}`;
    const records = [
      ...seed.categories.flatMap((record) => ['C', record.id, JSON.stringify(record)]),
      ...seed.pets.flatMap((record) => ['P', record.id, JSON.stringify(record)]),
      ...seed.orders.flatMap((record) => ['O', record.id, JSON.stringify(record)]),
    ];
    const sequenceStart = Math.max(0, ...seed.categories.map((category) => category.id));
    const seeded = await reachable(() =>
      this.#redis.petstoreSeedIfEmpty(
        key('seeded'),
        key('categories'),
        key('pets'),
        key('orders'),
        key('category:seq'),
        key('categories:version'),
        randomUUID(),
        ...records,
        'S',
        sequenceStart,
      ),
    );
    if (seeded === 1) await reachable(() => this.faults.reset());
  }
}

/** A key's windows now from its stored bucket; a window that has ended starts afresh. */
function windowsAt(stored: Array<string | null>, apiKey: ApiKey, nowMs: number): WindowState[] {
  const starts = [Math.floor(nowMs / 60_000) * 60, Math.floor(nowMs / 86_400_000) * 86_400];
  const counts = [
    Number(stored[0]) === starts[0] ? Number(stored[1]) : 0,
    Number(stored[2]) === starts[1] ? Number(stored[3]) : 0,
  ];
  return windowsOfCounts(starts, counts, apiKey.limits);
}
