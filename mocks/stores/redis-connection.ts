import type { Result } from 'ioredis';
import type { StoreParts } from '../domain/fake-store.js';
import { ADMIT, FIRE_FAULT, SEED_IF_EMPTY } from './redis-scripts.js';
import { RedisStore } from './redis-store.js';

// Connecting to Redis: the client's settings, the start-up error naming the URL, the Lua scripts.

declare module 'ioredis' {
  interface RedisCommander<Context> {
    petstoreAdmit(prefix: string, request: string, limits: string, mode?: 'step'): Result<string, Context>;
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
  redis.defineCommand('petstoreAdmit', { numberOfKeys: 0, lua: ADMIT });
  redis.defineCommand('petstoreSeedIfEmpty', { numberOfKeys: 6, lua: SEED_IF_EMPTY });
  redis.defineCommand('petstoreFireFault', { numberOfKeys: 5, lua: FIRE_FAULT });
  return (parts) => new RedisStore(redis, options.prefix ?? 'petstore:', parts);
}
