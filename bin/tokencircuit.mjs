#!/usr/bin/env node
// `npx tokencircuit …`: runs the compiled CLI (dist/apps/cli/src/main.js, built by scripts/build-dist.mjs
// during `npm ci`). When a source changed since, it compiles again first (SWC, under a second, silently:
// the command's own output stays the only output), so a clone being edited never runs stale code.
import { distIsFresh } from '../scripts/dist-freshness.mjs';

if (!distIsFresh()) {
  const { buildDist } = await import('../scripts/build-dist.mjs');
  await buildDist();
}
await import('../dist/apps/cli/src/main.js');
