import type { PlanLimits } from '../core/plan-limits.js';
import { bucketDescribed, type DescribedBucket } from '../core/described-bucket.js';
import { bearerTokenOf, errorCodeOf, headerOf, type Exchange } from '../core/exchange.js';
import { integerHeaderOf } from '../core/header-value.js';
import { DAY, MINUTE, SLACK_SECONDS, endsWindowAround } from '../core/quota-windows.js';
import { rateLimitVerdict, type RateLimitHeaders } from '../core/rate-limit-headers.js';
import type { BrokenPromise, Observation } from './broken-promise.js';
import { PROMISE_NAMES, PROMISES, type ModelPromise } from './promise-rules.js';
import { RecentlySet } from './recently-set.js';
import { isRateLimited, judgeAgainst, onePlaceEach } from './window-places.js';
import {
  copySeen,
  countSeen,
  describesTheLower,
  otherWindowBound,
  seenIn,
  whatIsNotKnown,
  windowStartsOf,
  type SeenCounts,
  type WindowKind,
} from './window-counts.js';

// The most buckets (keys) and tokens remembered: a proxy in front of real traffic sees any number of
// keys; the least recently answered are forgotten first (their next answer is judged as a fresh window's).
const MAX_REMEMBERED = 10_000;

/** The promises the quota model judges: a 429 that breaks one of them announces no wait worth taking. */
export const QUOTA_PROMISES: ReadonlySet<string> = new Set(
  PROMISE_NAMES.filter((name) => (PROMISES[name] as ModelPromise).judgedByQuotaModel),
);

/** What one answer announced about its window: its `X-RateLimit-*` triple. */
type Announcement = RateLimitHeaders;

/**
 * What the answers so far imply about one window, whichever window they described: when it ends, and
 * the most requests it can have left (each admitted request costs one of each window; an answer that
 * describes the other window says this one has at least as many left).
 */
interface WindowBound {
  reset: number;
  atMost: number;
}

/** What the model believes of one bucket: the last announced state of its window, and each kind's limit. */
interface BucketState {
  window?: Announcement & { kind: WindowKind };
  /** Both windows at once: what every answer implied about each, so an answer can contradict either. */
  bounds?: Partial<Record<WindowKind, WindowBound>>;
  /**
   * The fewest requests each window can have left, whatever its Reset: a window's rollover only adds
   * to what it has, so a floor outlives it (unseen traffic does not: none with a shared key).
   */
  floors?: Partial<Record<WindowKind, number>>;
  /** A ban's end (epoch s): until then every answer is a 429 and nothing is judged against the window. */
  bannedUntil?: number;
  limits: Partial<Record<WindowKind, number>>;
  /** The admitted requests seen counted in each window: its limit less them is the most it has left. */
  seen?: SeenCounts;
}

function announcementOf(exchange: Exchange): Announcement | undefined {
  const verdict = rateLimitVerdict(exchange);
  return verdict.ok ? verdict.headers : undefined;
}

const isBanned = (exchange: Exchange) => exchange.status === 429 && errorCodeOf(exchange) === 'temporarily_banned';

/**
 * The window an answer's Reset describes, when it is a fixed UTC one no further away than it lasts from
 * the target's now by any of `nows` (its Date, this machine's clock: {@link QuotaModel}'s constructor).
 */
function windowKindOf(reset: number, nows: readonly number[]): WindowKind | undefined {
  if (nows.some((now) => endsWindowAround(reset, now, MINUTE))) return 'minute';
  if (nows.some((now) => endsWindowAround(reset, now, DAY))) return 'day';
  return undefined;
}

/**
 * The quota half of the model: per bucket, the window its answers announced. Judges a burst of answers
 * (one, for a client that waits for each answer) against what the bucket's last answer promised.
 */
export class QuotaModel {
  readonly #buckets = new RecentlySet<BucketState>(MAX_REMEMBERED);
  readonly #plan: PlanLimits | undefined;
  /** Tokens seen answered: a key the target knows (true) or one it refused with 401 (false). */
  readonly #known = new RecentlySet<boolean>(MAX_REMEMBERED);
  readonly #sharedKey: boolean;
  readonly #machineNow: () => number;
  /** What the model cannot judge and says so, once a run each: {@link QuotaModel.takeNotes}. */
  readonly #noted = new Set<string>();
  #notes: string[] = [];

  /**
   * `sharedKey`: others use the keys too, unseen (a proxy sees part of a key's traffic). Only what unseen
   * requests cannot explain is judged then: a Remaining that does not fall for an admitted request, two
   * answers in one place, more admitted than announced, an admission after a 429, a Limit that changes.
   * `machineNow`: this machine's clock, in epoch seconds, when an answer is judged. An observation's now
   * is the target's Date, which may lag its clock by far more than the slack (uvicorn before 0.19 keeps
   * the Date of the moment a keep-alive connection opened): a Reset that either clock puts at the end of
   * a fixed window is one. An answer judged long after it came (a replay) meets no window this way.
   */
  constructor(
    plan: PlanLimits | undefined,
    {
      sharedKey = false,
      machineNow = () => Date.now() / 1000,
    }: { sharedKey?: boolean; machineNow?: () => number } = {},
  ) {
    this.#plan = plan;
    this.#sharedKey = sharedKey;
    this.#machineNow = machineNow;
  }

  /**
   * What the model could not know since the last call, each said once a run: where which window is the
   * lower one depends on requests the suite did not see, or on a limit no answer has shown, the model
   * does not guess (issue 51's ruling: a check fails a service only where a sentence leaves no other choice).
   */
  takeNotes(): string[] {
    const notes = this.#notes;
    this.#notes = [];
    return notes;
  }

  #note(reason: string, text: string): void {
    if (this.#noted.has(reason)) return;
    this.#noted.add(reason);
    this.#notes.push(`lower_window_described: ${text}`);
  }

  /** The limit of one kind of window: the plan's when given, else what answers describing that window said. */
  #limitOf(state: BucketState, kind: WindowKind): { limit: number; source: string } | undefined {
    const planned = this.#plan && (kind === 'minute' ? this.#plan.perMinute : this.#plan.perDay);
    if (planned !== undefined) return { limit: planned, source: "the plan's" };
    const learned = state.limits[kind];
    return learned === undefined ? undefined : { limit: learned, source: `as answers describing the ${kind} said` };
  }

  /** The target forgot its counters (the fake's reset). */
  reset(): void {
    this.#buckets.clear();
  }

  /**
   * The target was told what a key has left in its windows now (the fake's scenario controls): what the
   * model believed of that key goes, and each window set is known exactly, as an answer describing it
   * would tell, so the first answers after it are held to both windows (a window set within the slack
   * of its end is left unknown: the target may already be in the next one).
   * @example quota.windowsSet('free-test-key', { dayRemaining: 61 }, now) // the day is at most 61, at least 61 (not shared)
   */
  windowsSet(token: string, remaining: { minuteRemaining?: number; dayRemaining?: number }, now: number): void {
    const state: BucketState = { limits: {}, bounds: {}, floors: {} };
    for (const [kind, left, length] of [
      ['minute', remaining.minuteRemaining, MINUTE],
      ['day', remaining.dayRemaining, DAY],
    ] as const) {
      const reset = (Math.floor(now / length) + 1) * length;
      if (left === undefined || now + SLACK_SECONDS >= reset) continue;
      state.bounds![kind] = { reset, atMost: left };
      if (!this.#sharedKey) state.floors![kind] = left;
    }
    this.#buckets.set(`key ${token}`, state);
  }

  /** A request went unanswered: it may have cost any key one request, so no floor holds any more. */
  forgetFloors(): void {
    for (const [, state] of this.#buckets) delete state.floors;
  }

  /** Which key's windows an answer describes ({@link bucketDescribed}), learning which tokens the target accepts. */
  #bucketOf(exchange: Exchange): DescribedBucket {
    const described = bucketDescribed(exchange, (token) => this.#known.get(token));
    const token = bearerTokenOf(exchange);
    if (token && exchange.status !== 429 && described.kind !== 'none') this.#known.set(token, exchange.status !== 401);
    return described;
  }

  /** Judges the answers of one burst (requests in flight together) and moves the buckets on. */
  judge(burst: readonly Observation[]): BrokenPromise[] {
    const broken: BrokenPromise[] = [];
    const byBucket = new Map<string, Observation[]>();
    for (const observation of burst) {
      const described = this.#bucketOf(observation.exchange);
      // An answer that cannot be placed may have cost a key one request, or none: every key's count is
      // unknown, so each starts over. A request without a valid key counts in no key's window, and the
      // spec promises nothing of a limit on such requests (`key_guessing_throttled` looks for one).
      if (described.kind === 'none') {
        this.#buckets.clear();
        continue;
      }
      if (described.kind === 'unauthenticated') continue;
      const bucket = `key ${described.token}`;
      const observations = byBucket.get(bucket);
      if (observations) observations.push(observation);
      else byBucket.set(bucket, [observation]);
    }
    for (const [bucket, observations] of byBucket) {
      const state = this.#buckets.get(bucket) ?? { limits: {} };
      broken.push(...this.#judgeBucket(state, observations));
      this.#buckets.set(bucket, state);
    }
    return broken;
  }

  #judgeBucket(state: BucketState, observations: Observation[]): BrokenPromise[] {
    const broken: BrokenPromise[] = [];
    const announced: Array<Observation & { announcement: Announcement; kind: WindowKind }> = [];
    for (const observation of observations) {
      const { exchange, now } = observation;
      const announcement = announcementOf(exchange);
      if (!announcement) {
        // It may have cost the key a request the floors never saw.
        delete state.floors;
        continue;
      }
      if (isBanned(exchange)) {
        state.bannedUntil = announcement.reset;
        delete state.window;
        continue;
      }
      if (state.bannedUntil !== undefined && now < state.bannedUntil) continue;
      delete state.bannedUntil;
      const shape = this.#shapeOf(state, observation, announcement);
      broken.push(...shape.broken);
      if (shape.kind) announced.push({ ...observation, announcement, kind: shape.kind });
    }
    // Both windows: judged in the order the answers came (a burst's order is the one place each has).
    // Its own window against what the other's answers implied, only where the checks above cannot: the
    // first answer of a kind after answers of the other kind.
    const ownJudged = new Set<WindowKind>(state.window ? [state.window.kind] : []);
    // What was seen counted before the burst: its own requests may have been counted in any order.
    const seenBefore = copySeen(state.seen);
    for (const answer of [...announced].sort((a, b) => a.announcement.remaining - b.announcement.remaining).reverse()) {
      broken.push(
        ...this.#judgeBothWindows(state, answer, !ownJudged.has(answer.kind), announced.length > 1, seenBefore),
      );
      ownJudged.add(answer.kind);
    }
    state.seen ??= {};
    for (const { exchange, announcement, kind } of announced)
      if (!isRateLimited(exchange)) countSeen(state.seen, kind, announcement.reset);
    const previous = state.window;
    const inPrevious: typeof announced = [];
    // A window the bucket had not announced before (a fresh one): its answers must still claim one place each.
    // By window: a day's Reset is also a whole minute, so the kind goes in the key's lowest bit.
    const fresh = new Map<number, typeof announced>();
    let latest: (typeof announced)[number] | undefined;
    for (const answer of announced) {
      const { announcement, kind, now } = answer;
      if (!latest || announcement.reset > latest.announcement.reset) latest = answer;
      if (
        previous &&
        kind === previous.kind &&
        announcement.reset === previous.reset &&
        now < previous.reset + SLACK_SECONDS
      ) {
        inPrevious.push(answer);
        continue;
      }
      const window = announcement.reset * 2 + (kind === 'day' ? 1 : 0);
      const answers = fresh.get(window);
      if (answers) answers.push(answer);
      else fresh.set(window, [answer]);
    }
    if (previous && inPrevious.length > 0) broken.push(...judgeAgainst(previous, inPrevious, this.#sharedKey));
    for (const answers of fresh.values()) broken.push(...onePlaceEach(answers));
    // The bucket's window now: the latest one announced, at its lowest count.
    if (latest) {
      let lowest = Infinity;
      for (const { announcement, kind, exchange } of announced) {
        if (kind === latest.kind && announcement.reset === latest.announcement.reset)
          lowest = Math.min(lowest, isRateLimited(exchange) ? 0 : announcement.remaining);
      }
      state.window = { ...latest.announcement, remaining: lowest, kind: latest.kind };
    }
    return broken;
  }

  /**
   * One answer against what earlier answers implied about both windows (design section 3: the headers
   * describe the window with fewer requests left, on a tie the longer one; every admitted request costs
   * one of each). Then what it implies is kept: its window's count exactly, the other's at least as many.
   */
  #judgeBothWindows(
    state: BucketState,
    { exchange, now, announcement, kind }: Observation & { announcement: Announcement; kind: WindowKind },
    judgeOwn: boolean,
    together: boolean,
    seenBefore: SeenCounts,
  ): BrokenPromise[] {
    const bounds = (state.bounds ??= {});
    for (const which of ['minute', 'day'] as const) {
      const bound = bounds[which];
      // Near its end a window may already have rolled over on the target (its now is known to a second): forgotten.
      if (bound && now + SLACK_SECONDS >= bound.reset) delete bounds[which];
    }
    const other: WindowKind = kind === 'minute' ? 'day' : 'minute';
    const admitted = !isRateLimited(exchange);
    const otherBound = bounds[other];
    const broken: BrokenPromise[] = [];
    const fail = (promise: BrokenPromise['promise'], title: string, line: string) =>
      broken.push({ promise, title, lines: [line], exchange });
    if (otherBound && admitted && otherBound.atMost <= 0)
      fail(
        'no_admission_past_the_limit',
        `Admitted while the ${other} window had nothing left`,
        `Received: ${exchange.status}, describing the ${kind} window (Remaining ${announcement.remaining}) / Expected: 429 until ${other} Reset ${otherBound.reset}, as an earlier answer left that window at 0`,
      );
    else {
      const known = this.#limitOf(state, other);
      // A minute lies in one UTC day, so a minute's Reset names its day; a day's Reset names no minute.
      const seen = seenIn(seenBefore, other, windowStartsOf(kind, announcement.reset)[other]);
      const bound = otherWindowBound({ earlier: otherBound, known, seen, admitted });
      if (bound && !describesTheLower(kind, announcement.remaining, bound.atMost))
        fail(
          'lower_window_described',
          `The headers describe the ${kind} window, but the ${other} window has fewer left`,
          `Received: ${kind} window, Limit ${announcement.limit}, Remaining ${announcement.remaining} / Expected: the ${other} window, which has at most ${bound.atMost} left after this request (${bound.why})${bound.atMost === announcement.remaining ? '; on a tie the day window is described' : ''}`,
        );
      else {
        const floor = this.#sharedKey ? undefined : state.floors?.[other];
        const unknown = whatIsNotKnown(kind, announcement.remaining, bound, floor, {
          admitted,
          sharedKey: this.#sharedKey,
        });
        if (unknown) this.#note(unknown.reason, unknown.text);
      }
    }
    broken.push(...this.#judgeFloors(state, exchange, announcement, kind, together));
    const own = bounds[kind];
    if (judgeOwn && own && own.reset === announcement.reset && admitted && announcement.remaining > own.atMost - 1)
      fail(
        'lower_window_described',
        `The ${kind} window has more left than earlier answers allow`,
        `Received: Remaining ${announcement.remaining} / Expected: at most ${own.atMost - 1} (earlier answers left it at most ${own.atMost}, and this request costs one)`,
      );
    bounds[kind] = { reset: announcement.reset, atMost: isRateLimited(exchange) ? 0 : announcement.remaining };
    if (otherBound && admitted) otherBound.atMost = Math.max(0, otherBound.atMost - 1);
    return broken;
  }

  /**
   * A 429 must describe a used-up window: one that earlier answers show still has requests left cannot
   * be it. An answer describing one window says the other has more left (on a tie the day is described):
   * the minute's answers put a floor under the day, and the day's under the minute. Each admitted request
   * lowers both floors by one. Judged before any wait, so a `Retry-After` into the day window while only
   * the minute can be used up is reported, not waited for. Answers of requests in flight `together`
   * have no order among them: they only lower the floors.
   */
  #judgeFloors(
    state: BucketState,
    exchange: Exchange,
    announcement: Announcement,
    kind: WindowKind,
    together: boolean,
  ): BrokenPromise[] {
    if (this.#sharedKey) return [];
    const floors = (state.floors ??= {});
    const other: WindowKind = kind === 'minute' ? 'day' : 'minute';
    const admitted = !isRateLimited(exchange);
    if (together) {
      for (const which of [kind, other]) floors[which] = Math.max(0, (floors[which] ?? 0) - (admitted ? 1 : 0));
      return [];
    }
    const broken: BrokenPromise[] = [];
    const floor = floors[kind] ?? 0;
    // A limit learned only now (a URL target's first answer describing this window) can show that the
    // answers describing the other window had it lower than this window can ever be: more left before
    // this request than its whole limit.
    const known = this.#limitOf(state, kind);
    if (known && floor > known.limit && state.window?.kind !== kind)
      broken.push({
        promise: 'lower_window_described',
        title: `Earlier answers described the ${other} window while the ${kind} window had fewer left`,
        lines: [
          `Received: ${exchange.status} describing the ${kind} window, Limit ${known.limit} (${known.source}) / Expected: answers before it to have described the ${kind} window: they described the ${other} window with ${floor} left, more than the ${kind} window's limit of ${known.limit}`,
        ],
        exchange,
      });
    // A 429 after answers of its own window is judged against what they announced (`#judgeAgainst`).
    else if (!admitted && floor > 0 && state.window?.kind !== kind)
      broken.push({
        promise: 'no_surprise_rate_limit',
        title: `A 429 for the ${kind} window, which earlier answers show has requests left`,
        lines: [
          `Received: 429 describing the ${kind} window (X-RateLimit-Reset ${announcement.reset}, Retry-After ${headerOf(exchange, 'retry-after') ?? '(none)'}) / Expected: the window that is used up: the ${kind} window has at least ${floor} left, as earlier answers described the ${other} window as the lower one`,
        ],
        exchange,
      });
    const spent = admitted ? 1 : 0;
    const otherFloor = Math.max(0, (floors[other] ?? 0) - spent);
    floors[other] = Math.max(otherFloor, kind === 'minute' ? announcement.remaining + 1 : announcement.remaining);
    floors[kind] = admitted ? announcement.remaining : 0;
    return broken;
  }

  /** What one answer must say of its own window, whatever came before. */
  #shapeOf(
    state: BucketState,
    { exchange, now }: Observation,
    { limit, remaining, reset }: Announcement,
  ): { kind?: WindowKind; broken: BrokenPromise[] } {
    const broken: BrokenPromise[] = [];
    const fail = (title: string, lines: string[]) =>
      broken.push({ promise: 'fixed_utc_windows', title, lines, exchange });
    const planned = (which: WindowKind) =>
      !this.#plan ? undefined : which === 'minute' ? this.#plan.perMinute : this.#plan.perDay;
    let kind = windowKindOf(reset, [now, this.#machineNow()]);
    // In the last minute of a UTC day both windows end together: the limit tells which one is described.
    if (kind === 'minute' && reset % DAY === 0 && limit !== (planned('minute') ?? state.limits.minute ?? limit))
      kind = 'day';
    if (!kind) {
      fail('X-RateLimit-Reset is not the end of a fixed UTC minute or day', [
        `Received: X-RateLimit-Reset ${reset} (${new Date(reset * 1000).toISOString()}), ${Math.round(reset - now)} s from now / Expected: a multiple of 60 at most 60 s away, or of 86400 at most a day away`,
      ]);
      return { broken };
    }
    const seen = state.limits[kind];
    const plannedLimit = planned(kind);
    if (plannedLimit !== undefined && limit !== plannedLimit)
      fail(`X-RateLimit-Limit is not the plan's ${kind} limit`, [`Received: ${limit} / Expected: ${plannedLimit}`]);
    else if (seen !== undefined && limit !== seen)
      fail(`X-RateLimit-Limit of the ${kind} window changed`, [
        `Received: ${limit} / Expected: ${seen}, as earlier answers said`,
      ]);
    state.limits[kind] = limit;
    if (remaining > limit)
      fail('X-RateLimit-Remaining is above X-RateLimit-Limit', [`Received: Remaining ${remaining}, Limit ${limit}`]);
    else if (remaining === limit && !isRateLimited(exchange))
      broken.push({
        promise: 'charged_once_per_admitted_request',
        title: `X-RateLimit-Remaining leaves an admitted ${exchange.status} uncounted in its window`,
        lines: [
          `Received: Remaining ${remaining}, Limit ${limit} / Expected: at most ${limit - 1}: the request counts one in the window it was admitted by, so no more than its limit less one is left after it`,
        ],
        exchange,
      });
    if (isRateLimited(exchange)) {
      if (remaining !== 0) fail('X-RateLimit-Remaining is not 0 on a 429', [`Received: ${remaining} / Expected: 0`]);
      const retryAfter = integerHeaderOf(exchange, 'Retry-After');
      if (retryAfter === undefined || retryAfter < 1 || retryAfter > reset - now + SLACK_SECONDS) {
        fail('Retry-After is not the time left in the window', [
          `Received: Retry-After ${headerOf(exchange, 'retry-after') ?? '(none)'} / Expected: whole seconds from 1 to ${Math.ceil(reset - now)} (until X-RateLimit-Reset)`,
        ]);
      }
    }
    return { kind, broken };
  }
}
