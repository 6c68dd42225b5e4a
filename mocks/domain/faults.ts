import { ConfigError } from './config-error.js';
import { faultError, type ApiError } from './errors.js';

// Fault rules (docs/explanation/design.md section 5): the same JSON in every host. This module holds the model, its
// validation and the matching; the hosts decide how an effect is delivered (a delay, an Error answer,
// a dropped connection, a truncated body).

/** What a rule does to a matching request. */
export type FaultEffect =
  | { delayMs: number | readonly [number, number] }
  | { status: number; code?: string; message?: string; retryAfterSeconds?: number }
  | { network: 'error' }
  | { body: 'malformed' };

/** Which requests a rule applies to; every field given must match. */
export interface FaultMatch {
  /** Upper or lower case; any method when absent. */
  method?: string;
  /** `/categories`, `/pets/{petId}` (a `{name}` matches one segment) or `*`; below the base URL. */
  path?: string;
  /** Only requests sending this key (`Authorization: Bearer <key>`). */
  key?: string;
}

/** A fault rule as `fake.faults.add`, `--faults FILE` and `POST /__admin/faults` take it. */
export interface FaultRule {
  /** Shown in messages and used to remove the rule; assigned (`fault-1`, ...) when absent. */
  id?: string;
  match?: FaultMatch;
  effect: FaultEffect;
  /** The rule expires after firing this many times; default: always. */
  times?: number;
  /** Fires for this share of the matching requests (0..1), drawn from a generator seeded by `seed`. */
  probability?: number;
  seed?: number;
  /** Applies before authentication and quota, consuming nothing ("the gateway is down"). */
  beforeAuth?: boolean;
}

/** A rule as the fake holds it: validated, with its id and how often it fired. */
export interface ActiveFault extends FaultRule {
  id: string;
  fired: number;
}

const EFFECT_KINDS = ['delayMs', 'status', 'network', 'body'] as const;
const RULE_FIELDS = new Set(['id', 'match', 'effect', 'times', 'probability', 'seed', 'beforeAuth']);
const MATCH_FIELDS = new Set(['method', 'path', 'key']);
const PATH_PATTERN = /^(\*|(\/([A-Za-z0-9._~!$&'()*+,;=:@%-]+|\{[A-Za-z_][A-Za-z0-9_]*\}))+\/?)$/;
const METHOD = /^[A-Za-z]+$/;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isNonNegativeInteger = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

/**
 * Checks one rule and returns it typed; throws a {@link ConfigError} naming the rule (its id, or its
 * position) and the field at fault.
 * @example parseFaultRule({ match: { path: '/categories' }, effect: { status: 503 } }, 'faults.json', '[0]')
 */
export function parseFaultRule(input: unknown, source: string, entry: string): FaultRule {
  const fail = (field: string, problem: string): never => {
    const id = isObject(input) && typeof input.id === 'string' ? `rule "${input.id}"` : '';
    const name = entry && id ? `${entry} (${id})` : entry || id;
    throw new ConfigError(source, `${name}${field ? `.${field}` : ''}`, problem);
  };
  if (!isObject(input))
    return fail('', 'a fault rule must be an object { match?, effect, times?, probability?, seed?, beforeAuth? }');
  for (const field of Object.keys(input)) if (!RULE_FIELDS.has(field)) fail(field, 'is not a field of a fault rule');
  if (input.id !== undefined && (typeof input.id !== 'string' || !/^[A-Za-z0-9._-]{1,64}$/.test(input.id)))
    fail('id', 'must be 1 to 64 letters, digits, ".", "_" or "-"');
  const match = input.match ?? {};
  if (!isObject(match)) fail('match', 'must be an object { method?, path?, key? }');
  const typedMatch = match as Record<string, unknown>;
  for (const field of Object.keys(typedMatch))
    if (!MATCH_FIELDS.has(field)) fail(`match.${field}`, 'is not a field of match (method, path, key)');
  if (typedMatch.method !== undefined && (typeof typedMatch.method !== 'string' || !METHOD.test(typedMatch.method)))
    fail('match.method', 'must be an HTTP method such as "GET"');
  if (typedMatch.path !== undefined && (typeof typedMatch.path !== 'string' || !PATH_PATTERN.test(typedMatch.path))) {
    fail('match.path', 'must be "*" or a path below the base URL such as "/categories" or "/pets/{petId}"');
  }
  if (typedMatch.key !== undefined && (typeof typedMatch.key !== 'string' || typedMatch.key === ''))
    fail('match.key', 'must be a non-empty API key');
  const effect = parseEffect(input.effect, (field, problem) => fail(field ? `effect.${field}` : 'effect', problem));
  if (input.times !== undefined && (!isNonNegativeInteger(input.times) || input.times === 0))
    fail('times', 'must be a positive integer');
  if (
    input.probability !== undefined &&
    (typeof input.probability !== 'number' || !(input.probability >= 0 && input.probability <= 1))
  )
    fail('probability', 'must be a number from 0 to 1');
  if (input.seed !== undefined && !Number.isSafeInteger(input.seed)) fail('seed', 'must be an integer');
  if (input.beforeAuth !== undefined && typeof input.beforeAuth !== 'boolean')
    fail('beforeAuth', 'must be true or false');
  return {
    ...(input.id !== undefined && { id: input.id as string }),
    ...(Object.keys(typedMatch).length > 0 && { match: typedMatch as FaultMatch }),
    effect,
    ...(input.times !== undefined && { times: input.times as number }),
    ...(input.probability !== undefined && { probability: input.probability as number }),
    ...(input.seed !== undefined && { seed: input.seed as number }),
    ...(input.beforeAuth !== undefined && { beforeAuth: input.beforeAuth as boolean }),
  };
}

/**
 * Checks a list of rules (`--faults FILE`, the `faults` option); the first bad one throws naming its position.
 * @example parseFaultRules(JSON.parse(readFileSync('faults.json', 'utf8')), 'faults.json')
 */
export function parseFaultRules(input: unknown, source: string): FaultRule[] {
  if (!Array.isArray(input)) throw new ConfigError(source, '', 'must be a JSON array of fault rules');
  const rules = input.map((rule, i) => parseFaultRule(rule, source, `[${i}]`));
  const ids = rules.map((rule) => rule.id).filter((id) => id !== undefined);
  const repeated = ids.find((id, i) => ids.indexOf(id) !== i);
  if (repeated !== undefined)
    throw new ConfigError(
      source,
      `[${ids.lastIndexOf(repeated)}] (rule "${repeated}").id`,
      'another rule already has this id',
    );
  return rules;
}

/**
 * The `latency` option and `--latency`: a fixed delay or a uniform range in milliseconds, as [min, max].
 * @example parseLatency('200-1500', '--latency') // [200, 1500]
 */
export function parseLatency(input: unknown, source: string): [number, number] {
  const range =
    typeof input === 'string'
      ? input.split('-').map((part) => (/^\d+$/.test(part) ? Number(part) : Number.NaN))
      : typeof input === 'number'
        ? [input]
        : input;
  const [min, max = min] =
    Array.isArray(range) && (range.length === 1 || range.length === 2) ? (range as unknown[]) : [];
  if (!isNonNegativeInteger(min) || !isNonNegativeInteger(max) || min > max || max > MAX_DELAY_MS) {
    throw new ConfigError(source, '', `must be milliseconds, MS or MIN-MAX (e.g. 200-1500), from 0 to ${MAX_DELAY_MS}`);
  }
  return [min, max];
}

function parseEffect(input: unknown, fail: (field: string, problem: string) => never): FaultEffect {
  const kinds = isObject(input) ? EFFECT_KINDS.filter((kind) => kind in input) : [];
  if (!isObject(input) || kinds.length !== 1) {
    return fail(
      '',
      'must be exactly one of { delayMs }, { status, code?, message?, retryAfterSeconds? }, { network: "error" }, { body: "malformed" }',
    );
  }
  const allowed: Record<(typeof EFFECT_KINDS)[number], string[]> = {
    delayMs: ['delayMs'],
    status: ['status', 'code', 'message', 'retryAfterSeconds'],
    network: ['network'],
    body: ['body'],
  };
  for (const field of Object.keys(input))
    if (!allowed[kinds[0]!].includes(field)) fail(field, `is not a field of a ${kinds[0]} effect`);
  switch (kinds[0]!) {
    case 'delayMs': {
      const { delayMs } = input;
      if (isNonNegativeInteger(delayMs) && delayMs <= MAX_DELAY_MS) return { delayMs };
      if (
        Array.isArray(delayMs) &&
        delayMs.length === 2 &&
        delayMs.every((ms) => isNonNegativeInteger(ms) && ms <= MAX_DELAY_MS) &&
        delayMs[0] <= delayMs[1]
      ) {
        return { delayMs: [delayMs[0], delayMs[1]] as const };
      }
      return fail('delayMs', `must be milliseconds (0 to ${MAX_DELAY_MS}) or a range [min, max] with min <= max`);
    }
    case 'status': {
      const { status, code, message, retryAfterSeconds } = input;
      if (!Number.isInteger(status) || (status as number) < 400 || (status as number) > 599)
        fail('status', 'must be an HTTP error status from 400 to 599');
      if (code !== undefined && (typeof code !== 'string' || !/^[a-z][a-z0-9_]{0,63}$/.test(code)))
        fail('code', 'must be a snake_case error code');
      if (message !== undefined && (typeof message !== 'string' || message === ''))
        fail('message', 'must be a non-empty string');
      if (retryAfterSeconds !== undefined && !isNonNegativeInteger(retryAfterSeconds))
        fail('retryAfterSeconds', 'must be a whole number of seconds');
      return {
        status: status as number,
        ...(code !== undefined && { code: code as string }),
        ...(message !== undefined && { message: message as string }),
        ...(retryAfterSeconds !== undefined && { retryAfterSeconds: retryAfterSeconds as number }),
      };
    }
    case 'network':
      return input.network === 'error' ? { network: 'error' } : fail('network', 'must be "error"');
    case 'body':
      return input.body === 'malformed' ? { body: 'malformed' } : fail('body', 'must be "malformed"');
  }
}

/** A delay longer than this is a mistake, not a slow network: it would outlast any test's timeout. */
export const MAX_DELAY_MS = 120_000;

/**
 * The `n`th number (from 0) a rule seeded with `seed` draws, in [0, 1): mulberry32, whose state after
 * n steps is seed + (n + 1) * its constant. A pure function of (seed, n), so a shared store needs only
 * a counter to draw, on any instance, what one process would have drawn: a flaky run replays anywhere.
 */
export function drawAt(seed: number, n: number): number {
  let t = ((seed >>> 0) + Math.imul(n + 1, 0x6d2b79f5)) >>> 0;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
}

function seededRandom(seed: number): () => number {
  let drawn = 0;
  return () => drawAt(seed, drawn++);
}

const pathMatchers = new Map<string, (path: string) => boolean>();

/** Whether a rule applies to a request at its own stage. */
export function ruleApplies(rule: FaultRule, subject: FaultSubject): boolean {
  return matchesSubject(rule, subject, rule.beforeAuth === true ? 'beforeAuth' : 'afterAuth');
}

/** Whether a rule of this stage applies to a request: method, key and path pattern. */
export function matchesSubject(rule: FaultRule, subject: FaultSubject, stage: 'beforeAuth' | 'afterAuth'): boolean {
  if ((rule.beforeAuth === true) !== (stage === 'beforeAuth')) return false;
  if (rule.match?.method && rule.match.method.toUpperCase() !== subject.method.toUpperCase()) return false;
  if (rule.match?.key !== undefined && rule.match.key !== subject.key) return false;
  const pattern = rule.match?.path ?? '*';
  let matches = pathMatchers.get(pattern);
  if (!matches) {
    matches = pathMatcher(pattern);
    if (pathMatchers.size < 1_000) pathMatchers.set(pattern, matches);
  }
  return matches(subject.path);
}

function pathMatcher(pattern: string): (path: string) => boolean {
  if (pattern === '*') return () => true;
  const source = pattern
    .replace(/\/$/, '')
    .split('/')
    .map((segment) => (/^\{.+\}$/.test(segment) ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  // As exact as routing: a rule for /categories does not fire on /Categories or /categories/ (unknown paths).
  const regexp = new RegExp(`^${source}$`);
  return (path) => regexp.test(path);
}

interface HeldRule {
  rule: ActiveFault;
  /** Draws the probability and a delay range; seeded by the rule's `seed` when it has one. */
  random: () => number;
}

/** What a request looks like to the rules. */
export interface FaultSubject {
  method: string;
  path: string;
  /** The key the request sent, when it sent one in the Bearer scheme. */
  key?: string;
  /** The rules its `beforeAuth` stage decided on, as a shared store caches them: its admission checks they are current. */
  rulesSeen?: object | undefined;
}

/** What a fired rule does to one request, a delay range already drawn. */
export type FaultOutcome =
  { delayMs: number } | { error: ApiError; retryAfterSeconds?: number } | { network: 'error' } | { body: 'malformed' };

/** A rule that fired for a request: its id, for messages and logs, and what it does. */
export interface FiredFault {
  id: string;
  outcome: FaultOutcome;
}

/**
 * The outcome of an effect for one request; `random` draws a delay range.
 * @example outcomeOf('down', { status: 503 }, Math.random) // { error: { code: 'service_unavailable', ... }, retryAfterSeconds: 1 }
 */
export function outcomeOf(id: string, effect: FaultEffect, random: () => number): FaultOutcome {
  if ('delayMs' in effect) {
    const { delayMs } = effect;
    return {
      delayMs:
        typeof delayMs === 'number' ? delayMs : delayMs[0] + Math.floor(random() * (delayMs[1] - delayMs[0] + 1)),
    };
  }
  if ('status' in effect) {
    const { status } = effect;
    const error = faultError(id, status, effect.code, effect.message);
    // A 503 tells the client when to retry, as a gateway that is down would.
    const retryAfterSeconds = effect.retryAfterSeconds ?? (status === 503 ? 1 : undefined);
    return retryAfterSeconds === undefined ? { error } : { error, retryAfterSeconds };
  }
  return 'network' in effect ? { network: 'error' } : { body: 'malformed' };
}

/** A rule added in code, and how to take it out again (`R`: the answer of `remove`, a promise where the store is shared). */
export interface RuleHandle<R> {
  /** The rule's id, given or assigned. */
  id: string;
  /** Removes the rule; false when it was gone already (expired, or removed elsewhere). */
  remove(): R;
}

/**
 * Where a fake's fault rules live (docs/explanation/design.md section 6): {@link FaultRules} in memory, or Redis for
 * instances that share one state. `fake.faults` is this.
 */
export interface FaultStore {
  /** Adds a rule (a bad one rejects with a {@link ConfigError} naming the field); resolves to it as held. */
  add(rule: FaultRule, source?: string): Promise<ActiveFault>;
  /** false when no rule has this id. */
  remove(id: string): Promise<boolean>;
  /** Removes every rule, the start-up ones too (until the next reset). */
  clear(): Promise<void>;
  /** The rules in the order they apply, each with how often it fired. */
  list(): Promise<ActiveFault[]>;
  /** The first rule of this stage that matches and fires, counting the firing. */
  take(subject: FaultSubject, stage: 'beforeAuth' | 'afterAuth'): Promise<FiredFault | undefined>;
  /** Back to the start-up rules, none fired, each seed at its start. */
  reset(): Promise<void>;
}

/**
 * The active rules in memory, in the order added (the default {@link FaultStore}). Rules given at start come back on
 * {@link FaultRules.reset}; everything added later goes.
 * @example const rule = fake.faults.add({ match: { path: '/categories' }, effect: { status: 503 } }); rule.remove();
 */
export class FaultRules {
  readonly #initial: readonly FaultRule[];
  #held: HeldRule[] = [];
  #nextId = 1;

  /** Validates the rules given at start; a bad one throws a {@link ConfigError} naming `source` and the rule. */
  constructor(initial: readonly FaultRule[] = [], source = 'faults') {
    this.#initial = parseFaultRules(initial, source);
    this.reset(source);
  }

  /** Adds a rule (validated: a bad one throws naming the field) and returns a handle that removes it. */
  add(input: FaultRule, source = 'fake.faults.add'): RuleHandle<boolean> {
    const rule = parseFaultRule(input, source, typeof input?.id === 'string' ? '' : `rule ${this.#nextId}`);
    const id = rule.id ?? `fault-${this.#nextId}`;
    if (this.#held.some((held) => held.rule.id === id))
      throw new ConfigError(source, `rule "${id}".id`, 'another rule already has this id');
    this.#nextId += 1;
    this.#held.push({
      rule: { ...rule, id, fired: 0 },
      random: seededRandom(rule.seed ?? Math.floor(Math.random() * 2 ** 32)),
    });
    return { id, remove: () => this.remove(id) };
  }

  /** Removes one rule; false when no rule has this id. */
  remove(id: string): boolean {
    const before = this.#held.length;
    this.#held = this.#held.filter((held) => held.rule.id !== id);
    return this.#held.length < before;
  }

  /** Removes every rule, those given at start too (until the next reset). */
  clear(): void {
    this.#held = [];
    this.#nextId = 1;
  }

  /** Back to the rules given at start, none fired yet, their generators at the start of their seed. */
  reset(source = 'faults'): void {
    this.clear();
    for (const rule of this.#initial) this.add(rule, source);
  }

  /** Whether any rule applies to a request, at either stage. */
  appliesTo(subject: FaultSubject): boolean {
    return this.#held.some(({ rule }) => ruleApplies(rule, subject));
  }

  /** The rules with how often each fired, in the order they apply. */
  list(): ActiveFault[] {
    return this.#held.map(({ rule }) => structuredClone(rule));
  }

  /**
   * The first rule of this stage that matches and fires, counting the firing; a rule whose `times`
   * are used up goes.
   */
  take(subject: FaultSubject, stage: 'beforeAuth' | 'afterAuth'): FiredFault | undefined {
    for (const held of this.#held) {
      const { rule } = held;
      if (!matchesSubject(rule, subject, stage)) continue;
      if (rule.probability !== undefined && held.random() >= rule.probability) continue;
      rule.fired += 1;
      if (rule.times !== undefined && rule.fired >= rule.times) this.remove(rule.id);
      return { id: rule.id, outcome: outcomeOf(rule.id, rule.effect, held.random) };
    }
    return undefined;
  }
}
