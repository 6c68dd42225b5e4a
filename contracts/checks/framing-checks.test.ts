import { describe, expect, it } from '@jest/globals';
import {
  rawFront,
  trailerMergingFront,
  type RawFrontMode,
  type RunningFront,
  type TrailerMerge,
} from '../broken-variants/framing-fronts.js';
import { brokenVariant } from '../broken-variants/index.js';
import type { CheckResult } from '../runner/check-result.js';
import { runChecks } from '../runner/run-checks.js';
import { suiteSettings } from '../runner/suite-settings.js';
import { startFakeTarget, type FakeTargetOptions } from '../targets/fake-target.js';
import type { TargetDescriptor } from '../targets/target.js';
import type { Check } from './check.js';
import { connectionRulesKept } from './connection-checks.js';
import { limitsHoldUnderEveryFraming } from './framing-checks.js';
import { outputOfBash } from '../../test/support/curl-in-bash.js';

const SEEDS = [11, 22, 33, 44, 55];

/**
 * The model's promises a merged trailer section breaks as well: it judges the header section alone, so it
 * sees a request without a key admitted and charged, or answered as another media type.
 */
const MERGED_TRAILER_SHOWS = [
  'refused_never_admitted',
  'charged_once_per_admitted_request',
  'earliest_refusal_answered',
];

/** The check alone, on a descriptor of its own (the runner keeps one session per descriptor object). */
async function resultOf(
  descriptor: TargetDescriptor,
  seed = SEEDS[0],
  check: Check = limitsHoldUnderEveryFraming,
): Promise<CheckResult> {
  const settings = suiteSettings({ live: false, seed });
  const [result] = await runChecks([check], { ...descriptor }, { settings });
  return result!;
}

/** The fake behind a front (`start` given the fake's origin); the suite talks to the front. */
async function behindFront<T>(
  start: (upstream: string) => Promise<RunningFront>,
  use: (descriptor: TargetDescriptor) => Promise<T>,
): Promise<T> {
  return onFake({}, async (descriptor) => {
    const front = await start(new URL(descriptor.baseUrl).origin);
    try {
      return await use({ ...descriptor, baseUrl: `${front.origin}/v1` });
    } finally {
      await front.close();
    }
  });
}

async function onFake<T>(options: FakeTargetOptions, use: (descriptor: TargetDescriptor) => Promise<T>): Promise<T> {
  const fake = await startFakeTarget(options);
  try {
    return await use(fake.descriptor);
  } finally {
    await fake.close();
  }
}

const findingIds = (result: CheckResult) => (result.findings ?? []).map(({ id }) => id);

describe('limits_hold_under_every_framing', () => {
  it('passes the fake, and sends fewer requests where the key limits the run (forms that combine go together)', async () => {
    const [roomy, budgeted] = await onFake({}, async (descriptor) => [
      await resultOf(descriptor),
      await resultOf({ ...descriptor, paced: true }),
    ]);
    expect([roomy.outcome, budgeted.outcome]).toEqual(['passed', 'passed']);
    expect(budgeted.requests).toBeLessThan(roomy.requests);
  }, 60_000);

  it.each([
    'body-limit-only-when-length-declared',
    'media-type-unchecked-for-chunked-bodies',
    'quota-skipped-for-chunked-bodies',
  ])(
    'fails the variant %s with limits_hold_under_every_framing under each of five seeds, in a budgeted run too',
    async (name) => {
      const [roomy, budgeted, ...seeded] = await onFake<[CheckResult, CheckResult, ...CheckResult[]]>(
        brokenVariant(name).fake,
        async (descriptor) => {
          const results: [CheckResult, CheckResult, ...CheckResult[]] = [
            await resultOf(descriptor),
            await resultOf({ ...descriptor, paced: true }),
          ];
          // One after another: the seeds share the fake (each run is a session of its own).
          for (const seed of SEEDS.slice(1)) results.push(await resultOf(descriptor, seed));
          return results;
        },
      );
      for (const [index, result] of [roomy, ...seeded].entries())
        expect([SEEDS[index], findingIds(result)]).toEqual([
          SEEDS[index],
          expect.arrayContaining(['limits_hold_under_every_framing']),
        ]);
      expect(findingIds(budgeted)).toContain('limits_hold_under_every_framing');
      // Chunks with a trailer section are held to chunks without it: what chunks break is not the trailer's.
      expect([...findingIds(roomy), ...findingIds(budgeted)]).not.toContain('trailers_change_no_header');
      // Halved down to the one form that breaks it: the title names chunks alone.
      const finding = budgeted.findings?.find(({ id }) => id === 'limits_hold_under_every_framing');
      expect(finding?.title).toMatch(/sent with the body in chunks \(Transfer-Encoding: chunked\), was/);
    },
    60_000,
  );

  it.each<TrailerMerge>(['every-field', 'missing-authorization'])(
    'fails a front that merges a trailer section into the header section (%s), under each of five seeds',
    async (merge) => {
      await behindFront(
        (upstream) => trailerMergingFront(upstream, merge),
        async (descriptor) => {
          for (const seed of SEEDS) {
            const result = await resultOf(descriptor, seed);
            // The model sees what follows from it too: a request without a key in its header section admitted and charged.
            expect([seed, findingIds(result).filter((id) => !MERGED_TRAILER_SHOWS.includes(id))]).toEqual([
              seed,
              ['trailers_change_no_header'],
            ]);
            const finding = result.findings?.find(({ id }) => id === 'trailers_change_no_header');
            expect(finding?.title).toMatch(/with the key \(or the other Content-Type\) in a trailer section/);
          }
          // Where the key limits the run, the forms go together and the group is halved down to the trailer.
          const budgeted = await resultOf({ ...descriptor, paced: true });
          expect(findingIds(budgeted).filter((id) => !MERGED_TRAILER_SHOWS.includes(id))).toEqual([
            'trailers_change_no_header',
          ]);
          // The printed bytes (curl sends no trailer section), the key read from the environment, get the same answer.
          const finding = (await resultOf(descriptor)).findings?.find(({ id }) => id === 'trailers_change_no_header');
          expect(finding?.curl).not.toContain('free-test-key');
          expect(await outputOfBash(finding!.curl!)).toMatch(new RegExp(`^HTTP/1\\.1 ${finding!.status} `));
        },
      );
    },
    120_000,
  );

  it('fails a front that takes the bytes after an HTTP/1.0 head as a body and skips the limit, under each of five seeds', async () => {
    await behindFront(
      (upstream) => rawFront(upstream, 'unframed-skips-limit'),
      async (descriptor) => {
        for (const seed of SEEDS) {
          const result = await resultOf(descriptor, seed);
          expect([seed, findingIds(result)]).toEqual([seed, ['limits_hold_under_every_framing']]);
          expect(result.failure?.title).toMatch(/over x-max-body-bytes .* HTTP\/1\.0 with the body unframed/);
        }
        // The printed bytes, the client's side ended after them, are admitted again (201).
        const { failure } = await resultOf(descriptor);
        expect(failure?.status).toBe(201);
        expect(await outputOfBash(failure!.curl!)).toMatch(/^HTTP\/1\.1 201 /);
      },
    );
  }, 120_000);

  it('fails a front that reads an HTTP/1.0 body without framing to the close, under each of five seeds', async () => {
    await behindFront(
      (upstream) => rawFront(upstream, 'body-to-close'),
      async (descriptor) => {
        for (const seed of SEEDS) {
          const result = await resultOf(descriptor, seed);
          expect([seed, findingIds(result)]).toEqual([seed, ['limits_hold_under_every_framing']]);
          // Held open without the close; answered as if it had a body with it.
          expect(result.failure?.title).toMatch(/HTTP\/1\.0 with the body unframed/);
        }
      },
    );
  }, 120_000);

  it.each<[RawFrontMode, string]>([
    ['refuses-http10', 'a bare 400 to every HTTP/1.0 request'],
    ['parser-refusals', 'a bare 505, 501, 411 or 400, or a closed connection, to each form it does not take'],
  ])(
    'passes a front whose HTTP layer refuses request forms on its own (%s: %s), with warnings only',
    async (mode) => {
      await behindFront(
        (upstream) => rawFront(upstream, mode),
        async (descriptor) => {
          for (const check of [limitsHoldUnderEveryFraming, connectionRulesKept])
            for (const paced of [false, true]) {
              const result = await resultOf({ ...descriptor, paced }, SEEDS[0], check);
              expect([check.name, paced, result.outcome, findingIds(result)]).toEqual([
                check.name,
                paced,
                'passed',
                [],
              ]);
            }
          const framing = await resultOf(descriptor);
          expect(framing.notes.join('\n')).toMatch(
            /limits_hold_under_every_framing: .* was refused by the HTTP parser/,
          );
        },
      );
    },
    120_000,
  );
});
