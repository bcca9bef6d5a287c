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
  http: join(sdk, 'src', 'http.ts'),
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

// 2a. The contracts without Node: the contracts index re-exports the Kafka binding, whose declarations
// name Buffer. A project without @types/node that checks libraries (skipLibCheck: false) fails on any file
// the program reaches, so SDK declarations that need nothing of those modules import a narrower index,
// portable.d.ts (every module that neither names Node's globals or modules nor imports one that does).
const contractsDir = join(types, 'contracts', 'src');
const nodeBound = /\bBuffer\b|\bNodeJS\.|from ['"]node:|reference types="node"/;
const relativeImports = (text) => [...text.matchAll(/from ['"](\.\/[^'"]+)\.js['"]/g)].map((m) => m[1].slice(2));
const moduleText = (name) => readFileSync(join(contractsDir, `${name}.d.ts`), 'utf8');
const boundCache = new Map();
function needsNode(name, seen = new Set()) {
  if (boundCache.has(name)) return boundCache.get(name);
  if (seen.has(name)) return false;
  seen.add(name);
  const text = moduleText(name);
  const bound = nodeBound.test(text) || relativeImports(text).some((other) => needsNode(other, seen));
  boundCache.set(name, bound);
  return bound;
}
const indexModules = relativeImports(readFileSync(join(contractsDir, 'index.d.ts'), 'utf8'));
const portableModules = indexModules.filter((name) => !needsNode(name));
const exportedNames = (text) =>
  new Set([
    ...[
      ...text.matchAll(/export (?:declare )?(?:abstract )?(?:type|interface|class|function|const|let|enum) (\w+)/g),
    ].map((m) => m[1]),
    ...[...text.matchAll(/export (?:type )?\{([^}]*)\}/g)].flatMap((m) =>
      m[1]
        .split(',')
        .map((part) =>
          part
            .trim()
            .split(/\s+as\s+/)
            .at(-1)
            .replace(/^type\s+/, ''),
        )
        .filter(Boolean),
    ),
  ]);
const portableNames = new Set(portableModules.flatMap((name) => [...exportedNames(moduleText(name))]));
writeFileSync(
  join(contractsDir, 'portable.d.ts'),
  portableModules.map((name) => `export * from './${name}.js';\n`).join(''),
);
const importedNames = (list) =>
  list
    .split(',')
    .map(
      (part) =>
        part
          .trim()
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)[0],
    )
    .filter(Boolean);

function rewrite(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      rewrite(path);
      continue;
    }
    if (!entry.name.endsWith('.d.ts')) continue;
    const target = (library, file) => {
      let relativePath = relative(dirname(path), join(types, library, 'src', file))
        .split(sep)
        .join('/');
      if (!relativePath.startsWith('.')) relativePath = `./${relativePath}`;
      return relativePath;
    };
    const contractsFor = (names) =>
      target('contracts', names.every((name) => portableNames.has(name)) ? 'portable.js' : 'index.js');
    const text = readFileSync(path, 'utf8')
      // Statements naming what they take from the contracts: the portable index when it has all of it.
      .replace(
        /((?:import|export)\s+(?:type\s+)?\{([^}]*)\}\s+from\s+)(['"])@tokencircuit\/contracts\3/g,
        (whole, head, list, quote) => `${head}${quote}${contractsFor(importedNames(list))}${quote}`,
      )
      .replace(
        /import\((['"])@tokencircuit\/contracts\1\)\.(\w+)/g,
        (whole, quote, name) => `import(${quote}${contractsFor([name])}${quote}).${name}`,
      )
      .replace(/(['"])(@tokencircuit\/[a-z-]+)\1/g, (whole, quote, specifier) => {
        const library = libraries[specifier];
        if (library === undefined)
          throw new Error(`sdk: ${relative(repo, path)} imports ${specifier}, which is not bundled`);
        return `${quote}${target(library, 'index.js')}${quote}`;
      });
    writeFileSync(path, text);
  }
}
rewrite(types);

// 3. Each export's types beside its bundle, so `exports` reads dist/<name>.d.ts next to dist/<name>.js.
const typeEntries = {
  index: 'sdk/src/index.js',
  http: 'sdk/src/http.js',
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
