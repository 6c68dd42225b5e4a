import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { ConfigError, isConfigError } from '../domain/config-error.js';
import { StoreUnavailableError } from '../domain/fake-store.js';
import {
  drawAt,
  matchesSubject,
  outcomeOf,
  parseFaultRule,
  type ActiveFault,
  type FaultRule,
  type FaultStore,
  type FaultSubject,
  type FiredFault,
} from '../domain/faults.js';

interface StoredRule {
  rule: FaultRule & { id: string };
  /** The rule's seed, or the one drawn for it when it has none: every instance draws the same numbers. */
  seed: number;
}

/** The rules as one instance last read them, and the version they had then. */
export interface RulesSnapshot {
  /** '' while no change has set one. */
  version: string;
  rules: readonly FaultRule[];
}

/**
 * Fault rules in Redis, shared by every instance: the rules in order, how often each fired, how many
 * numbers each drew. A firing is one `HINCRBY`, so `times: N` fires N times across all instances, and a
 * seeded rule draws its nth number wherever the nth matching request lands.
 *
 * Every change (add, remove, clear, a rule used up) sets a new random version. Each instance keeps the
 * rules it last read with their version; admission checks that version in Redis in the same step, so a
 * request never goes by rules another instance has changed (docs/explanation/design.md section 6).
 */
export class RedisFaultStore implements FaultStore {
  readonly #redis: Redis;
  readonly #key: (name: string) => string;
  readonly #initial: readonly FaultRule[];
  #snapshot: RulesSnapshot | undefined;

  constructor(redis: Redis, prefix: string, initial: readonly FaultRule[]) {
    this.#redis = redis;
    // Admission's script reads `faults:version` under the same prefix (redis-scripts.ts).
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
    return reachable(async () => {
      this.#snapshot = undefined;
      await this.#redis
        .multi()
        .del(this.#key('rules'), this.#key('order'), this.#key('fired'), this.#key('draws'))
        .set(this.#key('version'), randomUUID())
        .exec();
    });
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

  /**
   * The first rule of the stage that applies and fires. Before auth, the cached rules decide that none
   * applies (no round trip); the request's admission then checks, in Redis, that they are still current
   * ({@link seenBy}). After auth, the rules are read afresh.
   */
  take(subject: FaultSubject, stage: 'beforeAuth' | 'afterAuth'): Promise<FiredFault | undefined> {
    const cached = stage === 'beforeAuth' ? this.#snapshot : undefined;
    if (cached) {
      // The hot path: no rule of the cached ones applies, nothing to await.
      subject.rulesSeen = cached;
      if (!cached.rules.some((rule) => matchesSubject(rule, subject, stage))) return NONE_FIRED;
    }
    return reachable(async () => {
      if (stage === 'beforeAuth' && !cached) {
        const snapshot = await this.snapshot();
        subject.rulesSeen = snapshot;
        if (!snapshot.rules.some((rule) => matchesSubject(rule, subject, stage))) return undefined;
      }
      const fired = await this.#take(subject, stage);
      if (stage === 'beforeAuth' && this.#snapshot) subject.rulesSeen = this.#snapshot;
      return fired;
    });
  }

  /** The rules a request's `beforeAuth` stage was decided on: its admission must find them current. */
  seenBy(subject: FaultSubject): RulesSnapshot | undefined {
    return subject.rulesSeen as RulesSnapshot | undefined;
  }

  /** The rules as this instance last read them; read afresh when it has none (or {@link forget} dropped them). */
  async snapshot(): Promise<RulesSnapshot> {
    if (!this.#snapshot) await this.#held();
    return this.#snapshot!;
  }

  /** Drops the snapshot: admission found the version changed. */
  forget(): void {
    this.#snapshot = undefined;
  }

  async #add(input: FaultRule, source: string): Promise<ActiveFault> {
    const next = await this.#redis.incr(this.#key('seq'));
    const rule = parseFaultRule(input, source, typeof input?.id === 'string' ? '' : `rule ${next}`);
    const id = rule.id ?? `fault-${next}`;
    const stored: StoredRule = { rule: { ...rule, id }, seed: rule.seed ?? Math.floor(Math.random() * 2 ** 32) };
    if ((await this.#redis.hsetnx(this.#key('rules'), id, JSON.stringify(stored))) === 0)
      throw new ConfigError(source, `rule "${id}".id`, 'another rule already has this id');
    // The rule applies from here: in the order, and under a new version.
    this.#snapshot = undefined;
    await this.#redis
      .multi()
      .rpush(this.#key('order'), id)
      .hset(this.#key('fired'), id, 0)
      .set(this.#key('version'), randomUUID())
      .exec();
    return { ...structuredClone(stored.rule), fired: 0 };
  }

  async #remove(id: string): Promise<boolean> {
    this.#snapshot = undefined;
    const [[, removed] = []] =
      (await this.#redis
        .multi()
        .hdel(this.#key('rules'), id)
        .lrem(this.#key('order'), 0, id)
        .hdel(this.#key('fired'), id)
        .hdel(this.#key('draws'), id)
        .set(this.#key('version'), randomUUID())
        .exec()) ?? [];
    return removed === 1;
  }

  async #take(subject: FaultSubject, stage: 'beforeAuth' | 'afterAuth'): Promise<FiredFault | undefined> {
    for (const { stored } of await this.#held()) {
      const { rule } = stored;
      if (!matchesSubject(rule, subject, stage)) continue;
      const draw = async () => drawAt(stored.seed, (await this.#redis.hincrby(this.#key('draws'), rule.id, 1)) - 1);
      if (rule.probability !== undefined && (await draw()) >= rule.probability) continue;
      // Gone or used up by another request meanwhile: the next rule may still apply.
      const fired = await this.#redis.petstoreFireFault(
        this.#key('rules'),
        this.#key('order'),
        this.#key('fired'),
        this.#key('draws'),
        this.#key('version'),
        rule.id,
        rule.times ?? '',
        randomUUID(),
      );
      if (fired === -1) continue;
      if (rule.times !== undefined && fired >= rule.times) this.#snapshot = undefined;
      const delayDraw = Array.isArray((rule.effect as { delayMs?: unknown }).delayMs) ? await draw() : 0;
      return { id: rule.id, outcome: outcomeOf(rule.id, rule.effect, () => delayDraw) };
    }
    return undefined;
  }

  /** The rules in Redis now, in one atomic read that also refreshes this instance's snapshot. */
  async #held(): Promise<Array<{ stored: StoredRule; fired: number }>> {
    const read = this.#redis
      .multi()
      .lrange(this.#key('order'), 0, -1)
      .hgetall(this.#key('rules'))
      .hgetall(this.#key('fired'))
      .get(this.#key('version'));
    const [[, order], [, rules], [, fired], [, version]] = (await read.exec()) as [
      [unknown, string[]],
      [unknown, Record<string, string>],
      [unknown, Record<string, string>],
      [unknown, string | null],
    ];
    const held = order
      .filter((id) => rules[id] !== undefined)
      .map((id) => ({ stored: JSON.parse(rules[id]!) as StoredRule, fired: Number(fired[id] ?? 0) }));
    this.#snapshot = { version: version ?? '', rules: held.map(({ stored }) => stored.rule) };
    return held;
  }
}

const NONE_FIRED: Promise<FiredFault | undefined> = Promise.resolve(undefined);

/** Runs store work; Redis out of reach becomes {@link StoreUnavailableError} (503), a bad rule stays a ConfigError (400). */
export async function reachable<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw isConfigError(error) ? error : new StoreUnavailableError(`Redis: ${(error as Error).message}`);
  }
}
