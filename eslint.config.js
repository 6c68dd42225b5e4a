// Lint: ESLint's and typescript-eslint's recommended rules over every source file; Prettier owns the layout.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'coverage/',
      'reports/',
      'node_modules/',
      '**/node_modules/',
      'spec/openapi.d.ts',
      'demo/public/mockServiceWorker.js',
      'bench/results/',
      'test/docs/.snippets/',
      'test/docs/.api/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      // `_`-prefixed names are deliberately unused (a signature's place holder).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
  {
    // CommonJS files exist to prove `require` works.
    files: ['**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
