import { errorCodeOf, type Exchange } from '../core/exchange.js';
import type { RateLimitHeaders } from '../core/rate-limit-headers.js';
import type { BrokenPromise, Observation } from './broken-promise.js';

// The places answers claim in one window: one each, counting down from what the window announced, in
// an order some serial run explains (the quota model's judgement of a window's own answers).

type Announcement = RateLimitHeaders;

/** An answer with the `X-RateLimit-*` triple it announced. */
export type AnnouncedAnswer = Observation & { announcement: Announcement };

/** A 429 of a used-up window (not a ban): a refusal that counts in no window. */
export const isRateLimited = (exchange: Exchange) =>
  exchange.status === 429 && errorCodeOf(exchange) !== 'temporarily_banned';

/** The first value that came before in the list, if any. */
function firstRepeated(values: readonly number[]): number | undefined {
  const seen = new Set<number>();
  for (const value of values) {
    if (seen.has(value)) return value;
    seen.add(value);
  }
  return undefined;
}

/**
 * Whether no answer came back before another was sent while claiming a place that later request
 * undercuts (or being a 429 the later one got past): a sweep in sending order, linear after the sort,
 * where the search for the pair to report looks at every pair.
 */
function inRealTimeOrder(answers: readonly AnnouncedAnswer[]): boolean {
  const byAnswered = [...answers].sort((a, b) => a.answered - b.answered);
  const bySent = answers.filter(({ exchange }) => !isRateLimited(exchange)).sort((a, b) => a.sent - b.sent);
  let next = 0;
  let refusedBefore = false;
  let lowestBefore = Infinity;
  for (const later of bySent) {
    for (; next < byAnswered.length && byAnswered[next]!.answered < later.sent; next += 1) {
      const earlier = byAnswered[next]!;
      if (isRateLimited(earlier.exchange)) refusedBefore = true;
      else lowestBefore = Math.min(lowestBefore, earlier.announcement.remaining);
    }
    if (refusedBefore || later.announcement.remaining >= lowestBefore) return false;
  }
  return true;
}

/**
 * Answers in the window the bucket's last answer described, judged against what it announced. With a
 * `sharedKey` only what unseen requests cannot explain.
 */
export function judgeAgainst(previous: Announcement, answers: AnnouncedAnswer[], sharedKey: boolean): BrokenPromise[] {
  const broken: BrokenPromise[] = [];
  const involved = answers.map(({ exchange }) => exchange);
  const admitted = answers.filter(({ exchange }) => !isRateLimited(exchange));
  const rejected = answers.filter(({ exchange }) => isRateLimited(exchange));
  const places = admitted.map(({ announcement }) => announcement.remaining).sort((a, b) => b - a);
  // The places the admitted answers must claim: one each, counting down from what was announced.
  const expectedCount = Math.min(admitted.length, previous.remaining);
  const expectedPlace = (index: number) => previous.remaining - 1 - index;
  const expected = () => Array.from({ length: expectedCount }, (_, index) => expectedPlace(index));
  const concurrently = answers.length > 1 ? ` (${answers.length} requests at once, ${admitted.length} admitted)` : '';
  const twice = firstRepeated(places);
  if (admitted.length > previous.remaining) {
    broken.push({
      promise: 'no_admission_past_the_limit',
      title: 'Admitted beyond what the window announced',
      lines: [
        `Received: ${admitted.length} admitted (${admitted.map(({ exchange }) => exchange.status).join(', ')}) / Expected: at most ${previous.remaining}, as X-RateLimit-Remaining: ${previous.remaining} announced${concurrently}`,
      ],
      exchange: admitted[admitted.length - 1]!.exchange,
      involved,
    });
  } else if (twice !== undefined) {
    broken.push({
      promise: 'one_place_per_answer',
      title: 'Two answers claim the same place in the window',
      lines: [
        `Received: X-RateLimit-Remaining ${places.join(', ')} / Expected: ${expected().join(', ')}: one place each, after Remaining ${previous.remaining}${concurrently}`,
      ],
      exchange: admitted.find(({ announcement }) => announcement.remaining === twice)!.exchange,
      involved,
    });
  } else if (sharedKey) {
    // Unseen requests only ever lower Remaining: an admitted answer at or above the last one is unexplained.
    const risen = admitted.find(({ announcement }) => announcement.remaining >= previous.remaining);
    if (risen)
      broken.push({
        promise: 'charged_once_per_admitted_request',
        title: `X-RateLimit-Remaining did not fall for an admitted ${risen.exchange.status}`,
        lines: [
          `Received: X-RateLimit-Remaining ${risen.announcement.remaining} after ${previous.remaining} in the same window / Expected: below ${previous.remaining} (other clients of the key can only lower it)${concurrently}`,
        ],
        exchange: risen.exchange,
        involved,
      });
  } else if (places.length !== expectedCount || places.some((place, index) => place !== expectedPlace(index))) {
    const first =
      admitted.find(({ announcement }, index) => announcement.remaining !== expectedPlace(index)) ?? admitted[0]!;
    broken.push({
      promise: 'charged_once_per_admitted_request',
      title:
        answers.length > 1
          ? 'Concurrent admitted requests were not charged one each'
          : `X-RateLimit-Remaining did not fall by exactly one for an admitted ${first.exchange.status}`,
      lines: [
        `Received: X-RateLimit-Remaining ${places.join(', ')} after ${previous.remaining} / Expected: ${expected().join(', ')} (every admitted request costs one, whatever its outcome${concurrently})`,
      ],
      exchange: first.exchange,
      involved,
    });
  }
  // With a shared key, others may have used up what the window announced: a 429 is no surprise.
  if (rejected.length > 0 && admitted.length < previous.remaining && !sharedKey) {
    broken.push({
      promise: 'no_surprise_rate_limit',
      title: 'A 429 though the window announced requests left',
      lines: [
        `Received: 429 ${errorCodeOf(rejected[0]!.exchange) ?? ''} / Expected: admitted, as X-RateLimit-Remaining: ${previous.remaining} promised${admitted.length > 0 ? ` (${admitted.length} admitted with it)` : ''}${concurrently}`,
      ],
      exchange: rejected[0]!.exchange,
      involved,
    });
  }
  broken.push(...realTimeOrder(answers, involved));
  return broken;
}

/** Answers of one window with no announcement before them: distinct places, in an order some serial run explains. */
export function onePlaceEach(answers: AnnouncedAnswer[]): BrokenPromise[] {
  if (answers.length < 2) return [];
  const involved = answers.map(({ exchange }) => exchange);
  const admitted = answers.filter(({ exchange }) => !isRateLimited(exchange));
  const places = admitted.map(({ announcement }) => announcement.remaining);
  const twice = firstRepeated(places);
  if (twice !== undefined) {
    return [
      {
        promise: 'one_place_per_answer',
        title: 'Two answers claim the same place in the window',
        lines: [
          `Received: X-RateLimit-Remaining ${places.join(', ')} for ${admitted.length} requests admitted at once / Expected: one place each`,
        ],
        exchange: admitted.find(({ announcement }) => announcement.remaining === twice)!.exchange,
        involved,
      },
    ];
  }
  return realTimeOrder(answers, involved);
}

/** An answer that came back before another was sent must have claimed an earlier place (or the window ran out first). */
function realTimeOrder(answers: AnnouncedAnswer[], involved: Exchange[]): BrokenPromise[] {
  if (answers.length < 2 || inRealTimeOrder(answers)) return [];
  // Something is out of order: find the first pair, in the order the answers came, to report it.
  for (const earlier of answers) {
    for (const later of answers) {
      if (earlier.answered >= later.sent || isRateLimited(later.exchange)) continue;
      if (isRateLimited(earlier.exchange)) {
        return [
          {
            promise: 'no_admission_past_the_limit',
            title: 'Admitted after a 429 in the same window',
            lines: [
              `Received: ${later.exchange.status} sent after a 429 had come back / Expected: 429 until X-RateLimit-Reset ${later.announcement.reset}`,
            ],
            exchange: later.exchange,
            involved,
          },
        ];
      }
      if (later.announcement.remaining >= earlier.announcement.remaining) {
        return [
          {
            promise: 'one_place_per_answer',
            title: 'A later request claimed an earlier place in the window',
            lines: [
              `Received: Remaining ${later.announcement.remaining} for a request sent after an answer with Remaining ${earlier.announcement.remaining} / Expected: below ${earlier.announcement.remaining} (no serial order explains it)`,
            ],
            exchange: later.exchange,
            involved,
          },
        ];
      }
    }
  }
  return [];
}
