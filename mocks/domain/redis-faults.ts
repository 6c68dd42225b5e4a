import type { Redis } from 'ioredis';
import { ConfigError, isConfigError } from './config-error.js';
import { StoreUnavailableError } from './fake-store.js';
import { drawAt, matchesSubject, outcomeOf, parseFaultRule, type ActiveFault, type FaultRule, type FaultStore, type FaultSubject, type FiredFault } from './faults.js';

interface StoredRule {
  rule: FaultRule & { id: string };
  /** The rule's seed, or the one drawn for it when it has none: every instance draws the same numbers. */
  seed: number;
}

/**
 * Fault rules in Redis, shared by every instance: the rules in order, how often each fired, how many
 * numbers each drew. A firing is one `HINCRBY`, so `times: N` fires N times across all instances, and a
 * seeded rule draws its nth number wherever the nth matching request lands.
 */
export class RedisFaultStore implements FaultStore {
  readonly #redis: Redis;
  readonly #key: (name: string) => string;
  readonly #initial: readonly FaultRule[];

  constructor(redis: Redis, prefix: string, initial: readonly FaultRule[]) {
    this.#redis = redis;
    this.#key = (name) => `${prefix}faults:${name}`;
    this.#initial = initial;
  }

  add(input: FaultRule, source = 'fake.faults.add'): Promise<ActiveFault> {
    return reachable(() => this.#add(input, source));
  }

  remove(id: string): Promise<boolean> {
    return reachable(() => this.#remove(id));
  }

  clear(): Promise<void> {
    return reachable(async () => void (await this.#redis.del(this.#key('rules'), this.#key('order'), this.#key('fired'), this.#key('draws'))));
  }

  /** The store was wiped (reset): this instance's start-up rules come back. */
  reset(): Promise<void> {
    return reachable(async () => {
      await this.clear();
      await this.#redis.del(this.#key('seq'));
      for (const [i, rule] of this.#initial.entries()) await this.#add(rule, `faults[${i}]`);
    });
  }

  list(): Promise<ActiveFault[]> {
    return reachable(async () => (await this.#held()).map(({ stored, fired }) => ({ ...stored.rule, fired })));
  }

  take(subject: FaultSubject, stage: 'beforeAuth' | 'afterAuth'): Promise<FiredFault | undefined> {
    return reachable(() => this.#take(subject, stage));
  }

  async #add(input: FaultRule, source: string): Promise<ActiveFault> {
    const next = await this.#redis.incr(this.#key('seq'));
    const rule = parseFaultRule(input, source, typeof input?.id === 'string' ? '' : `rule ${next}`);
    const id = rule.id ?? `fault-${next}`;
    const stored: StoredRule = { rule: { ...rule, id }, seed: rule.seed ?? Math.floor(Math.random() * 2 ** 32) };
    if ((await this.#redis.hsetnx(this.#key('rules'), id, JSON.stringify(stored))) === 0) throw new ConfigError(source, `rule "${id}".id`, 'another rule already has this id');
    await this.#redis.multi().rpush(this.#key('order'), id).hset(this.#key('fired'), id, 0).exec();
    return { ...structuredClone(stored.rule), fired: 0 };
  }

  async #remove(id: string): Promise<boolean> {
    const [[, removed] = []] = (await this.#redis.multi().hdel(this.#key('rules'), id).lrem(this.#key('order'), 0, id).hdel(this.#key('fired'), id).hdel(this.#key('draws'), id).exec()) ?? [];
    return removed === 1;
  }

  async #take(subject: FaultSubject, stage: 'beforeAuth' | 'afterAuth'): Promise<FiredFault | undefined> {
    for (const { stored } of await this.#held()) {
      const { rule } = stored;
      if (!matchesSubject(rule, subject, stage)) continue;
      const draw = async () => drawAt(stored.seed, (await this.#redis.hincrby(this.#key('draws'), rule.id, 1)) - 1);
      if (rule.probability !== undefined && (await draw()) >= rule.probability) continue;
      // Gone or used up by another request meanwhile: the next rule may still apply.
      if ((await this.#redis.petstoreFireFault(this.#key('rules'), this.#key('order'), this.#key('fired'), this.#key('draws'), rule.id, rule.times ?? '')) === -1) continue;
      const delayDraw = Array.isArray((rule.effect as { delayMs?: unknown }).delayMs) ? await draw() : 0;
      return { id: rule.id, outcome: outcomeOf(rule.id, rule.effect, () => delayDraw) };
    }
    return undefined;
  }

  async #held(): Promise<Array<{ stored: StoredRule; fired: number }>> {
    const [[, order], [, rules], [, fired]] = (await this.#redis.multi().lrange(this.#key('order'), 0, -1).hgetall(this.#key('rules')).hgetall(this.#key('fired')).exec()) as [
      [unknown, string[]],
      [unknown, Record<string, string>],
      [unknown, Record<string, string>],
    ];
    return order.filter((id) => rules[id] !== undefined).map((id) => ({ stored: JSON.parse(rules[id]!) as StoredRule, fired: Number(fired[id] ?? 0) }));
  }
}

/** Runs store work; Redis out of reach becomes {@link StoreUnavailableError} (503), a bad rule stays a ConfigError (400). */
export async function reachable<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw isConfigError(error) ? error : new StoreUnavailableError(`Redis: ${(error as Error).message}`);
  }
}
