import { randomUUID } from 'node:crypto';
import type { Redis, Result } from 'ioredis';
import { anonymousAccess, banned, keyAccess, REVOKED_KEY_MESSAGE } from '../domain/access.js';
import { authenticate } from '../domain/auth.js';
import type { AdjustableClock } from '../domain/clock.js';
import type {
  AccessStore,
  AdmissionRequest,
  Admitted,
  FakeStore,
  RecordStore,
  StoreParts,
} from '../domain/fake-store.js';
import { ruleApplies } from '../domain/faults.js';
import { PLAN_LIMITS, type ApiKey } from '../domain/plans.js';
import { quotaDecision, windowsOfCounts, type WindowName, type WindowState } from '../domain/quota.js';
import { reachable, RedisFaultStore } from './redis-faults.js';
import { ADMIT, FIRE_FAULT, SEED_IF_EMPTY } from './redis-scripts.js';
import type { RecordStep } from '../domain/record-step.js';
import type { Category, NewCategory, Order, Pet, SeedData } from '../domain/seed.js';

declare module 'ioredis' {
  interface RedisCommander<Context> {
    petstoreAdmit(...args: Array<string | number>): Result<string[], Context>;
    petstoreSeedIfEmpty(...args: Array<string | number>): Result<number, Context>;
    petstoreFireFault(...args: Array<string | number>): Result<number, Context>;
  }
}

/** Options of `connectRedisStore`: where the shared state lives (`--store`, `--store-prefix`). */
export interface RedisStoreOptions {
  /** `redis://HOST:PORT[/DB]`. */
  url: string;
  /** Every key starts with it, so several fakes can share one Redis. Default `petstore:`. */
  prefix?: string;
}

// An anonymous address's bucket outlives its day window, then Redis drops it: memory stays bounded.
const ADDRESS_BUCKET_MS = 2 * 86_400_000;

/**
 * Connects to Redis and returns the store factory `createFake({ store })` takes. Rejects naming the URL
 * when Redis cannot be reached, so the server can exit 2 before it listens.
 * @example const store = await connectRedisStore({ url: 'redis://127.0.0.1:6379' }); startFakeServer({ store });
 */
export async function connectRedisStore(options: RedisStoreOptions): Promise<(parts: StoreParts) => RedisStore> {
  // Imported here, not at the top: the bins are single files, and a fake in memory never pays for the client (~100 ms to load).
  const { Redis: RedisClient } = await import('ioredis');
  const redis = new RedisClient(options.url, {
    lazyConnect: true,
    // While Redis is gone a request fails at once (503 store_unavailable) instead of queueing; the
    // client keeps reconnecting in the background and the next request after that is served again.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 2_000,
    // No retry before the first connection: start-up fails at once, naming the URL (exit 2).
    retryStrategy: (attempt) => (connected ? Math.min(attempt * 100, 1_000) : null),
  });
  let connected = false;
  let lastError: Error | undefined;
  // Reported per request as store_unavailable; the client reconnects by itself.
  redis.on('error', (error: Error) => (lastError = error));
  try {
    await redis.connect();
    await redis.ping();
    connected = true;
  } catch (error) {
    redis.disconnect();
    throw new Error(`cannot reach Redis at ${options.url} (${(lastError ?? (error as Error)).message})`, {
      cause: error,
    });
  }
  redis.defineCommand('petstoreAdmit', { numberOfKeys: 12, lua: ADMIT });
  redis.defineCommand('petstoreSeedIfEmpty', { numberOfKeys: 6, lua: SEED_IF_EMPTY });
  redis.defineCommand('petstoreFireFault', { numberOfKeys: 5, lua: FIRE_FAULT });
  return (parts) => new RedisStore(redis, options.prefix ?? 'petstore:', parts);
}

/**
 * The state of the standalone fake in Redis (docs/explanation/design.md section 6): records, the category sequence,
 * quota counters, bans, revocations and the clock offset, every key under one prefix. Admission is
 * one Lua script per request; ids come from one `INCR` and are never reused.
 */
export class RedisStore implements FakeStore {
  readonly records: RecordStore;
  readonly access: AccessStore;
  readonly faults: RedisFaultStore;
  readonly #redis: Redis;
  readonly #prefix: string;
  readonly #clock: AdjustableClock;
  /** The category list as this instance last read it, and its version in Redis: a GET of an unchanged list reads no records. */
  #categories: { version: string; list: readonly Category[] } | undefined;
  readonly #admit: (
    authorization: string | null,
    clientAddress: string,
    rulesVersion: string,
    step?: RecordStep,
  ) => Promise<Admitted | 'stale'>;
  #loading: Promise<void>;

  constructor(redis: Redis, prefix: string, parts: StoreParts) {
    this.#redis = redis;
    this.#prefix = prefix;
    this.#clock = parts.access.clock;
    const key = (name: string) => `${prefix}${name}`;
    const keys = new Map(parts.access.keys.map((apiKey) => [apiKey.key, apiKey]));
    const ban = parts.access.ban;

    this.records = {
      createCategory: (newCategory: NewCategory) =>
        reachable(async () => {
          const id = await redis.incr(key('category:seq'));
          // The field order of the memory store's answers: id, name, description.
          const category: Category = {
            id,
            name: newCategory.name,
            ...(newCategory.description !== undefined && { description: newCategory.description }),
          };
          await redis
            .multi()
            .hset(key('categories'), String(id), JSON.stringify(category))
            .set(key('categories:version'), randomUUID())
            .exec();
          return category;
        }),
      listCategories: () =>
        reachable(async () => {
          const [[, version], [, values]] = (await redis
            .multi()
            .get(key('categories:version'))
            .hvals(key('categories'))
            .exec()) as [[unknown, string | null], [unknown, string[]]];
          return this.#readCategories(version ?? '', values);
        }),
      findPet: (id: number) =>
        reachable(async () => {
          const json = await redis.hget(key('pets'), String(id));
          return json === null ? undefined : (JSON.parse(json) as Pet);
        }),
      listOrders: () => reachable(async () => byId<Order>(await redis.hvals(key('orders')))),
    };

    // The base clock (the system's, unless the options gave another) plus the shared offset.
    const baseNow = () => this.#clock.now() - this.#clock.offsetMs;
    const offsetNow = async () => baseNow() + Number((await redis.get(key('clock'))) ?? 0);
    this.#admit = async (authorization, clientAddress, version, step) => {
      const auth = authenticate(authorization, keys);
      const apiKey = auth.ok ? auth.apiKey : undefined;
      const systemNow = baseNow();
      // The list this request may answer with, if Redis finds its version current (another request may replace the field meanwhile).
      const held = step?.kind === 'listCategories' ? this.#categories : undefined;
      const reply = await redis.petstoreAdmit(
        key('clock'),
        key('revoked'),
        key(`ban:${apiKey?.key ?? ''}`),
        key(`rejections:${apiKey?.key ?? ''}`),
        key(`quota:key:${apiKey?.key ?? ''}`),
        key(`quota:address:${clientAddress}`),
        this.faults.versionKey,
        key('categories'),
        key('pets'),
        key('orders'),
        key('category:seq'),
        key('categories:version'),
        systemNow,
        apiKey?.key ?? '',
        apiKey?.limits.perMinute ?? 0,
        apiKey?.limits.perDay ?? 0,
        PLAN_LIMITS.free.perMinute,
        PLAN_LIMITS.free.perDay,
        ban.threshold,
        ban.seconds * 1000,
        ADDRESS_BUCKET_MS,
        version,
        step?.kind ?? '',
        stepArgument(step),
        step?.kind === 'createCategory' ? randomUUID() : (held?.version ?? ''),
      );
      const [kind, offset, ...rest] = reply;
      if (kind === 'stale') return 'stale';
      // Every instance takes the clock offset the admission read: one clock for all of them.
      this.#clock.setOffsetMs(Number(offset));
      const nowMs = systemNow + Number(offset);
      if (kind === 'banned') return { access: banned(apiKey!, Number(rest[0]), nowMs) };
      const [exhausted, minuteStart, minuteCount, dayStart, dayCount] = rest.map(Number) as [
        number,
        number,
        number,
        number,
        number,
      ];
      const limits = kind === 'key' ? apiKey!.limits : PLAN_LIMITS.free;
      const quota = quotaDecision(
        windowsOfCounts([minuteStart, dayStart], [minuteCount, dayCount], limits),
        exhausted,
        nowMs,
      );
      if (kind === 'key') {
        const access = keyAccess(apiKey!, quota);
        if (!access.granted || !step) return { access };
        const values = rest.slice(5);
        if (step.kind !== 'listCategories') return { access, result: stepResult(step, values) };
        const [listVersion = '', current, ...records] = values;
        return { access, result: current === '=' ? held!.list : this.#readCategories(listVersion, records) };
      }
      if (kind === 'revoked' || auth.ok)
        return { access: anonymousAccess(quota, 'invalid_api_key', REVOKED_KEY_MESSAGE) };
      return { access: anonymousAccess(quota, auth.code, auth.message) };
    };
    this.access = {
      check: (authorization, clientAddress) =>
        reachable(async () => ((await this.#admit(authorization, clientAddress, ANY_VERSION)) as Admitted).access),
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
    this.faults = new RedisFaultStore(redis, prefix, parts.faults);
    this.#loading = this.#seedIfEmpty(parts.seed);
  }

  /** One round trip: the cached fault rules' version checked, admission, the step. Read again when the rules changed. */
  admitAtOnce({ authorization, clientAddress, subject, step }: AdmissionRequest): Promise<Admitted | undefined> {
    return reachable(async () => {
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const snapshot = await this.faults.snapshot();
        if (snapshot.rules.some((rule) => ruleApplies(rule, subject))) return undefined;
        const admitted = await this.#admit(authorization, clientAddress, snapshot.version, step);
        if (admitted !== 'stale') return admitted;
        this.faults.forget();
      }
      // The rules keep changing under this request: take the stages one by one.
      return undefined;
    });
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

  /** The categories read from Redis, frozen (shared by every answer until they change) and kept with their version. */
  #readCategories(version: string, values: string[]): readonly Category[] {
    const list = Object.freeze(byId<Category>(values).map((category) => Object.freeze(category)));
    this.#categories = version === '' ? undefined : { version, list };
    return list;
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

// Admission without the fault rules' version check: the stages one by one, after the rules were taken.
const ANY_VERSION = '*';

/** The script's argument for a step: a new category's JSON after its id (the memory store's field order), or a pet's id. */
function stepArgument(step: RecordStep | undefined): string {
  if (step?.kind === 'createCategory') {
    const { name, description } = step.category;
    return JSON.stringify({ name, ...(description !== undefined && { description }) }).slice(1);
  }
  return step?.kind === 'findPet' ? String(step.id) : '';
}

/** A step's result from the script's reply after the quota fields (a category list is the store's: it may be the one held). */
function stepResult(step: Exclude<RecordStep, { kind: 'listCategories' }>, values: string[]): unknown {
  switch (step.kind) {
    case 'listOrders':
      return byId(values);
    case 'findPet':
      return values[0] ? JSON.parse(values[0]) : undefined;
    case 'createCategory':
      return JSON.parse(values[0]!);
  }
}

function byId<T extends { id: number }>(values: string[]): T[] {
  return values.map((json) => JSON.parse(json) as T).sort((a, b) => a.id - b.id);
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
