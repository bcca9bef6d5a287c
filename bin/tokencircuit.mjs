#!/usr/bin/env node
// `npx tokencircuit …`: runs the TypeScript CLI (apps/cli/src/main.ts) through tsx's ESM loader, with
// the repository's tsconfig so the @tokencircuit/* path aliases resolve from any working directory.
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
await import('../apps/cli/src/main.ts');
