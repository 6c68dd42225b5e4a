import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { CheckFailure, type CheckContext } from './check.js';
import { checkProperty, NoveltyStop } from './property.js';

function context(seed: number, patience?: number, evidence = () => 0): CheckContext {
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

  it("shrinks a failure to the smallest case and says how to replay it, keeping the check's own lines", async () => {
    const failing = checkProperty(context(4), 'lists', fc.array(fc.integer({ min: 0, max: 100 })), async (list) => {
      if (list.length >= 3) throw new CheckFailure('Too long', [`Received: ${list.length} items`]);
    });
    await expect(failing).rejects.toBeInstanceOf(CheckFailure);
    const failure = (await failing.catch((error: unknown) => error)) as CheckFailure;
    expect(failure.title).toBe('Too long');
    expect(failure.lines[0]).toBe('Received: 3 items');
    expect(failure.lines[1]).toMatch(/^Counterexample \(lists, after \d+ cases, shrunk \d+ times\): \[0,0,0\]$/);
    expect(failure.lines[2]).toBe('Replay with: --seed 4');
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
