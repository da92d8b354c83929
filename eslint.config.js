// ESLint for the portal's TypeScript: `npm run lint` runs it, then the dependency rules of
// .dependency-cruiser.cjs (no import cycle, imports only down the layers; ARCHITECTURE.md).
// typescript-eslint's recommended set and React's rules of hooks; a rule turned off or narrowed says why.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { defineConfig, globalIgnores } from 'eslint/config';

export default defineConfig(
  // tests/fixtures/lint/ breaks the dependency rules on purpose (tests/unit/lint/dependencies.test.ts)
  globalIgnores(['node_modules/', 'dist/', 'dist-server/', 'coverage/', 'test-results/', '.data/', 'src/generated/', 'tests/fixtures/lint/']),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,mts,cts}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      // a leading underscore names what is left out on purpose (a destructured key dropped, an unused parameter)
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true }],
      // off: `{} extends T` is how the API client's types ask whether an operation's arguments have a required key
      '@typescript-eslint/no-empty-object-type': 'off',
      // off: the input checks (server/inputChecks.ts, services/common.ts) match control characters on purpose
      'no-control-regex': 'off',
      // off: new in ESLint 10; the few rethrows (declaration reading, browser-test helpers) put what failed in the message
      'preserve-caught-error': 'off',
    },
  },
  {
    // off in tests and CLIs: fuzzers, access matrices and test doubles hand the code values of any shape on purpose
    files: ['tests/**', 'scripts/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // generated files carry a blanket eslint-disable that may find nothing to disable
    files: ['**/*.gen.ts'],
    linterOptions: { reportUnusedDisableDirectives: 'off' },
  },
  {
    // the dependency-cruiser configuration is CommonJS (the package is an ES module)
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly', __dirname: 'readonly', process: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
