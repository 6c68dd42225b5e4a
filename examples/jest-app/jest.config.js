// ts-jest's ESM preset. Jest's default CommonJS mode cannot load msw >= 2.13 on Node < 24.9: msw requires
// `rettime`, which ships ES modules only, and Jest only loads those through require()
// from Node 24.9. On Node 24.9+ `preset: 'ts-jest'` alone works, through the package's CommonJS build.
/** @type {import('jest').Config} */
export default {
  preset: 'ts-jest/presets/default-esm',
  testEnvironment: 'node',
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
};
