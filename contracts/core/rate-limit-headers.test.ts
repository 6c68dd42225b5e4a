import { describe, expect, it } from '@jest/globals';
import { answerWith } from '../../test/support/answers.js';
import { integerHeaderOf } from './header-value.js';
import { rateLimitVerdict } from './rate-limit-headers.js';

const TRIPLE = { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '59', 'x-ratelimit-reset': '1767225660' };

describe('rateLimitVerdict', () => {
  it('reads the X-RateLimit-* triple', () => {
    expect(rateLimitVerdict(answerWith(TRIPLE))).toEqual({
      ok: true,
      headers: { limit: 60, remaining: 59, reset: 1_767_225_660 },
    });
  });

  it('names the first header that is missing or not plain digits, with what came instead', () => {
    const { ['x-ratelimit-remaining']: _remaining, ...withoutRemaining } = TRIPLE;
    expect(rateLimitVerdict(answerWith(withoutRemaining), 'request 2 of 3')).toEqual({
      ok: false,
      problem: {
        title: 'Missing header X-RateLimit-Remaining (request 2 of 3)',
        lines: ['Received headers: x-ratelimit-limit, x-ratelimit-reset'],
      },
    });
    expect(rateLimitVerdict(answerWith({ ...TRIPLE, 'x-ratelimit-reset': '1e9' }))).toEqual({
      ok: false,
      problem: { title: 'Invalid header X-RateLimit-Reset', lines: ['"1e9" is not an integer (digits only)'] },
    });
  });
});

describe('integerHeaderOf', () => {
  it('gives the value, or undefined when the header is missing or not plain digits', () => {
    expect(integerHeaderOf(answerWith({ 'retry-after': '30' }), 'Retry-After')).toBe(30);
    expect(integerHeaderOf(answerWith({}), 'Retry-After')).toBeUndefined();
    expect(integerHeaderOf(answerWith({ 'retry-after': '-1' }), 'Retry-After')).toBeUndefined();
  });
});
