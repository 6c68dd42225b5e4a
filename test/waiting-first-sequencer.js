// Jest's own order runs the longest suites first, by the timings it cached on an earlier run, or else
// by file size; a fresh clone (CI) has no timings, so a short file that mostly waits (a contract run
// pacing itself to a URL target's quota windows) started last and its minute of waiting ended the run.
// Suites that say `@startsFirst` in their opening comment now start before the rest, and their waits
// overlap the suites that compute.
import { readFileSync } from 'node:fs';
import TestSequencer from '@jest/test-sequencer';

const PRAGMA = /@startsFirst\b/;

function startsFirst(path) {
  return PRAGMA.test(readFileSync(path, 'utf8').slice(0, 2_000));
}

export default class WaitingFirstSequencer extends TestSequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    const first = new Set(sorted.filter((test) => startsFirst(test.path)));
    return [...first, ...sorted.filter((test) => !first.has(test))];
  }
}
