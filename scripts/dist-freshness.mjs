// Whether dist/ (scripts/build-dist.mjs) is older than what it is compiled from. Kept apart from the build,
// and free of imports beyond node:, because bin/tokencircuit.mjs runs it at every start: a walk of stat
// calls (a few milliseconds), no compiler loaded unless something changed.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
export const DIST = join(REPO, 'dist');
export const STAMP = join(DIST, '.built');

/** A project built by Vite for the browser (libs/dashboard): never compiled for Node, linked into dist/ as it is. */
export function isBrowserBundle(projectDir) {
  return existsSync(join(projectDir, 'vite.config.ts'));
}

const compiled = (name) => name.endsWith('.ts') && !name.endsWith('.spec.ts') && !name.endsWith('.d.ts');
const skippedDir = (name) => name === 'dist' || name === 'node_modules' || name === 'spec-support';

/**
 * Walks a tree: collects the files to compile and returns the newest modification time seen, directories
 * included (a deleted or renamed source changes its directory's time).
 */
function walk(dir, files) {
  let newest = statSync(dir).mtimeMs;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!skippedDir(entry.name)) newest = Math.max(newest, walk(path, files));
    } else if (compiled(entry.name)) {
      files.push(path);
      newest = Math.max(newest, statSync(path).mtimeMs);
    }
  }
  return newest;
}

function scan() {
  const files = [];
  let newest = Math.max(
    statSync(join(REPO, 'tsconfig.base.json')).mtimeMs,
    statSync(join(REPO, 'scripts', 'build-dist.mjs')).mtimeMs,
    statSync(fileURLToPath(import.meta.url)).mtimeMs,
  );
  for (const tree of ['apps', 'libs']) {
    newest = Math.max(newest, statSync(join(REPO, tree)).mtimeMs);
    for (const project of readdirSync(join(REPO, tree), { withFileTypes: true })) {
      const dir = join(REPO, tree, project.name);
      if (project.isDirectory() && !isBrowserBundle(dir)) newest = Math.max(newest, walk(dir, files));
    }
  }
  return { files, newest };
}

/** Every .ts of apps/ and libs/ that runs in Node: specs, spec support and browser bundles left out. */
export function compiledSources() {
  return scan().files;
}

/** True when dist/ was built after the last change to any compiled source (or to the build itself). */
export function distIsFresh() {
  if (!existsSync(STAMP)) return false;
  return statSync(STAMP).mtimeMs >= scan().newest;
}
