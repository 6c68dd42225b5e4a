import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { anonymousAccess, banned, keyAccess, REVOKED_KEY_MESSAGE } from '../domain/access.js';
import { authenticate } from '../domain/auth.js';
import type { BanPolicy } from '../domain/ban.js';
import type { AdjustableClock } from '../domain/clock.js';
import type { Admission, StoreParts } from '../domain/fake-store.js';
import { PLAN_LIMITS, type ApiKey } from '../domain/plans.js';
import { quotaDecision, windowsOfCounts } from '../domain/quota.js';
import type { RecordStep } from '../domain/record-step.js';
import type { Category } from '../domain/seed.js';

// Where the step's result starts in ADMIT's reply: after the kind, the offset and the five quota fields.
const STEP_AT = 7;

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
  readonly #prefix: string;
  readonly #keys: ReadonlyMap<string, ApiKey>;
  readonly #ban: BanPolicy;
  readonly #clock: AdjustableClock;
  readonly #limits = new Map<ApiKey | undefined, string>();
  /** The category list as this instance last read it, and its version in Redis. */
  #categories: { version: string; list: readonly Category[] } | undefined;

  constructor(redis: Redis, prefix: string, access: StoreParts['access']) {
    this.#redis = redis;
    this.#prefix = prefix;
    this.#keys = new Map(access.keys.map((apiKey) => [apiKey.key, apiKey]));
    this.#ban = access.ban;
    this.#clock = access.clock;
  }

  /** The ADMIT script's limits argument for a key (or none), built once per key. */
  #limitsOf(apiKey: ApiKey | undefined): string {
    let limits = this.#limits.get(apiKey);
    if (limits === undefined) {
      const free = PLAN_LIMITS.free;
      limits = [
        apiKey?.limits.perMinute ?? 0,
        apiKey?.limits.perDay ?? 0,
        free.perMinute,
        free.perDay,
        this.#ban.threshold,
        this.#ban.seconds * 1000,
        ADDRESS_BUCKET_MS,
      ].join(' ');
      this.#limits.set(apiKey, limits);
    }
    return limits;
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
  ): Promise<Exclude<Admission, { early: unknown }> | 'stale'> {
    const auth = authenticate(authorization, this.#keys);
    const apiKey = auth.ok ? auth.apiKey : undefined;
    const systemNow = this.systemNow();
    const held = this.#heldFor(step);
    const reply = await this.#redis.petstoreAdmit(
      this.#prefix,
      this.#request(systemNow, apiKey?.key ?? '', clientAddress, version, step, held),
      this.#limitsOf(apiKey),
    );
    if (reply === 'stale') return 'stale';
    // The fields by position (see ADMIT): kind, offset, then the ban's end or the quota and the step's result.
    const fields = reply.split('\n');
    const kind = fields[0];
    const nowMs = this.#takeOffset(systemNow, fields[1]);
    if (kind === 'banned') return { access: banned(apiKey!, Number(fields[2]), nowMs) };
    const limits = kind === 'key' ? apiKey!.limits : PLAN_LIMITS.free;
    const windows = windowsOfCounts(
      [Number(fields[3]), Number(fields[5])],
      [Number(fields[4]), Number(fields[6])],
      limits,
    );
    const quota = quotaDecision(windows, Number(fields[2]), nowMs);
    if (kind === 'key') {
      const access = keyAccess(apiKey!, quota);
      if (!access.granted || !step) return { access };
      return { access, stepTaken: true, result: this.#result(step, fields.slice(STEP_AT), held) };
    }
    if (kind === 'revoked' || auth.ok)
      return { access: anonymousAccess(quota, 'invalid_api_key', REVOKED_KEY_MESSAGE) };
    return { access: anonymousAccess(quota, auth.code, auth.message) };
  }

  /** A record step alone, by the same script and its same code, without admission. */
  async takeStep(step: RecordStep): Promise<unknown> {
    const systemNow = this.systemNow();
    const held = this.#heldFor(step);
    const reply = await this.#redis.petstoreAdmit(
      this.#prefix,
      this.#request(systemNow, '', '', ANY_VERSION, step, held),
      this.#limitsOf(undefined),
      'step',
    );
    const fields = reply.split('\n');
    this.#takeOffset(systemNow, fields[1]);
    return this.#result(step, fields.slice(2), held);
  }

  /** The list this request may answer with, if Redis finds its version current (another request may replace the field meanwhile). */
  #heldFor(step: RecordStep | undefined): { version: string; list: readonly Category[] } | undefined {
    return step?.kind === 'listCategories' ? this.#categories : undefined;
  }

  /** ADMIT's request argument (see redis-scripts.ts). */
  #request(
    systemNow: number,
    key: string,
    clientAddress: string,
    version: string,
    step: RecordStep | undefined,
    held: { version: string } | undefined,
  ): string {
    const categoriesVersion = step?.kind === 'createCategory' ? randomUUID() : (held?.version ?? '');
    return `${systemNow}\n${key}\n${clientAddress}\n${version}\n${step?.kind ?? ''}\n${stepArgument(step)}\n${categoriesVersion}`;
  }

  /** Every instance takes the clock offset the script read: one clock for all of them. Returns now. */
  #takeOffset(systemNow: number, field: string | undefined): number {
    const offset = Number(field);
    this.#clock.setOffsetMs(offset);
    return systemNow + offset;
  }

  /** A step's result from the reply's fields after the quota (a category list may be the one held: '=' says so). */
  #result(step: RecordStep, values: string[], held: { list: readonly Category[] } | undefined): unknown {
    if (step.kind !== 'listCategories') return stepResult(step, values);
    return values[1] === '=' ? held!.list : this.#readCategories(values[0] ?? '', values.slice(2));
  }

  /** The categories read from Redis, frozen (shared by every answer until they change) and kept with their version. */
  #readCategories(version: string, values: string[]): readonly Category[] {
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
