import { describe, expect, it } from '@jest/globals';
import { PRISM_CAPABILITIES, PRISM_LACKING } from './prism-target.js';
import { skipReason } from './target.js';

describe('skipReason', () => {
  const prism = { capabilities: PRISM_CAPABILITIES, lacking: PRISM_LACKING };

  it('is undefined when the target has every capability the check needs', () => {
    expect(skipReason(['writes'], prism)).toBeUndefined();
    expect(skipReason([], prism)).toBeUndefined();
  });

  it('is the target\'s reason for the first capability it lacks', () => {
    expect(skipReason(['writes', 'realAuth'], prism)).toBe('Prism accepts any bearer token: only a missing Authorization gives 401');
  });

  it('still names the capability when the target gives no reason', () => {
    expect(skipReason(['clock'], { capabilities: [], lacking: {} })).toBe('the target lacks the "clock" capability');
  });
});
