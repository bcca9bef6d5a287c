#!/usr/bin/env node
// Compiles every TypeScript source of apps/ and libs/ into dist/ (same layout, one .js per .ts) with SWC,
// so the CLI and the services start as plain JavaScript instead of compiling at every start through tsx.
// Run by `npm ci` (prepare), by `npm start` and `start:*` (pre scripts), and by bin/tokencircuit.mjs when
// dist/ is missing or older than its sources (see dist-freshness.mjs); --force always builds. Nothing is
// listed by hand: a new app or lib is found on disk and its @tokencircuit/* alias read from tsconfig.base.json.
import { mkdir, rename, symlink, utimes, writeFile } from 'node:fs/promises';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DIST, REPO, STAMP, compiledSources, distIsFresh, isBrowserBundle } from './dist-freshness.mjs';

/** Top-level entries never mirrored into dist/: the compiled trees, and code with entry points of its own. */
const NOT_LINKED = new Set([
  'apps',
  'libs',
  'dist',
  'node_modules',
  'tmp',
  'coverage',
  'test',
  'bench',
  'scripts',
  'bin',
]);
const isCode = (name) => /\.[cm]?[jt]s$/.test(name);

function swcOptions(paths) {
  return {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      target: 'es2022',
      // Nest resolves constructor parameters from emitted decorator metadata, which only SWC and tsc write.
      transform: { legacyDecorator: true, decoratorMetadata: true },
      baseUrl: REPO,
      paths,
      keepClassNames: true,
    },
    // resolveFully: the aliases become relative paths ending in .js, which dist/ mirrors exactly.
    module: { type: 'es6', resolveFully: true },
    sourceMaps: true,
  };
}

/** Writes through a temporary name: a CLI starting while another one builds never reads half a file. */
async function writeAtomic(path, text) {
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, text);
  await rename(temporary, path);
}

async function linkOnce(target, path) {
  await mkdir(dirname(path), { recursive: true });
  try {
    await symlink(relative(dirname(path), target), path);
  } catch (error) {
    if (error.code !== 'EEXIST') throw error;
  }
}

/**
 * Sources find repository files relative to themselves (`new URL('../../../migrations', import.meta.url)`):
 * dist/ links every top-level entry it does not compile, and every browser bundle (built by Vite), so those
 * paths land on the same files from dist/.
 */
async function linkAssets() {
  for (const entry of readdirSync(REPO)) {
    if (entry.startsWith('.') || NOT_LINKED.has(entry) || isCode(entry)) continue;
    await linkOnce(join(REPO, entry), join(DIST, entry));
  }
  for (const tree of ['apps', 'libs']) {
    for (const project of readdirSync(join(REPO, tree))) {
      if (isBrowserBundle(join(REPO, tree, project)))
        await linkOnce(join(REPO, tree, project), join(DIST, tree, project));
    }
  }
}

/**
 * Compiles dist/ when stale (or always with `force`); returns the seconds spent and the sources that did
 * not compile, or null when it was fresh.
 */
export async function buildDist({ force = false } = {}) {
  if (!force && distIsFresh()) return null;
  const started = Date.now();
  const { transformFile } = await import('@swc/core');
  const { compilerOptions } = JSON.parse(readFileSync(join(REPO, 'tsconfig.base.json'), 'utf8'));
  const options = swcOptions(compilerOptions.paths ?? {});
  const sources = compiledSources();
  // SWC transforms on its own thread pool: a bounded number in flight keeps memory flat on a small machine.
  const queue = [...sources];
  const failed = [];
  const worker = async () => {
    for (let source = queue.pop(); source; source = queue.pop()) {
      const output = join(DIST, relative(REPO, source)).replace(/\.ts$/, '.js');
      let compiled;
      try {
        compiled = await transformFile(source, {
          ...options,
          filename: source,
          outputPath: output,
          sourceFileName: relative(dirname(output), source),
        });
      } catch (error) {
        // As tsx did: a source that does not compile (someone is editing it) fails whoever imports it, not
        // every command. Its next change makes dist/ stale again.
        failed.push(relative(REPO, source));
        const message = `${relative(REPO, source)} does not compile: ${String(error.message ?? error)}`;
        await writeAtomic(output, `throw new SyntaxError(${JSON.stringify(message)});\n`);
        continue;
      }
      await writeAtomic(output, `${compiled.code}\n//# sourceMappingURL=${output.split('/').pop()}.map\n`);
      if (compiled.map) await writeAtomic(`${output}.map`, compiled.map);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  await linkAssets();
  // The stamp last: an interrupted build stays stale and is done again by the next start.
  // Dated when the build began: a source saved while it ran is newer, so the next start builds again.
  await writeAtomic(STAMP, `${new Date(started).toISOString()} ${sources.length} files\n`);
  await utimes(STAMP, started / 1000, started / 1000);
  return { seconds: (Date.now() - started) / 1000, failed };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  let swcPresent = true;
  try {
    await import('@swc/core');
  } catch {
    swcPresent = false;
  }
  if (!swcPresent) {
    // A production install without dev dependencies: keep what dist/ holds (built before), say what to do.
    console.warn(
      `dist: @swc/core is not installed (npm ci installs it); ${existsSync(STAMP) ? 'keeping the existing build' : 'nothing is built'}`,
    );
    process.exit(0);
  }
  const force = process.argv.includes('--force');
  const built = await buildDist({ force });
  if (built !== null) {
    // Said by `npm ci` and `npm run build` only: before `npm start` a failed start stays one line (issue 27).
    if (force || process.env.npm_lifecycle_event === 'prepare') {
      console.log(`dist: compiled apps/ and libs/ into dist/ in ${built.seconds.toFixed(1)} s`);
    }
    for (const source of built.failed) console.error(`dist: ${source} does not compile (importing it throws)`);
    if (built.failed.length > 0) process.exitCode = 1;
  }
}
