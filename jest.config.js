// Jest runs in native ESM mode because @msw/data and parts of msw ship ESM only.
// ts-jest compiles TypeScript as ESM; the mapper strips the `.js` suffix NodeNext imports require.
/** @type {import('jest').Config} */
export default {
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
