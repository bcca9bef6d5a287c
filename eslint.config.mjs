// Flat config for the whole workspace. The architecture rules live here so a wrong import fails `npm run lint`:
// Nx module boundaries by project tags (project.json), and a hard ban on I/O packages in the pure domain libs.
import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Packages that mean I/O: a domain lib that imports one is no longer pure (DESIGN.md, "The core is pure"). */
const IO_PACKAGES = ['@nestjs/*', 'kafkajs', 'pg', 'drizzle-orm', 'drizzle-orm/*'];
const IO_NODE_MODULES = ['fs', 'fs/promises', 'net', 'http', 'https', 'http2', 'child_process', 'dgram'];

export default tseslint.config(
  {
    ignores: ['**/node_modules/', '**/dist/', '**/coverage/', '.nx/', '.data/', 'tmp/', 'docs/', '**/*.d.ts'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,mts,cts,js,mjs,cjs}'],
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2022, sourceType: 'module' },
    plugins: { '@nx': nx },
    rules: {
      // `_`-prefixed names are deliberately unused (destructuring a field away, ignored callback arguments).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints: [
            // The pure core: depends on nothing but other domain libs, and never on an I/O package.
            { sourceTag: 'type:domain', onlyDependOnLibsWithTags: ['type:domain'], bannedExternalImports: IO_PACKAGES },
            // Shared plumbing may use the pure core (e.g. config loads the governance policy file), never a feature.
            { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared', 'scope:governance'] },
            { sourceTag: 'type:data-access', onlyDependOnLibsWithTags: ['type:domain', 'type:data-access'] },
            {
              sourceTag: 'type:testing',
              onlyDependOnLibsWithTags: ['type:domain', 'type:data-access', 'type:testing'],
            },
            {
              sourceTag: 'type:feature',
              onlyDependOnLibsWithTags: ['type:domain', 'type:data-access', 'type:feature'],
            },
            {
              sourceTag: 'type:app',
              onlyDependOnLibsWithTags: ['type:domain', 'type:data-access', 'type:feature', 'type:testing'],
            },
            // Projects not tagged yet (new libs, apps without a project.json) are not blocked; tag them to be checked.
            { sourceTag: '*', onlyDependOnLibsWithTags: ['*'] },
          ],
        },
      ],
    },
  },
  {
    // The domain libs stay pure: no transport, no database, no file or network access. Specs may read fixtures.
    files: ['libs/contracts/**/*.ts', 'libs/governance/**/*.ts'],
    ignores: ['**/*.spec.ts', '**/spec-support/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: IO_NODE_MODULES.flatMap((name) => [name, `node:${name}`]).map((name) => ({
            name,
            message: 'Domain libs are pure (DESIGN.md): do I/O in an app or a data-access lib and pass data in.',
          })),
          patterns: [
            {
              group: IO_PACKAGES,
              message:
                'Domain libs are pure (DESIGN.md): transports and databases belong in apps and data-access libs.',
            },
          ],
        },
      ],
    },
  },
  {
    // Specs build malformed input on purpose; `any` is the honest type for it.
    files: ['**/*.spec.ts', '**/spec-support/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
