import type { Answer, ApiCall } from './api-call.js';

// Per-test overrides (docs/guides/overrides-and-journal.md): one answer the fake would never give, in
// every host, as a stage of the fake's own pipeline. An override runs after auth, quota and the fault
// rules by default, so its answer carries the rate-limit headers the request earned; `beforeAuth` puts
// it in front of the guards instead (its answer then carries none, and consumes nothing unless it asks
// the fake for its own answer with `next`).

/** A request as an override sees it: what the client sent. */
export interface OverrideRequest {
  /** Upper case, as sent. */
  method: string;
  /** The path below the base URL, as sent (percent-encoding kept): `/pets/1`. */
  path: string;
  /** The query string, parsed. */
  query: URLSearchParams;
  /** The query string as sent, without `?`. */
  queryString: string;
  /** A request header by case-insensitive name; null when absent. */
  header(name: string): string | null;
  /** The body's bytes; empty when there is none. */
  bytes(): Promise<Uint8Array>;
  /** The body as text (UTF-8, lenient). */
  text(): Promise<string>;
  /** The body parsed as JSON; undefined when there is none or it is not JSON. */
  json(): Promise<unknown>;
}

/** Changes to a request before the fake answers it (`next(changes)`): headers (`null` removes one), body, path. */
export interface RequestChanges {
  headers?: Readonly<Record<string, string | null>>;
  body?: string | Uint8Array;
  /** Another path below the base URL; the request is routed again. */
  path?: string;
}

/** What an override's resolver is given. */
export interface OverrideContext {
  request: OverrideRequest;
  /**
   * The headers the fake puts on an answer at this stage: the rate-limit headers the request earned (and
   * an operation's own, such as `Deprecation`); empty for a `beforeAuth` override.
   */
  headers: Readonly<Record<string, string>>;
  /**
   * The fake's own answer from this stage on, for this request or a changed one: auth, quota and the rest
   * for a `beforeAuth` override; the operation itself otherwise. Each call runs that part again.
   */
  next(changes?: RequestChanges): Promise<Answer>;
}

/** An override's resolver: the answer to send. */
export type OverrideResolver = (context: OverrideContext) => Answer | Promise<Answer>;

/**
 * One per-test override, as `fake.overrides.use(...)` and the `overrides` option take it. Build typed
 * ones with `override.get(path, resolver)` / `override.post(...)`, or `override.all(resolver)` for every
 * request under the base URL (unknown paths included).
 */
export interface Override {
  /** The operation it answers, by the spec's method and path template; absent: every request. */
  operation?: { method: string; path: string };
  /** Run in front of authentication and quota (the answer carries no rate-limit headers). Default false. */
  beforeAuth?: boolean;
  /** Expires after answering this many requests; default: until removed or reset. */
  times?: number;
  resolve: OverrideResolver;
}

/** An override added in code, and how to take it out again. */
export interface OverrideHandle {
  /** Takes the overrides out; false when they were gone already (expired, cleared or reset). */
  remove(): boolean;
}

/** `fake.overrides`: the per-test overrides of one fake, in memory in every host. */
export interface OverrideControls {
  /** Adds overrides, the newest first in line (as msw's `server.use`); the handle removes them. */
  use(...overrides: Override[]): OverrideHandle;
  /** Removes every override, those given at start too (until the next reset). */
  clear(): void;
  /** How many overrides are active. */
  readonly size: number;
}

interface Held {
  override: Override;
  left: number;
}

/** Where the pipeline looks for overrides; {@link OverrideRegistry.matching} is on the hot path. */
export class OverrideRegistry implements OverrideControls {
  readonly #initial: readonly Override[];
  readonly #knows: (operation: { method: string; path: string }) => boolean;
  #held: Held[] = [];

  /** `knows` says whether the spec has an operation; an override of any other is refused when added. */
  constructor(initial: readonly Override[], knows: (operation: { method: string; path: string }) => boolean) {
    this.#knows = knows;
    this.#initial = initial;
    this.reset();
  }

  use(...overrides: Override[]): OverrideHandle {
    for (const override of overrides) {
      const { operation } = override;
      if (operation && !this.#knows(operation))
        throw new Error(`[petstore-fake] override: the spec has no operation ${operation.method} ${operation.path}.`);
      if (override.times !== undefined && !(Number.isSafeInteger(override.times) && override.times > 0))
        throw new Error('[petstore-fake] override: times must be a positive integer.');
    }
    const added = overrides.map((override) => ({ override, left: override.times ?? Infinity }));
    this.#held = [...added.slice().reverse(), ...this.#held];
    return {
      remove: () => {
        const before = this.#held.length;
        this.#held = this.#held.filter((held) => !added.includes(held));
        return this.#held.length < before;
      },
    };
  }

  clear(): void {
    this.#held = [];
  }

  get size(): number {
    return this.#held.length;
  }

  /** Back to the overrides given at start. */
  reset(): void {
    this.clear();
    if (this.#initial.length > 0) this.use(...this.#initial);
  }

  /**
   * The overrides of a stage that apply to a request, in the order they wrap it (the first is outermost).
   * `target` names the spec operation the request was routed to (`specPath`), if any.
   */
  matching(method: string, target: { specPath?: string }, beforeAuth: boolean): Override[] {
    if (this.#held.length === 0) return NO_OVERRIDES;
    return this.#held
      .filter(({ override, left }) => {
        if (left <= 0 || (override.beforeAuth === true) !== beforeAuth) return false;
        const wanted = override.operation;
        return wanted === undefined || (wanted.method === method.toUpperCase() && wanted.path === target.specPath);
      })
      .map(({ override }) => override);
  }

  /** Counts one answer of an override; one whose `times` are used up goes. */
  spend(override: Override): void {
    const held = this.#held.find((candidate) => candidate.override === override);
    if (!held || held.left === Infinity) return;
    held.left -= 1;
    if (held.left <= 0) this.#held = this.#held.filter((candidate) => candidate !== held);
  }
}

const NO_OVERRIDES: Override[] = [];

/**
 * Runs a chain of overrides around `rest` (the fake's own answer from their stage on). The first
 * override is outermost; each one's `next` is the one after it, and the last one's is `rest`.
 */
export async function runOverrides(
  registry: OverrideRegistry,
  overrides: readonly Override[],
  call: ApiCall,
  headers: Readonly<Record<string, string>>,
  rest: (call: ApiCall) => Promise<Answer>,
): Promise<Answer> {
  const [first, ...others] = overrides;
  if (!first) return rest(call);
  registry.spend(first);
  return first.resolve({
    request: overrideRequestOf(call),
    headers,
    next: (changes) => runOverrides(registry, others, changes ? changedCall(call, changes) : call, headers, rest),
  });
}

function overrideRequestOf(call: ApiCall): OverrideRequest {
  const text = async () => new TextDecoder().decode(await call.body());
  return {
    method: call.method,
    path: call.path,
    query: new URLSearchParams(call.query),
    queryString: call.query,
    header: (name) => call.header(name),
    bytes: () => call.body(),
    text,
    json: async () => {
      try {
        return JSON.parse(await text()) as unknown;
      } catch {
        return undefined;
      }
    },
  };
}

/** A copy of a call with some of its parts changed. */
export function changedCall(call: ApiCall, changes: RequestChanges): ApiCall {
  const headers = changes.headers;
  const body = typeof changes.body === 'string' ? new TextEncoder().encode(changes.body) : changes.body;
  const lowered = headers && new Map(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  return {
    ...call,
    ...(changes.path !== undefined && { path: changes.path }),
    header: lowered
      ? (name) => {
          const wanted = name.toLowerCase();
          return lowered.has(wanted) ? lowered.get(wanted)! : call.header(name);
        }
      : call.header,
    ...(body !== undefined && { body: () => Promise.resolve(body) }),
  };
}
