import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { anonymousAccess, banned, keyAccess, REVOKED_KEY_MESSAGE } from '../domain/access.js';
import { authenticate } from '../domain/auth.js';
import type { BanPolicy } from '../domain/ban.js';
import type { AdjustableClock } from '../domain/clock.js';
import type { Admitted, StoreParts } from '../domain/fake-store.js';
import { PLAN_LIMITS, type ApiKey } from '../domain/plans.js';
import { quotaDecision, windowsOfCounts } from '../domain/quota.js';
import type { RecordStep } from '../domain/record-step.js';
import type { Category } from '../domain/seed.js';

// An anonymous address's bucket outlives its day window, then Redis drops it: memory stays bounded.
const ADDRESS_BUCKET_MS = 2 * 86_400_000;

/**
 * A request's admission in Redis, one round trip: auth here, then the ADMIT script (redis-scripts.ts:
 * the clock offset, revocation, ban, both quota windows and the record step, atomically), and its
 * reply read back into an access decision and the step's result. Keeps the category list it last read
 * with its version in Redis, so a GET of an unchanged list reads no records.
 */
export class RedisAdmission {
  readonly #redis: Redis;
  readonly #key: (name: string) => string;
  readonly #keys: ReadonlyMap<string, ApiKey>;
  readonly #ban: BanPolicy;
  readonly #clock: AdjustableClock;
  readonly #faultsVersionKey: string;
  /** The category list as this instance last read it, and its version in Redis. */
  #categories: { version: string; list: readonly Category[] } | undefined;

  constructor(redis: Redis, prefix: string, access: StoreParts['access'], faultsVersionKey: string) {
    this.#redis = redis;
    this.#key = (name) => `${prefix}${name}`;
    this.#keys = new Map(access.keys.map((apiKey) => [apiKey.key, apiKey]));
    this.#ban = access.ban;
    this.#clock = access.clock;
    this.#faultsVersionKey = faultsVersionKey;
  }

  /** The base clock (the system's, unless the options gave another), without the shared offset. */
  systemNow(): number {
    return this.#clock.now() - this.#clock.offsetMs;
  }

  /**
   * Admits one request and takes its step; 'stale' when the fault rules changed since `version` (the
   * caller's cached rules) and nothing happened.
   */
  async admit(
    authorization: string | null,
    clientAddress: string,
    version: string,
    step?: RecordStep,
  ): Promise<Admitted | 'stale'> {
    const auth = authenticate(authorization, this.#keys);
    const apiKey = auth.ok ? auth.apiKey : undefined;
    const systemNow = this.systemNow();
    // The list this request may answer with, if Redis finds its version current (another request may replace the field meanwhile).
    const held = step?.kind === 'listCategories' ? this.#categories : undefined;
    const reply = await this.#redis.petstoreAdmit(
      this.#key('clock'),
      this.#key('revoked'),
      this.#key(`ban:${apiKey?.key ?? ''}`),
      this.#key(`rejections:${apiKey?.key ?? ''}`),
      this.#key(`quota:key:${apiKey?.key ?? ''}`),
      this.#key(`quota:address:${clientAddress}`),
      this.#faultsVersionKey,
      this.#key('categories'),
      this.#key('pets'),
      this.#key('orders'),
      this.#key('category:seq'),
      this.#key('categories:version'),
      systemNow,
      apiKey?.key ?? '',
      apiKey?.limits.perMinute ?? 0,
      apiKey?.limits.perDay ?? 0,
      PLAN_LIMITS.free.perMinute,
      PLAN_LIMITS.free.perDay,
      this.#ban.threshold,
      this.#ban.seconds * 1000,
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
      return { access, result: current === '=' ? held!.list : this.readCategories(listVersion, records) };
    }
    if (kind === 'revoked' || auth.ok)
      return { access: anonymousAccess(quota, 'invalid_api_key', REVOKED_KEY_MESSAGE) };
    return { access: anonymousAccess(quota, auth.code, auth.message) };
  }

  /** The categories read from Redis, frozen (shared by every answer until they change) and kept with their version. */
  readCategories(version: string, values: string[]): readonly Category[] {
    const list = Object.freeze(byId<Category>(values).map((category) => Object.freeze(category)));
    this.#categories = version === '' ? undefined : { version, list };
    return list;
  }
}

/** Admission without the fault rules' version check: the stages one by one, after the rules were taken. */
export const ANY_VERSION = '*';

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

/** Records from their JSON, by ascending id. */
export function byId<T extends { id: number }>(values: string[]): T[] {
  return values.map((json) => JSON.parse(json) as T).sort((a, b) => a.id - b.id);
}
