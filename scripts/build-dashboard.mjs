#!/usr/bin/env node
// Builds the dashboard page (libs/dashboard) into libs/dashboard/dist with Vite, when it is missing or
// older than its sources (or always with --force). Run by `npm ci` (prepare), `npm start` (prestart),
// and the browser tests; the bundle is never committed.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', 'libs', 'dashboard');
const built = join(root, 'dist', 'index.html');

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

const force = process.argv.includes('--force');
const sources = Math.max(
  newestSource(join(root, 'src')),
  statSync(join(root, 'index.html')).mtimeMs,
  statSync(join(root, 'vite.config.ts')).mtimeMs,
);
if (!force && existsSync(built) && statSync(built).mtimeMs >= sources) process.exit(0);

let vite;
try {
  vite = await import('vite');
} catch {
  // A production install without dev dependencies: the API serves a 503 naming this command instead.
  console.warn('dashboard: vite is not installed (npm ci installs it); the dashboard page is not built');
  process.exit(0);
}
const started = Date.now();
await vite.build({ configFile: join(root, 'vite.config.ts') });
console.log(`dashboard: built libs/dashboard/dist in ${((Date.now() - started) / 1000).toFixed(1)} s`);
