import { describe, expect, it } from '@jest/globals';
import { RecentlySet } from './recently-set.js';

describe('RecentlySet', () => {
  it('forgets the least recently set entries, never holding more than a tenth over its capacity', () => {
    const set = new RecentlySet<number>(100);
    for (let index = 0; index < 1_000; index += 1) {
      set.set(`key ${index}`, index);
      // One key kept busy: set again and again, it is never the one forgotten.
      set.set('busy', index);
      expect(set.size).toBeLessThanOrEqual(110);
    }
    expect(set.get('busy')).toBe(999);
    expect(set.get('key 999')).toBe(999);
    expect(set.get('key 0')).toBeUndefined();
    const kept = [...set].map(([key]) => key);
    expect(kept.at(-1)).toBe('busy');
    // What is kept is the most recent run of keys, in the order they were set.
    const numbers = kept.slice(0, -1).map((key) => Number(key.split(' ')[1]));
    expect(numbers).toEqual(numbers.map((_, index) => numbers[0]! + index));
    expect(numbers.at(-1)).toBe(999);
  });

  it('keeps only one key, or none', () => {
    const set = new RecentlySet<string>(10);
    set.set('anonymous', 'a');
    set.set('key b', 'b');
    set.keepOnly('anonymous');
    expect([...set]).toEqual([['anonymous', 'a']]);
    set.clear();
    expect(set.size).toBe(0);
  });
});
