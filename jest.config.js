// Jest runs in native ESM mode because @msw/data and parts of msw ship ESM only.
// ts-jest compiles TypeScript as ESM; the mapper strips the `.js` suffix NodeNext imports require.
import { availableParallelism } from 'node:os';

/** @type {import('jest').Config} */
export default {
  // Most of the long suites wait (paced runs against a server, Redis, Chromium, child processes) rather
  // than compute: at least three at once overlap those waits even on two cores (npm test here: 308 s -> 164 s).
  // More: the six suites marked @startsFirst (four witnesses, the Redis pair, the CLI's URL runs) spend
  // minutes waiting for quota windows from the start; with six workers they held every one of them while
  // the two cores idled, so two more workers compute beside them.
  maxWorkers: Math.max(8, availableParallelism() - 1),
  // Suites marked @startsFirst (they mostly wait) run before the others, so a fresh clone ends no later than a warm one.
  testSequencer: '<rootDir>/test/waiting-first-sequencer.js',
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json' }],
  },
  testMatch: ['<rootDir>/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/examples/'],
  // The consumer projects and the build output are not part of this package's sources.
  modulePathIgnorePatterns: ['<rootDir>/examples/', '<rootDir>/dist/'],
};
