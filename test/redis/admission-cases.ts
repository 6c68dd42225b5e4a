import { PLAN_LIMITS } from '../../mocks/domain/plans.js';

// One table of admission cases, for both implementations of the rules: `AccessControl` (TypeScript, the
// memory store) and the ADMIT script (Lua, atomic in Redis). Each case starts from a fresh store; each
// step sends one request (or `repeat` of them, the last one judged) at its time, or acts on a key.

/** A minute into its window (10:00:15 UTC): the minute ends in 45 s. */
export const T0_MS = Date.UTC(2026, 10, 22, 10, 0, 15);
const T0 = T0_MS / 1000;
const MINUTE_END = T0 + 45;
const DAY_END = Date.UTC(2026, 10, 23) / 1000;
const FREE = PLAN_LIMITS.free;

/** What admission answered: granted or the error code, and the rate-limit view (`Retry-After` when refused). */
export interface Outcome {
  outcome: string;
  limit: number;
  remaining: number;
  reset: number;
  retryAfter?: number;
}

export type AdmissionStep =
  | { atMs: number; authorization: string | null; address?: string; repeat?: number; expect: Outcome }
  | { atMs: number; act: 'revoke' | 'restore' | 'unban'; key: string }
  | { atMs: number; act: 'ban'; key: string; seconds: number };

export interface AdmissionCase {
  name: string;
  keys: Array<{ key: string; perMinute: number; perDay: number }>;
  ban: { threshold: number; seconds: number };
  steps: AdmissionStep[];
}

const at = (seconds: number) => T0_MS + seconds * 1000;
const KEY = 'Bearer k';

export const ADMISSION_CASES: AdmissionCase[] = [
  {
    name: "a key's minute: its limit admitted, then 429 until the next minute",
    keys: [{ key: 'k', perMinute: 2, perDay: 100 }],
    ban: { threshold: 10, seconds: 300 },
    steps: [
      { atMs: at(0), authorization: KEY, expect: { outcome: 'granted', limit: 2, remaining: 1, reset: MINUTE_END } },
      { atMs: at(1), authorization: KEY, expect: { outcome: 'granted', limit: 2, remaining: 0, reset: MINUTE_END } },
      {
        atMs: at(2),
        authorization: KEY,
        expect: { outcome: 'rate_limit_exceeded', limit: 2, remaining: 0, reset: MINUTE_END, retryAfter: 43 },
      },
      {
        atMs: at(45),
        authorization: KEY,
        expect: { outcome: 'granted', limit: 2, remaining: 1, reset: MINUTE_END + 60 },
      },
    ],
  },
  {
    name: 'the window with fewer left is described; a used-up day refuses until the day ends',
    keys: [{ key: 'k', perMinute: 2, perDay: 3 }],
    ban: { threshold: 10, seconds: 300 },
    steps: [
      { atMs: at(0), authorization: KEY, expect: { outcome: 'granted', limit: 2, remaining: 1, reset: MINUTE_END } },
      { atMs: at(1), authorization: KEY, expect: { outcome: 'granted', limit: 2, remaining: 0, reset: MINUTE_END } },
      { atMs: at(46), authorization: KEY, expect: { outcome: 'granted', limit: 3, remaining: 0, reset: DAY_END } },
      {
        atMs: at(47),
        authorization: KEY,
        expect: {
          outcome: 'rate_limit_exceeded',
          limit: 3,
          remaining: 0,
          reset: DAY_END,
          retryAfter: DAY_END - T0 - 47,
        },
      },
    ],
  },
  {
    name: 'on a tie, the day window',
    keys: [{ key: 'k', perMinute: 2, perDay: 2 }],
    ban: { threshold: 10, seconds: 300 },
    steps: [
      { atMs: at(0), authorization: KEY, expect: { outcome: 'granted', limit: 2, remaining: 1, reset: DAY_END } },
    ],
  },
  {
    name: 'more rejections than the threshold in a minute ban the key; the ban ends on the clock',
    keys: [{ key: 'k', perMinute: 1, perDay: 100 }],
    ban: { threshold: 2, seconds: 60 },
    steps: [
      { atMs: at(0), authorization: KEY, expect: { outcome: 'granted', limit: 1, remaining: 0, reset: MINUTE_END } },
      {
        atMs: at(0),
        authorization: KEY,
        repeat: 2,
        expect: { outcome: 'rate_limit_exceeded', limit: 1, remaining: 0, reset: MINUTE_END, retryAfter: 45 },
      },
      {
        atMs: at(0),
        authorization: KEY,
        expect: { outcome: 'temporarily_banned', limit: 1, remaining: 0, reset: T0 + 60, retryAfter: 60 },
      },
      {
        atMs: at(30),
        authorization: KEY,
        expect: { outcome: 'temporarily_banned', limit: 1, remaining: 0, reset: T0 + 60, retryAfter: 30 },
      },
      {
        atMs: at(60),
        authorization: KEY,
        expect: { outcome: 'granted', limit: 1, remaining: 0, reset: MINUTE_END + 60 },
      },
    ],
  },
  {
    name: "requests without a valid key count in their address's bucket, with the free plan's limits",
    keys: [{ key: 'k', perMinute: 5, perDay: 100 }],
    ban: { threshold: 10, seconds: 300 },
    steps: [
      {
        atMs: at(0),
        authorization: null,
        address: 'a',
        repeat: FREE.perMinute,
        expect: { outcome: 'missing_api_key', limit: FREE.perMinute, remaining: 0, reset: MINUTE_END },
      },
      {
        atMs: at(1),
        authorization: 'Bearer nobody',
        address: 'a',
        expect: {
          outcome: 'rate_limit_exceeded',
          limit: FREE.perMinute,
          remaining: 0,
          reset: MINUTE_END,
          retryAfter: 44,
        },
      },
      {
        atMs: at(1),
        authorization: 'Basic eDp5',
        address: 'b',
        expect: { outcome: 'invalid_api_key', limit: FREE.perMinute, remaining: FREE.perMinute - 1, reset: MINUTE_END },
      },
      {
        atMs: at(2),
        authorization: KEY,
        address: 'a',
        expect: { outcome: 'granted', limit: 5, remaining: 4, reset: MINUTE_END },
      },
    ],
  },
  {
    name: "a revoked key is refused from its sender's bucket; restored, it counts in its own windows again",
    keys: [{ key: 'k', perMinute: 5, perDay: 100 }],
    ban: { threshold: 10, seconds: 300 },
    steps: [
      { atMs: at(0), authorization: KEY, expect: { outcome: 'granted', limit: 5, remaining: 4, reset: MINUTE_END } },
      { atMs: at(0), act: 'revoke', key: 'k' },
      {
        atMs: at(1),
        authorization: KEY,
        expect: { outcome: 'invalid_api_key', limit: FREE.perMinute, remaining: FREE.perMinute - 1, reset: MINUTE_END },
      },
      { atMs: at(1), act: 'restore', key: 'k' },
      { atMs: at(2), authorization: KEY, expect: { outcome: 'granted', limit: 5, remaining: 3, reset: MINUTE_END } },
    ],
  },
  {
    name: 'a ban set by hand refuses at once, counts nothing, and lifts',
    keys: [{ key: 'k', perMinute: 5, perDay: 100 }],
    ban: { threshold: 10, seconds: 300 },
    steps: [
      { atMs: at(0), act: 'ban', key: 'k', seconds: 10 },
      {
        atMs: at(4),
        authorization: KEY,
        expect: { outcome: 'temporarily_banned', limit: 5, remaining: 0, reset: T0 + 10, retryAfter: 6 },
      },
      { atMs: at(5), act: 'unban', key: 'k' },
      { atMs: at(5), authorization: KEY, expect: { outcome: 'granted', limit: 5, remaining: 4, reset: MINUTE_END } },
    ],
  },
];
