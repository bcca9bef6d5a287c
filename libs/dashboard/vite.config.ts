import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * The fleet dashboard's bundle: Preact + uPlot, built into libs/dashboard/dist, which the API serves
 * under /dashboard/. Built by `npm run build:dashboard` (npm ci runs it through prepare; npm start
 * runs it when the bundle is missing or older than its sources).
 */
export default defineConfig({
  root,
  base: '/dashboard/',
  logLevel: 'warn',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    // One small bundle: Preact ~10 KB and uPlot ~50 KB minified.
    chunkSizeWarningLimit: 200,
  },
});
