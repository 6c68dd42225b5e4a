import { describe, expect, it } from '@jest/globals';
import { capturedIo } from './captured-io.js';
import { RunProgress, waitCountdown } from './progress.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('waitCountdown', () => {
  it('prints a plain line every few seconds of a wait where the output is not a terminal, and stops with it', async () => {
    const { io, out } = capturedIo();
    const done = waitCountdown(io, 0.1)(2, 'Retry-After of the 429');
    await sleep(350);
    done();
    const printed = out.length;
    expect(printed).toBeGreaterThanOrEqual(2);
    expect(out[0]).toMatch(/^ {6}still waiting: [12] s left of 2 s: Retry-After of the 429$/);
    await sleep(250);
    expect(out).toHaveLength(printed);
  });

  it('rewrites one terminal line in place each second, counting down, and erases it when the wait ends', async () => {
    const { io, out } = capturedIo();
    const shown: string[] = [];
    const done = waitCountdown({ ...io, status: (text) => shown.push(text) })(3, 'the window ends');
    await sleep(1_100);
    done();
    expect(shown[0]).toBe('      waiting: 3 s left of 3 s: the window ends');
    expect(shown[1]).toBe('      waiting: 2 s left of 3 s: the window ends');
    expect(shown.at(-1)).toBe('');
    expect(out).toEqual([]);
  });
});

describe('RunProgress', () => {
  it('counts each check once, and shows requests against the estimate once there is one', () => {
    const progress = new RunProgress(3);
    expect(progress.done('a', 12)).toBe('[1/3 checks, 12 requests]');
    progress.estimate = 900;
    expect(progress.done('b', 40)).toBe('[2/3 checks, 40 of about 900 requests]');
    expect(progress.done('b', 55)).toBe('[2/3 checks, 55 of about 900 requests]');
  });
});
