import fc from 'fast-check';
import { exampleRequest, operationModels, pathOf } from '../generate/operation-model.js';
import type { ContractRequest } from '../core/exchange.js';
import { unknownChildOf } from '../core/spec-operations.js';
import { SLACK_SECONDS } from '../core/quota-windows.js';
import { CheckNotApplicable, type Check, type CheckContext } from './check.js';
import { expectErrorBody, expectStatus, expectThat, integerHeader } from './expectations.js';
import type { RateLimitHeaders } from '../core/rate-limit-headers.js';
import { rateLimitHeadersOf } from './rate-limit-checks.js';

// Exhausting a window that ends later than this would lock the key out for hours (the day window).
const LONGEST_WINDOW_SECONDS = 65;

/** What a client may send while it reads the headers: admitted reads, requests that fail (and still cost one), and requests without the key (which cost the key nothing). */
type Kind = 'read' | 'invalid' | 'unknown-path' | 'anonymous';

function requestOf(kind: Kind): ContractRequest {
  const reads = operationModels().filter(({ safe }) => safe);
  const withParameters = reads.find((model) => model.pathParameters.length > 0);
  const plain = exampleRequest(reads[0]!);
  switch (kind) {
    case 'read':
      return { ...plain, expectsRateLimit: true };
    case 'invalid':
      return withParameters
        ? {
            method: 'GET',
            path: pathOf(
              withParameters,
              Object.fromEntries(withParameters.pathParameters.map(({ name }) => [name, 'not-a-number'])),
            ),
            expectsRateLimit: true,
          }
        : { ...plain, path: unknownChildOf(plain.path), expectsRateLimit: true };
    case 'unknown-path':
      return { method: 'GET', path: '/no-such-resource', expectsRateLimit: true };
    case 'anonymous':
      // Paced: these count against this address's anonymous bucket (free limits), not the key's window,
      // and a client that reads their headers waits when that bucket is used up.
      return { ...plain, auth: 'none' };
  }
}

const KINDS = fc.oneof(
  { weight: 5, arbitrary: fc.constant<Kind>('read') },
  { weight: 2, arbitrary: fc.constant<Kind>('invalid') },
  { weight: 1, arbitrary: fc.constant<Kind>('unknown-path') },
  { weight: 2, arbitrary: fc.constant<Kind>('anonymous') },
);

/**
 * One whole window, as a client that trusts the headers lives it: every keyed answer while Remaining > 0
 * is admitted and lowers Remaining by exactly one (whatever its status); once Remaining is 0 the next is
 * a 429; after Retry-After the key is admitted again in a fresh window. Answers without the key cost it nothing.
 */
async function liveOneWindow(context: CheckContext, kinds: Kind[], window: number): Promise<void> {
  // Paced like any request: a window an earlier check used up is waited out before this one begins.
  const first = await context.send({ ...requestOf('read'), expectsRateLimit: false });
  expectStatus(first, [200], `window ${window}: the first request`);
  let announced: RateLimitHeaders = rateLimitHeadersOf(first, `window ${window}: the first request`);
  if (announced.reset - (await context.now()) > LONGEST_WINDOW_SECONDS) {
    throw new CheckNotApplicable(
      `the key's tightest window ends in ${announced.reset - Math.round(await context.now())} s (its daily quota is nearly used); exhausting it would lock the key out`,
    );
  }
  let rolled = 0;
  for (let step = 0; announced.remaining > 0; step += 1) {
    // A promise about a window must hold as time passes within it, not only within one second.
    if (step === kinds.length) await context.wait(1, `time passing within window ${window}`);
    // Requests without the key only in the first pass: the address's bucket must not outlast the key's window.
    const drawn = kinds[step % kinds.length]!;
    const kind = drawn === 'anonymous' && step >= kinds.length ? 'read' : drawn;
    const exchange = await context.send(requestOf(kind));
    const what = `window ${window}, request ${step + 2} (${kind}) after Remaining ${announced.remaining}`;
    expectThat(
      exchange.status !== 429,
      'A 429 though the last answer announced requests left',
      [`Received: 429 / Expected: admitted, as X-RateLimit-Remaining: ${announced.remaining} promised (${what})`],
      exchange,
    );
    if (kind === 'anonymous') {
      expectStatus(exchange, [401], what);
      continue;
    }
    const headers = rateLimitHeadersOf(exchange, what);
    if (headers.reset !== announced.reset) {
      // A new window may begin while a live target is driven; then Remaining must start over.
      if ((rolled += 1) > 2)
        throw new CheckNotApplicable(
          `the key's window ended ${rolled} times before it could be used up (is another client using the key?)`,
        );
      expectThat(
        headers.remaining === headers.limit - 1,
        'X-RateLimit-Reset moved but Remaining did not start over',
        [
          `Received: Reset ${announced.reset} -> ${headers.reset}, Remaining ${announced.remaining} -> ${headers.remaining} / Expected: Remaining ${headers.limit - 1} in a new window, or the same Reset (${what})`,
        ],
        exchange,
      );
    } else {
      expectThat(
        headers.limit === announced.limit,
        'X-RateLimit-Limit changed within a window',
        [`Received: ${headers.limit} / Expected: ${announced.limit} (${what})`],
        exchange,
      );
      expectThat(
        headers.remaining === announced.remaining - 1,
        'X-RateLimit-Remaining did not fall by exactly one for one admitted request',
        [
          `Received: ${headers.remaining} after ${announced.remaining}, for a ${exchange.status} / Expected: ${announced.remaining - 1} (every admitted request costs one, whatever its outcome; ${what})`,
        ],
        exchange,
      );
    }
    announced = headers;
  }
  // Quota comes before routing and validation: the request over the limit is a 429 even when it is invalid too.
  const rejected = await context.send(requestOf('invalid'));
  expectThat(
    rejected.status === 429,
    'Admitted beyond what the headers announced',
    [
      `Received: ${rejected.status} / Expected: 429, as the last answer said X-RateLimit-Remaining: 0 (window ${window})`,
    ],
    rejected,
  );
  expectErrorBody(rejected, 'rate_limit_exceeded', `window ${window}: the request past the limit`);
  const retryAfter = integerHeader(rejected, 'Retry-After', 'the 429');
  const untilReset = integerHeader(rejected, 'X-RateLimit-Reset', 'the 429') - (await context.now());
  expectThat(
    retryAfter >= 1 && retryAfter <= untilReset + SLACK_SECONDS,
    'Retry-After is not the time left in the window',
    [`Received: Retry-After ${retryAfter} / Expected: 1 to ${Math.ceil(untilReset)} s (until X-RateLimit-Reset)`],
    rejected,
  );
  await context.wait(retryAfter, `Retry-After of the 429 in window ${window}`);
  const again = await context.send(requestOf('read'));
  expectThat(
    again.status !== 429,
    'Still refused after waiting Retry-After',
    [`Received: 429 after waiting ${retryAfter} s / Expected: admitted (window ${window})`],
    again,
  );
  const fresh = rateLimitHeadersOf(again, 'after waiting Retry-After');
  expectThat(
    fresh.remaining === fresh.limit - 1 && fresh.reset > announced.reset,
    'The window after Retry-After is not a fresh one',
    [
      `Received: Remaining ${fresh.remaining}, Reset ${fresh.reset} / Expected: Remaining ${fresh.limit - 1}, Reset after ${announced.reset}`,
    ],
    again,
  );
}

/** What the rate-limit headers announce comes true over whole windows (real waits on a live target). */
export const rateLimitPromisesKept: Check = {
  name: 'rate_limit_promises_kept',
  drivesWindow: true,
  verifies:
    'over whole windows, a client that trusts X-RateLimit-* and Retry-After is never surprised: Remaining > 0 is admitted and costs one (errors too, 401s nothing), exactly Remaining more are admitted, then 429 (before routing and validation), and Retry-After later a fresh window',
  needs: ['quota'],
  async run(context) {
    // On the fake waiting is free, so several windows; on a live target, one (a real wait of at most a window).
    const windows = context.clock ? 3 : 1;
    const sequences = fc.sample(fc.array(KINDS, { minLength: 8, maxLength: 16 }), {
      seed: context.seed,
      numRuns: windows,
    });
    for (const [index, kinds] of sequences.entries()) await liveOneWindow(context, kinds, index + 1);
  },
};
