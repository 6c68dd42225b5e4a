import { describe, expect, it } from '@jest/globals';
import { shrinkValue } from './shrink-value.js';

/** A predicate that counts its calls, as a target counts requests. */
function counted<T>(fails: (value: T) => boolean) {
  const calls = { count: 0 };
  return { calls, stillFails: async (value: T) => (calls.count += 1) > 0 && fails(value) };
}

describe('shrinkValue', () => {
  it('shrinks a long string of mixed characters to the one that causes the failure, the rest plain', async () => {
    const noisy = `🐾e\u0301\u202e${'x'.repeat(90)}\u0000${'שלום'.repeat(25)}\u0007`;
    const body = { name: `!${'🐾'.repeat(60)}`, description: noisy };
    const { calls, stillFails } = counted(
      (candidate: typeof body) =>
        typeof candidate.name === 'string' &&
        candidate.name.length > 0 &&
        typeof candidate.description === 'string' &&
        candidate.description.includes('\u0000'),
    );
    const shrunk = await shrinkValue(body, stillFails, { budget: 150 });
    expect(shrunk.value).toEqual({ name: 'a', description: '\u0000' });
    expect(shrunk.exhausted).toBe(false);
    expect(shrunk.attempts).toBe(calls.count);
    expect(shrunk.attempts).toBeLessThan(80);
  });

  it('makes a string that must stay long plain in a few attempts, runs of characters at once', async () => {
    const long = '🐾\u202ee\u0301'.repeat(70);
    const shrunk = await shrinkValue(long, async (candidate) => [...candidate].length > 255, { budget: 150 });
    expect(shrunk.value).toBe('a'.repeat(256));
    expect(shrunk.attempts).toBeLessThan(40);
  });

  it('drops the members the failure does not need, and keeps those it does', async () => {
    const { stillFails } = counted((candidate: Record<string, unknown>) => candidate.count === 7);
    const shrunk = await shrinkValue({ name: 'cat', count: 7, tags: ['a', 'b'], active: true }, stillFails, {
      budget: 100,
    });
    expect(shrunk.value).toEqual({ count: 7 });
  });

  it("keeps a case's kind (its `breaks`) as it is", async () => {
    const { stillFails } = counted((candidate: { breaks?: string; body?: string }) => candidate.body === 'x');
    const shrunk = await shrinkValue({ breaks: 'name: maxLength', body: 'x' }, stillFails, { budget: 100 });
    expect(shrunk.value).toEqual({ breaks: 'name: maxLength', body: 'x' });
  });

  it('shrinks numbers towards 0, arrays to the items that matter, and bytes to the offending ones', async () => {
    const list = await shrinkValue([5, 90, 3, 70], async (candidate) => candidate.length >= 3, { budget: 100 });
    expect(list.value).toEqual([0, 0, 0]);
    const bytes = await shrinkValue(
      Uint8Array.from([0x7b, 0x22, 0xff, 0x22, 0x7d]),
      async (candidate) => candidate.includes(0xff),
      { budget: 100 },
    );
    expect([...bytes.value]).toEqual([0xff]);
  });

  it('stops at the budget with the smallest case found so far, and says it could go further', async () => {
    const shrunk = await shrinkValue('x'.repeat(64), async (candidate) => candidate.length > 0, { budget: 3 });
    expect(shrunk.attempts).toBe(3);
    expect(shrunk.exhausted).toBe(true);
    expect(shrunk.value.length).toBeLessThan(64);
    expect(shrunk.value.length).toBeGreaterThan(0);
  });

  it('sends no candidate twice', async () => {
    const seen: string[] = [];
    await shrinkValue(
      { name: 'ab\u0000cd' },
      async (candidate) => {
        seen.push(JSON.stringify(candidate));
        return candidate.name?.includes('\u0000') ?? false;
      },
      { budget: 100 },
    );
    expect(new Set(seen).size).toBe(seen.length);
  });
});
