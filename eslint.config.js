import tseslint from 'typescript-eslint';

// Dependencies point inward: cli, http → modules → db, blob-stores, shared.
const noFastifyInServices = {
  files: ['src/modules/**/*.service.ts', 'src/modules/**/*.repository.ts', 'src/shared/**', 'src/db/**'],
  rules: {
    'no-restricted-imports': ['error', { patterns: [{ group: ['fastify', '@fastify/*'], message: 'Services and lower layers never import Fastify.' }, { group: ['**/http/*', '**/cli/*'], message: 'Lower layers never import http/ or cli/.' }] }],
  },
};
const sharedImportsNothing = {
  files: ['src/shared/**'],
  rules: {
    'no-restricted-imports': ['error', { patterns: [{ group: ['**/modules/*', '**/db/*', '**/http/*', '**/cli/*'], message: 'shared/ imports nothing from the rest of the app.' }] }],
  },
};
const routesNeverTouchRepositories = {
  files: ['src/modules/**/*.routes.ts', 'src/http/**', 'src/cli/**'],
  rules: {
    'no-restricted-imports': ['error', { patterns: [{ group: ['**/*.repository.js'], message: 'Route → service → repository: routes and the CLI never call a repository.' }] }],
  },
};
/** Error codes are declared once, in the catalogue; code names them as `ErrorCode.someCode`, never as a string. */
const errorCodesFromTheCatalogue = {
  files: ['src/**'],
  ignores: ['src/shared/error-codes.ts'],
  rules: {
    'no-restricted-syntax': [
      'error',
      ...['NewExpression', 'CallExpression[callee.type="Super"]'].map((call) => ({
        selector: `${call} > Literal[value=/^[a-z][a-z0-9]*(_[a-z0-9]+)+$/]`,
        message: 'An error code comes from the catalogue: ErrorCode.someCode (src/shared/error-codes.ts).',
      })),
    ],
  },
};

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'coverage/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  noFastifyInServices,
  sharedImportsNothing,
  routesNeverTouchRepositories,
  errorCodesFromTheCatalogue,
);
