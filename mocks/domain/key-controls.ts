import { ConfigError } from './config-error.js';
import type { AccessStore } from './fake-store.js';
import type { ApiKey, Plan } from './plans.js';
import type { WindowState } from './quota.js';

// Scenario state of docs/explanation/design.md section 5: what a key has left, its ban, its revocation. Only the state
// is set here; what follows (headers, 429, the ban ending on the clock) is the fake's ordinary behaviour.

/** One window of a key as the controls show it. */
export interface KeyWindow {
  limit: number;
  remaining: number;
  resetEpochSeconds: number;
}

/** A key's scenario state: `fake.keys.state(key)`, `GET /__admin/keys/{key}`. */
export interface KeyState {
  key: string;
  plan: Plan;
  revoked: boolean;
  /** When the key's ban ends (ISO 8601), or null when it is not banned. */
  bannedUntil: string | null;
  minute: KeyWindow;
  day: KeyWindow;
}

/** What `setQuota` takes: what is left of the current minute and day windows. */
export interface RemainingQuota {
  minuteRemaining?: number;
  dayRemaining?: number;
}

/** A control named a key the fake does not have: 404 from the admin API. */
export class UnknownKeyError extends Error {
  override readonly name = 'UnknownKeyError';

  constructor(readonly key: string) {
    super(`No API key "${key}" is configured in this fake.`);
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `fake.keys`: set a key's remaining quota, ban, unban, revoke and restore it. Each resolves to the
 * key's state afterwards; an unknown key rejects with {@link UnknownKeyError}, a bad value with a
 * {@link ConfigError}. Promises, because on a shared store the state is in Redis.
 * @example await fake.keys.setQuota('free-test-key', { minuteRemaining: 2 }); // the next 2 pass, the third is a 429
 */
export class KeyControls {
  readonly #access: AccessStore;

  constructor(access: AccessStore) {
    this.#access = access;
  }

  /** The key's plan, windows, ban and revocation now; rejects with UnknownKeyError for a key the fake does not have. */
  async state(key: string): Promise<KeyState> {
    const apiKey = this.#known(key);
    const [until, windows, revoked] = await Promise.all([
      this.#access.bannedUntil(key),
      this.#access.windowsOf(apiKey),
      this.#access.isRevoked(key),
    ]);
    const [minute, day] = windows.map(view) as [KeyWindow, KeyWindow];
    return {
      key,
      plan: apiKey.plan,
      revoked,
      bannedUntil: until === undefined ? null : new Date(until).toISOString(),
      minute,
      day,
    };
  }

  /** Sets what is left in the current windows; a window not named keeps its count. */
  async setQuota(key: string, remaining: RemainingQuota, source = 'fake.keys.setQuota'): Promise<KeyState> {
    const apiKey = this.#known(key);
    if (!isObject(remaining) || Object.keys(remaining).length === 0)
      throw new ConfigError(source, '', 'send { "minuteRemaining"?: n, "dayRemaining"?: n } with at least one of them');
    const [minute, day] = (await this.#access.windowsOf(apiKey)) as [WindowState, WindowState];
    for (const field of Object.keys(remaining)) {
      const limit = { minuteRemaining: minute.limit, dayRemaining: day.limit }[field];
      if (limit === undefined)
        throw new ConfigError(source, field, 'is not a field; send minuteRemaining and/or dayRemaining');
      const value = (remaining as Record<string, unknown>)[field];
      if (!Number.isSafeInteger(value) || (value as number) < 0 || (value as number) > limit)
        throw new ConfigError(source, field, `must be an integer from 0 to ${limit} (the ${apiKey.plan} plan's limit)`);
    }
    const { minuteRemaining, dayRemaining } = remaining as RemainingQuota;
    await this.#access.setRemaining(apiKey, {
      ...(minuteRemaining !== undefined && { minute: minuteRemaining }),
      ...(dayRemaining !== undefined && { day: dayRemaining }),
    });
    return this.state(key);
  }

  /** Bans the key now for `seconds` (default: the fake's ban length); 429 `temporarily_banned` until it ends. */
  async ban(key: string, options: { seconds?: number } = {}, source = 'fake.keys.ban'): Promise<KeyState> {
    this.#known(key);
    if (!isObject(options)) throw new ConfigError(source, '', 'send { "seconds"?: n }');
    for (const field of Object.keys(options))
      if (field !== 'seconds') throw new ConfigError(source, field, 'is not a field; send { "seconds"?: n }');
    const { seconds } = options;
    if (seconds !== undefined && (!Number.isSafeInteger(seconds) || seconds < 1 || seconds > 31_536_000))
      throw new ConfigError(source, 'seconds', 'must be an integer from 1 to 31536000');
    await this.#access.ban(key, seconds);
    return this.state(key);
  }

  /** Lifts the key's ban and forgets its recent 429s. */
  async unban(key: string): Promise<KeyState> {
    this.#known(key);
    await this.#access.unban(key);
    return this.state(key);
  }

  /** The key answers 401 `invalid_api_key` until restored. */
  async revoke(key: string): Promise<KeyState> {
    this.#known(key);
    await this.#access.revoke(key);
    return this.state(key);
  }

  /** Undoes a revocation: the key is accepted again. */
  async restore(key: string): Promise<KeyState> {
    this.#known(key);
    await this.#access.restore(key);
    return this.state(key);
  }

  #known(key: string): ApiKey {
    const apiKey = this.#access.keyOf(key);
    if (!apiKey) throw new UnknownKeyError(key);
    return apiKey;
  }
}

function view({ limit, remaining, resetEpochSeconds }: WindowState): KeyWindow {
  return { limit, remaining, resetEpochSeconds };
}
