// ESLint over the package's JS (src/js/npm) and the playground's (www/src):
// the recommended rules and a few more that catch real bugs. Run by the js
// layer of scripts/test.sh; by hand: npx --prefix tests/js eslint -c tests/js/eslint.config.mjs
import js from '@eslint/js';
import globals from 'globals';

export default [
  { basePath: '../..' },
  {
    files: ['src/js/npm/**/*.js', 'www/src/**/*.js'],
    ...js.configs.recommended,
  },
  {
    files: ['src/js/npm/**/*.js', 'www/src/**/*.js'],
    languageOptions: {
      ecmaVersion: 2024,
      sourceType: 'module',
      // Code that runs in pages and workers alike.
      globals: { ...globals.browser, ...globals.worker },
    },
    rules: {
      // Arguments are left out: a base class's method names what its overrides take.
      'no-unused-vars': ['error', { args: 'none', caughtErrors: 'none', ignoreRestSiblings: true }],
      'no-empty': ['error', { allowEmptyCatch: true }],
      eqeqeq: ['error', 'always'],
      'no-implicit-globals': 'error',
      'no-var': 'error',
      'prefer-const': 'error',
      'no-template-curly-in-string': 'error',
      'no-unreachable-loop': 'error',
      'no-constructor-return': 'error',
      'array-callback-return': 'error',
      'no-new-wrappers': 'error',
      'no-throw-literal': 'error',
      'no-return-assign': ['error', 'except-parens'],
    },
  },
  {
    // Node's entry points and the CLI.
    files: ['src/js/npm/**/*-node.js', 'src/js/npm/gym/node.js', 'src/js/npm/node.js', 'src/js/npm/cli.js'],
    languageOptions: { globals: { ...globals.node } },
  },
];
