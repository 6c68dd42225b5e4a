import { persist as persistExtension } from '@msw/data/extensions/persist';
import { AccessControl } from '../domain/access.js';
import type { AdjustableClock } from '../domain/clock.js';
import type { AccessStore, Admission, AdmissionRequest, FakeStore, StoreParts } from '../domain/fake-store.js';
import { FaultRules, type FaultStore } from '../domain/faults.js';
import type { RecordStep, StepResult } from '../domain/record-step.js';
import type { SeedData } from '../domain/seed.js';
import { RecordCollections } from './record-collections.js';

/** Options of {@link MemoryStore}. */
export interface MemoryStoreOptions extends StoreParts {
  /** In a browser: keep the records in localStorage (`@msw/data`'s `persist()`); restores instead of seeding. */
  persist?: boolean;
}

/**
 * The default store: records in `@msw/data` collections, counters and bans in maps, all in this
 * process. Every call settles at once; the promises are the boundary's, shared with the Redis store.
 */
export class MemoryStore implements FakeStore {
  readonly access: AccessStore & { readonly control: AccessControl };
  readonly faults: FaultStore;
  readonly #rules: FaultRules;
  readonly #data: RecordCollections;
  readonly #clock: AdjustableClock;
  #loading: Promise<void>;

  constructor(options: MemoryStoreOptions) {
    this.#data = new RecordCollections(options.schemas, options.persist ? [persistExtension()] : []);
    this.#clock = options.access.clock;
    const control = new AccessControl(options.access);
    this.access = {
      control,
      keyOf: (key) => control.keyOf(key),
      windowsOf: async (apiKey) => control.windowsOf(apiKey),
      setRemaining: async (apiKey, remaining) => control.setRemaining(apiKey, remaining),
      bannedUntil: async (key) => control.bannedUntil(key),
      ban: async (key, seconds) => control.ban(key, seconds),
      unban: async (key) => control.unban(key),
      isRevoked: async (key) => control.isRevoked(key),
      revoke: async (key) => control.revoke(key),
      restore: async (key) => control.restore(key),
    };
    const rules = new FaultRules(options.faults, 'createFake({ faults })');
    this.#rules = rules;
    this.faults = {
      add: async (rule, source) => {
        const { id } = rules.add(rule, source);
        return rules.list().find((held) => held.id === id)!;
      },
      remove: async (id) => rules.remove(id),
      clear: async () => rules.clear(),
      list: async () => rules.list(),
      take: (subject, stage) => Promise.resolve(rules.take(subject, stage)),
      reset: async () => rules.reset(),
    };
    this.#loading = options.persist ? this.#data.restoreOrLoad(options.seed) : this.#data.load(options.seed);
  }

  admit({ authorization, clientAddress, subject, step, takeRule }: AdmissionRequest): Promise<Admission> {
    const access = this.access.control.check(authorization, clientAddress);
    if (!access.granted) return Promise.resolve({ access });
    const fault = takeRule ? this.#rules.take(subject, 'afterAuth') : undefined;
    if (fault || !step) return Promise.resolve({ access, fault });
    const result = this.#take(step);
    // A read settles here and now: one promise per request on the hot path, not one per stage.
    return result instanceof Promise
      ? result.then((created) => ({ access, stepTaken: true, result: created }))
      : Promise.resolve({ access, stepTaken: true, result });
  }

  takeStep<S extends RecordStep>(step: S): Promise<StepResult<S>> {
    return Promise.resolve(this.#take(step) as StepResult<S>);
  }

  /** The step against the collections: a read at once, a create through the collection's own (asynchronous) create. */
  #take(step: RecordStep): unknown {
    switch (step.kind) {
      case 'createCategory':
        return this.#data.createCategory(step.category);
      case 'listCategories':
        return this.#data.listCategories();
      case 'findPet':
        return this.#data.findPet(step.id);
      case 'listOrders':
        return this.#data.listOrders();
    }
  }

  async setClockOffset(offsetMs: number): Promise<void> {
    this.#clock.setOffsetMs(offsetMs);
  }

  async syncClock(): Promise<void> {}

  reset(seed: SeedData): Promise<void> {
    this.#clock.reset();
    this.access.control.reset();
    void this.faults.reset();
    this.#loading = this.#data.load(seed);
    return this.#loading;
  }

  ready(): Promise<void> {
    return this.#loading;
  }

  async close(): Promise<void> {}
}
