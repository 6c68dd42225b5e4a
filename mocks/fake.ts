import { getResponse, type RequestHandler } from 'msw';
import { specValidators } from '../spec/spec-artifacts.js';
import { authenticate } from './domain/auth.js';
import { DEFAULT_BAN_POLICY, type BanPolicy } from './domain/ban.js';
import { AdjustableClock, systemClock, type Clock } from './domain/clock.js';
import { GET_PET_DEPRECATION } from './domain/deprecation.js';
import { parseFaultRules, parseLatency, type ActiveFault, type FaultRule, type RuleHandle } from './domain/faults.js';
import { KeyControls } from './domain/key-controls.js';
import { DEFAULT_KEYS, type ApiKey, type Plan } from './domain/plans.js';
import { DEFAULT_SEED, type SeedData } from './domain/seed.js';
import type { FakeStore, StoreParts } from './domain/fake-store.js';
import { MemoryStore } from './stores/memory-store.js';
import type { Answer, ApiCall } from './handlers/api-call.js';
import { setClientAddress, type FakeContext } from './handlers/context.js';
import { createHandlers, createOperations } from './handlers/index.js';
import { Journal, type RequestJournal } from './handlers/journal.js';
import { OperationRouter } from './handlers/operation.js';
import { OverrideRegistry, type Override, type OverrideControls } from './handlers/overrides.js';
import { createPipeline, type DefectListener } from './handlers/pipeline.js';

/** The address the standalone fake serves by default. */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:4010/v1';

/** How to build a fake; every option has the default of the design (docs/explanation/design.md section 3). Records are validated by the spec's schemas. */
export interface FakeOptions {
  /** Absolute URL the handlers answer under, ending in `/v1`. Default `http://127.0.0.1:4010/v1`. */
  baseUrl?: string;
  /** Accepted API keys. Default: one per plan, `free-test-key` ... `enterprise-test-key`. */
  keys?: readonly ApiKey[];
  /** Records at start and after every reset. Default: dog, cat, rabbit and a few pets and orders. */
  seed?: SeedData;
  /** More than `threshold` 429s in a minute window bans a key for `seconds`. Default 10 and 300. */
  ban?: Partial<BanPolicy>;
  /** When `GET /pets/{petId}` starts answering 410. Default 2027-07-01T00:00:00Z. */
  petsSunset?: Date;
  /** Where time comes from; the fake adds an offset that tests move. Default: the system clock. */
  clock?: Clock;
  /** Most anonymous client addresses tracked at once. Default 10,000. */
  anonymousCapacity?: number;
  /**
   * In a browser: keep the records across page reloads in localStorage (`@msw/data`'s `persist()`,
   * written when the page unloads). Quota counters, bans and the clock offset are not kept. No effect
   * in Node. Default false.
   */
  persist?: boolean;
  /**
   * Fault rules from the start (docs/explanation/design.md section 5); `reset()` brings them back. Default none.
   * @example [{ match: { path: '/categories' }, effect: { status: 503 }, times: 1 }]
   */
  faults?: readonly FaultRule[];
  /** A delay on every answer, in milliseconds: fixed, or a uniform range `[min, max]`. Default none. */
  latency?: number | readonly [number, number];
  /**
   * Where the state lives (docs/explanation/design.md section 6): a store built from the fake's parts. Default: in
   * memory. The standalone server passes a Redis store for `--store redis://...`.
   */
  store?: (parts: StoreParts) => FakeStore;
  /**
   * Per-test overrides from the start (docs/guides/overrides-and-journal.md); `reset()` brings them back.
   * Build them typed with `override.get(path, resolver)` / `override.post(...)`. Default none.
   * @example [override.get('/pets/{petId}', ({ response }) => response(200).json({ id: 1, name: 'Rex', status: 'sold' }))]
   */
  overrides?: readonly Override[];
  /** How many requests `fake.requests` keeps; the oldest go first. 0 keeps none. Default 500. */
  journalSize?: number;
  /** Told about a failure of the fake itself, an override's throw included (answered 500 `internal_error`). Default: `console.error`. */
  onDefect?: DefectListener;
}

export type { StoreParts } from './domain/fake-store.js';

/** `fake.faults`: promises, because on a shared store the rules are in Redis. */
export interface FaultControls {
  /** Adds a rule; a bad one rejects naming the rule and the field. The handle's `remove()` takes it out. */
  add(rule: FaultRule, source?: string): Promise<RuleHandle<Promise<boolean>>>;
  /** false when no rule has this id. */
  remove(id: string): Promise<boolean>;
  /** Removes every rule, the start-up ones too (until the next reset). */
  clear(): Promise<void>;
  /** The rules in the order they apply, each with `fired`: how often it fired. */
  list(): Promise<ActiveFault[]>;
}

/** A running fake: its msw handlers and the controls tests use. */
export interface Fake {
  /** The msw request handlers: give them to `setupServer`, `setupWorker`, or call {@link Fake.handle}. */
  readonly handlers: RequestHandler[];
  readonly baseUrl: string;
  /** The fake's clock: `advance(seconds)`, `setEpochSeconds(n)`; `reset()` clears the offset. */
  readonly clock: AdjustableClock;
  /** Answers one request through the msw handlers; undefined when it is not for this fake. */
  handle(request: Request, clientAddress?: string): Promise<Response | undefined>;
  /**
   * Answers one call under the base URL through the fake's pipeline (docs/explanation/design.md, "The
   * request pipeline"): what every host does with each request; the standalone server calls it directly.
   */
  answer(call: ApiCall): Promise<Answer>;
  /**
   * Per-test overrides: `use(override.get(path, resolver))` answers one operation as the test says, after
   * auth and quota (so with the fake's rate-limit headers); the handle's `remove()` takes it out; `reset()`
   * keeps only the ones given at start.
   */
  readonly overrides: OverrideControls;
  /** What was sent and answered, newest last: `last('createCategory')`, `count('createCategory')`, `all()`. Cleared by reset. */
  readonly requests: RequestJournal;
  /**
   * Fault rules: `add(rule)` returns a handle whose `remove()` takes it out; `list()` shows how often each
   * fired; `clear()` removes all. `reset()` keeps only the rules the fake started with.
   */
  readonly faults: FaultControls;
  /** Scenario state of a key: `setQuota`, `ban`, `unban`, `revoke`, `restore`, `state`, each a promise. `reset()` clears it. */
  readonly keys: KeyControls;
  /** Where the state lives; `store.close()` releases a shared store's connection. */
  readonly store: FakeStore;
  /** Settles when the state is usable: the seed loaded, or a shared store's state found. */
  ready(): Promise<void>;
  /**
   * Back to the start: records, quota counters, bans, revocations, the clock offset, the journal, and the
   * fault rules, overrides and latency given in the options. The one reset entry point.
   */
  reset(): Promise<void>;
  /** The plan of the key in an `Authorization` header, for logs that must not show the key. */
  planOf(authorization: string | null): Plan | undefined;
  /** How many quota subjects the in-memory store tracks (keys, anonymous addresses); a shared store reports 0 (Redis expires its own). */
  trackedSubjects(): { keys: number; anonymous: number };
}

/**
 * Builds the in-memory Pet Store fake: one set of msw handlers over the domain core.
 * @example const fake = createFake({ baseUrl: 'http://localhost:4010/v1' });
 */
export function createFake(options: FakeOptions = {}): Fake {
  const baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  const keys = options.keys ?? DEFAULT_KEYS;
  const seed = options.seed ?? DEFAULT_SEED;
  const schemas = specValidators();
  const clock = new AdjustableClock(options.clock ?? systemClock);
  const startFaults = parseFaultRules(options.faults ?? [], 'createFake({ faults })');
  const accessOptions = {
    keys,
    clock,
    ban: { ...DEFAULT_BAN_POLICY, ...options.ban },
    anonymousCapacity: options.anonymousCapacity ?? 10_000,
  };
  const store = options.store
    ? options.store({ schemas, access: accessOptions, seed, faults: startFaults })
    : new MemoryStore({ schemas, access: accessOptions, seed, faults: startFaults, persist: options.persist === true });
  const basePath = new URL(baseUrl, 'http://base.invalid').pathname.replace(/\/$/, '');
  const petsDeprecation = options.petsSunset
    ? { ...GET_PET_DEPRECATION, sunsetAtEpochSeconds: Math.floor(options.petsSunset.getTime() / 1000) }
    : GET_PET_DEPRECATION;
  const keysByToken = new Map(keys.map((apiKey) => [apiKey.key, apiKey]));
  const [minLatency, maxLatency] =
    options.latency === undefined ? [0, 0] : parseLatency(options.latency, 'createFake({ latency })');

  const operations = createOperations({ schemas, clock, petsDeprecation });
  const router = new OperationRouter({ basePath }, operations);
  const overrides = new OverrideRegistry(options.overrides ?? [], (operation) => router.has(operation));
  const journal = new Journal(
    options.journalSize,
    keys.map((apiKey) => apiKey.key),
  );
  const context: FakeContext = {
    baseUrl,
    basePath,
    store,
    schemas,
    clock,
    petsDeprecation,
    overrides,
    latencyMs: () => minLatency + Math.floor(Math.random() * (maxLatency - minLatency + 1)),
  };
  const answer = createPipeline(context, router, journal, options.onDefect);
  const handlers = createHandlers(context, answer);

  return {
    handlers,
    baseUrl,
    clock,
    faults: {
      async add(rule, source) {
        const { id } = await store.faults.add(rule, source);
        return { id, remove: () => store.faults.remove(id) };
      },
      remove: (id) => store.faults.remove(id),
      clear: () => store.faults.clear(),
      list: () => store.faults.list(),
    },
    keys: new KeyControls(store.access),
    store,
    ready: () => store.ready(),
    async handle(request, clientAddress) {
      if (clientAddress !== undefined) setClientAddress(request, clientAddress);
      return getResponse(handlers, request);
    },
    answer,
    overrides,
    requests: journal,
    async reset() {
      overrides.reset();
      journal.clear();
      await store.reset(seed);
    },
    planOf(authorization) {
      const auth = authenticate(authorization, keysByToken);
      return auth.ok ? auth.apiKey.plan : undefined;
    },
    trackedSubjects: () =>
      store instanceof MemoryStore ? store.access.control.trackedSubjects : { keys: 0, anonymous: 0 },
  };
}
