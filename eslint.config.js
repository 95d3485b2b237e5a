// Lint: typescript-eslint's recommended rules, no import cycles, and the layer map of
// docs/ARCHITECTURE.md (a module imports only from layers below its own). Formatting is Prettier's.
import importPlugin from 'eslint-plugin-import';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

/** Top to bottom, as in docs/ARCHITECTURE.md: each entry may import only from the entries after it. */
const LAYERS = [
  ['./src/cli.ts', './src/cli-commands.ts', './src/early-start-entry.ts', './src/start-options.ts', './src/index.ts'],
  ['./src/seed'],
  ['./src/app.ts', './src/listen.ts', './src/middlewares', './src/lifecycle'],
  ['./src/webhooks'],
  ['./src/rest'],
  ['./src/plugins'],
  ['./src/operations'],
  ['./src/write'],
  ['./src/query'],
  ['./src/service-context.ts'],
  ['./src/access'],
  ['./src/models'],
  ['./src/content-types'],
  ['./src/database'],
  ['./src/config'],
  ['./src/errors', './src/logger.ts'],
];

const layerZones = LAYERS.flatMap((targets, level) =>
  LAYERS.slice(0, level)
    .flat()
    .flatMap((from) =>
      targets.map((target) => ({ target, from, message: 'imports go only downward (docs/ARCHITECTURE.md, Layers)' })),
    ),
);

export default tseslint.config(
  {
    // test/fixtures/strapi-project, lifecycles-project, middlewares-project, server-project, core-routers-project, controllers-project and webhooks-project are users' Strapi projects (CommonJS Strapi code), read as data; upload-providers are provider packages (CommonJS)
    ignores: [
      'dist/**',
      'node_modules/**',
      '.data/**',
      'public/**',
      'coverage/**',
      'test/fixtures/strapi-project/**',
      'test/fixtures/lifecycles-project/**',
      'test/fixtures/webhooks-project/**',
      'test/fixtures/middlewares-project/**',
      'test/fixtures/server-project/**',
      'test/fixtures/core-routers-project/**',
      'test/fixtures/controllers-project/**',
      'test/fixtures/upload-providers/**',
    ],
  },
  ...tseslint.configs.recommended,
  {
    plugins: { import: importPlugin },
    settings: { 'import/resolver': { typescript: { project: './tsconfig.json' } } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-non-null-assertion': 'off',
      'import/no-cycle': ['error', { ignoreExternal: true }],
      'import/no-restricted-paths': [
        'error',
        {
          zones: [
            ...layerZones,
            {
              target: './src/engine',
              from: './src',
              except: ['./engine'],
              message: 'the engine imports nothing from the rest of the service',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
    rules: { '@typescript-eslint/no-unused-expressions': 'off' },
  },
  prettier,
);
