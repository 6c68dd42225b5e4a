import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { CheckFailure, type CheckContext } from './check.js';
import { checkProperty, NoveltyStop, SHRINK_REQUESTS } from './property.js';
import type { BrokenPromise } from '../model/broken-promise.js';
import type { Exchange } from '../core/exchange.js';

function context(seed: number, patience?: number, evidence = () => 0, broken: BrokenPromise[] = []): CheckContext {
  const tried = new Set<string>();
  const triedKind = (kind: string, record: boolean) => {
    const before = tried.has(kind);
    if (record) tried.add(kind);
    return before;
  };
  return {
    seed,
    runs: 30,
    note: () => undefined,
    patience: () => patience,
    evidence,
    triedKind,
    report: (found: BrokenPromise) => void broken.push(found),
    takeBrokenPromises: () => broken.splice(0),
  } as unknown as CheckContext;
}

describe('checkProperty', () => {
  it('draws the same cases from the same seed, and other cases from another', async () => {
    const drawn = async (seed: number) => {
      const seen: string[] = [];
      await checkProperty(context(seed), 'strings', fc.string(), async (value) => void seen.push(value));
      return seen;
    };
    expect(await drawn(11)).toEqual(await drawn(11));
    expect(await drawn(11)).not.toEqual(await drawn(12));
  });

  it('tries the examples first, whatever the seed', async () => {
    const seen: number[] = [];
    await checkProperty(context(1), 'integers', fc.integer(), async (value) => void seen.push(value), {
      examples: [-7, 1e6],
    });
    expect(seen.slice(0, 2)).toEqual([-7, 1e6]);
  });

  it("shrinks a failure to the smallest case, says it first, keeps the check's own lines and says how to replay it", async () => {
    const failing = checkProperty(context(4), 'lists', fc.array(fc.integer({ min: 0, max: 100 })), async (list) => {
      if (list.length >= 3) throw new CheckFailure('Too long', [`Received: ${list.length} items`]);
    });
    await expect(failing).rejects.toBeInstanceOf(CheckFailure);
    const failure = (await failing.catch((error: unknown) => error)) as CheckFailure;
    expect(failure.title).toBe('Too long');
    expect(failure.lines[0]).toMatch(
      new RegExp(
        `^Counterexample \\(lists, shrunk from \\d+ to 7 characters in \\d+ cases of a ${SHRINK_REQUESTS}-request budget\\): \\[0,0,0\\]$`,
      ),
    );
    expect(failure.lines[1]).toBe('Received: 3 items');
    expect(failure.lines[2]).toBe('Replay with: --seed 4');
  });

  it('shrinks only to cases that fail the same way: a smaller case failing otherwise is not the counterexample', async () => {
    const failing = checkProperty(
      context(6),
      'strings',
      fc.constant('abc\u0000def'),
      async (text) => {
        if (text.includes('\u0000')) throw new CheckFailure('Server error', ['Received: 500']);
        if (text.length > 0) throw new CheckFailure('Unexpected status', ['Received: 201']);
      },
      { runs: 1 },
    );
    const failure = (await failing.catch((error: unknown) => error)) as CheckFailure;
    expect(failure.title).toBe('Server error');
    expect(failure.lines[0]).toMatch(/: "\\u0000"$/);
  });

  it("shrinks a case the model found breaking a promise, and reports the smallest case's exchange, the shrunk case first", async () => {
    const broken: BrokenPromise[] = [];
    const exchangeOf = (body: string) =>
      ({ status: 500, request: { method: 'POST', url: '/v1/categories', headers: {}, body } }) as unknown as Exchange;
    const failing = checkProperty(
      context(7, undefined, () => 0, broken),
      'bodies',
      fc.constant({ name: `${'🐾'.repeat(40)}\u0000`, description: 'x'.repeat(50) }),
      async (body) => {
        // As the model does: a 500 to a body holding NUL breaks no_server_error; the predicate itself passes.
        if (body.name?.includes('\u0000'))
          broken.push({
            promise: 'no_server_error',
            title: 'POST answered 500',
            lines: ['Received: 500'],
            exchange: exchangeOf(JSON.stringify(body)),
          });
      },
      { runs: 1 },
    );
    const failure = (await failing.catch((error: unknown) => error)) as CheckFailure;
    expect(failure.broke).toBe('no_server_error');
    expect(broken).toHaveLength(1);
    expect(broken[0]!.exchange.request.body).toBe('{"name":"\\u0000"}');
    expect(broken[0]!.lines[0]).toMatch(/^Counterexample \(bodies, shrunk from \d+ to \d+ characters/);
  });

  it("leaves a finding of the key's windows to the check: the case is neither failed nor shrunk for it", async () => {
    const broken: BrokenPromise[] = [];
    let sent = 0;
    const exchange = {
      status: 429,
      request: { method: 'GET', url: '/v1/categories', headers: {} },
    } as unknown as Exchange;
    const tried = await checkProperty(
      context(8, undefined, () => 0, broken),
      'reads',
      fc.integer(),
      async () => {
        sent += 1;
        if (sent === 1) broken.push({ promise: 'no_surprise_rate_limit', title: '429', lines: [], exchange });
      },
      { runs: 5 },
    );
    expect(tried).toBe(5);
    expect(sent).toBe(5);
    expect(broken.map(({ promise }) => promise)).toEqual(['no_surprise_rate_limit']);
  });

  // A live key's quota is spent where coverage needs it: cases stop once they keep showing nothing new.
  it('stops sending after `patience` cases in a row show nothing new; with no patience sends every case', async () => {
    const shown = new Set<string>();
    const sendAll = async (patience: number | undefined) => {
      shown.clear();
      let sent = 0;
      // Each case "answers" with its value's sign: two kinds of evidence, then only repeats.
      const tried = await checkProperty(
        context(5, patience, () => shown.size),
        'integers',
        fc.integer(),
        async (value) => {
          sent += 1;
          shown.add(value < 0 ? 'negative' : 'other');
        },
        { examples: [1, 2, 3, 4, 5, 6] },
      );
      return { sent, tried };
    };
    // The six examples (one of each kind) are always sent; past them only what is new: a case of a
    // kind not tried yet (a negative, a zero) or an answer not seen yet.
    const patient = await sendAll(3);
    expect(patient.sent).toBeGreaterThanOrEqual(6);
    expect(patient.sent).toBeLessThan(36);
    expect(await sendAll(undefined)).toEqual({ sent: 36, tried: 36 });
  });

  it('sends a case of a kind not tried yet even after patience ran out, and no repeat of one', async () => {
    const sent: Array<{ breaks: string }> = [];
    const kinds = fc.constantFrom('a', 'a', 'a', 'a', 'a', 'a', 'b').map((breaks) => ({ breaks }));
    await checkProperty(context(9, 1), 'kinds', kinds, async (value) => void sent.push(value), { runs: 200 });
    expect(new Set(sent.map(({ breaks }) => breaks))).toEqual(new Set(['a', 'b']));
    expect(sent.length).toBeLessThan(10);
  });
});

describe('NoveltyStop', () => {
  it('stops after `patience` cases in a row show nothing new, and starts over when something new shows', () => {
    let evidence = 1;
    const novelty = new NoveltyStop(context(1, 2, () => evidence));
    novelty.caseDone();
    expect(novelty.stopped).toBe(false);
    novelty.caseDone();
    expect(novelty.stopped).toBe(true);
    evidence += 1;
    novelty.caseDone();
    expect(novelty.stopped).toBe(false);
    expect(new NoveltyStop(context(1, undefined)).stopped).toBe(false);
  });
});
