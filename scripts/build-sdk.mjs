#!/usr/bin/env node
// Builds the installable @tokencircuit/sdk into libs/sdk/dist: ESM bundles (esbuild) of the SDK and its
// subpath adapters with the contracts and the core compiled in (they are not published on their own),
// and .d.ts types (tsc) whose imports of those libraries point into dist/types. Third-party packages
// stay imports, and the build fails unless each is a dependency or peer dependency of the SDK, so the
// tarball installs anywhere. Run by `npm pack` in libs/sdk (prepack) and by the pack-and-install test.
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const sdk = join(repo, 'libs', 'sdk');
const dist = join(sdk, 'dist');
const manifest = JSON.parse(readFileSync(join(sdk, 'package.json'), 'utf8'));
const started = Date.now();

rmSync(dist, { recursive: true, force: true });

// 1. JavaScript: one entry per export, shared code in chunks (one TokenCircuitError class for all).
const entryPoints = {
  index: join(sdk, 'src', 'index.ts'),
  'vercel-ai': join(sdk, 'src', 'adapters', 'vercel-ai.ts'),
  langchain: join(sdk, 'src', 'adapters', 'langchain.ts'),
  openai: join(sdk, 'src', 'adapters', 'openai.ts'),
};
const builtins = new Set(builtinModules);
const externals = new Set();
const packageName = (specifier) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');
const keepThirdPartyExternal = {
  name: 'third-party-external',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@tokencircuit/')) return undefined; // compiled in, through tsconfig paths
      if (!args.path.startsWith('node:') && !builtins.has(args.path)) externals.add(packageName(args.path));
      return { path: args.path, external: true };
    });
  },
};
await esbuild.build({
  entryPoints,
  outdir: dist,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  tsconfig: join(repo, 'tsconfig.base.json'),
  plugins: [keepThirdPartyExternal],
  chunkNames: 'chunks/[name]-[hash]',
  legalComments: 'none',
  logLevel: 'warning',
});
const declared = new Set([
  ...Object.keys(manifest.dependencies ?? {}),
  ...Object.keys(manifest.peerDependencies ?? {}),
]);
const undeclared = [...externals].filter((name) => !declared.has(name));
if (undeclared.length > 0) {
  console.error(`sdk: the bundle imports ${undeclared.join(', ')}: add them to libs/sdk/package.json dependencies`);
  process.exit(1);
}

// 2. Types: declarations of the SDK and of what it uses from the contracts and the core.
const require = createRequire(import.meta.url);
execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(sdk, 'tsconfig.lib.json')], {
  stdio: 'inherit',
});
const types = join(dist, 'types');
const libraries = { '@tokencircuit/contracts': 'contracts', '@tokencircuit/governance': 'governance' };
function rewrite(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      rewrite(path);
      continue;
    }
    if (!entry.name.endsWith('.d.ts')) continue;
    const text = readFileSync(path, 'utf8').replace(/(['"])(@tokencircuit\/[a-z-]+)\1/g, (whole, quote, specifier) => {
      const library = libraries[specifier];
      if (library === undefined)
        throw new Error(`sdk: ${relative(repo, path)} imports ${specifier}, which is not bundled`);
      let target = relative(dirname(path), join(types, library, 'src', 'index.js'))
        .split(sep)
        .join('/');
      if (!target.startsWith('.')) target = `./${target}`;
      return `${quote}${target}${quote}`;
    });
    writeFileSync(path, text);
  }
}
rewrite(types);

// 3. Each export's types beside its bundle, so `exports` reads dist/<name>.d.ts next to dist/<name>.js.
const typeEntries = {
  index: 'sdk/src/index.js',
  'vercel-ai': 'sdk/src/adapters/vercel-ai.js',
  langchain: 'sdk/src/adapters/langchain.js',
  openai: 'sdk/src/adapters/openai.js',
};
for (const [name, target] of Object.entries(typeEntries)) {
  writeFileSync(join(dist, `${name}.d.ts`), `export * from './types/${target}';\n`);
}
console.log(
  `sdk: built libs/sdk/dist in ${((Date.now() - started) / 1000).toFixed(1)} s (imports: ${[...externals].sort().join(', ') || 'none'})`,
);
