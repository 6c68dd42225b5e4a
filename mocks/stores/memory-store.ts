import { persist as persistExtension } from '@msw/data/extensions/persist';
import { AccessControl } from '../domain/access.js';
import type { AdjustableClock } from '../domain/clock.js';
import type {
  AccessStore,
  AdmissionRequest,
  Admitted,
  FakeStore,
  RecordStore,
  StoreParts,
} from '../domain/fake-store.js';
import { FaultRules, type FaultStore } from '../domain/faults.js';
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
  readonly records: RecordStore;
  readonly access: AccessStore & { readonly control: AccessControl };
  readonly faults: FaultStore;
  readonly #rules: FaultRules;
  readonly #data: RecordCollections;
  readonly #clock: AdjustableClock;
  #loading: Promise<void>;

  constructor(options: MemoryStoreOptions) {
    this.#data = new RecordCollections(options.schemas, options.persist ? [persistExtension()] : []);
    this.#clock = options.access.clock;
    const data = this.#data;
    this.records = {
      createCategory: (newCategory) => data.createCategory(newCategory),
      listCategories: async () => data.listCategories(),
      findPet: async (id) => data.findPet(id),
      listOrders: async () => data.listOrders(),
    };
    const control = new AccessControl(options.access);
    this.access = {
      control,
      check: async (authorization, clientAddress) => control.check(authorization, clientAddress),
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
      take: async (subject, stage) => rules.take(subject, stage),
      reset: async () => rules.reset(),
    };
    this.#loading = options.persist ? this.#data.restoreOrLoad(options.seed) : this.#data.load(options.seed);
  }

  admitAtOnce({ authorization, clientAddress, subject, step }: AdmissionRequest): Promise<Admitted | undefined> {
    if (this.#rules.appliesTo(subject)) return Promise.resolve(undefined);
    const access = this.access.control.check(authorization, clientAddress);
    if (!access.granted || !step) return Promise.resolve({ access });
    // Straight to the records, not through the async methods of `records`: a GET's step is answered
    // at once and a POST waits only for the collection's own create (one promise per request, not four).
    switch (step.kind) {
      case 'createCategory':
        return this.#data.createCategory(step.category).then((result) => ({ access, result }));
      case 'listCategories':
        return Promise.resolve({ access, result: this.#data.listCategories() });
      case 'findPet':
        return Promise.resolve({ access, result: this.#data.findPet(step.id) });
      case 'listOrders':
        return Promise.resolve({ access, result: this.#data.listOrders() });
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
