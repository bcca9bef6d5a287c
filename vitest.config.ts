import swc from 'unplugin-swc';
import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

// Nest needs decorator metadata, which esbuild does not emit: every tier compiles through SWC.
const plugins = [swc.vite({ module: { type: 'es6' } })];
const alias = {
  // Before the index: Vite matches an alias as a path prefix, so the more specific entry point goes first.
  '@tokencircuit/contracts/testing': fileURLToPath(new URL('./libs/contracts/src/testing/index.ts', import.meta.url)),
  '@tokencircuit/contracts': fileURLToPath(new URL('./libs/contracts/src/index.ts', import.meta.url)),
  '@tokencircuit/governance': fileURLToPath(new URL('./libs/governance/src/index.ts', import.meta.url)),
  '@tokencircuit/storage': fileURLToPath(new URL('./libs/storage/src/index.ts', import.meta.url)),
  '@tokencircuit/testing': fileURLToPath(new URL('./libs/testing/src/index.ts', import.meta.url)),
  '@tokencircuit/config': fileURLToPath(new URL('./libs/config/src/index.ts', import.meta.url)),
  '@tokencircuit/kafka': fileURLToPath(new URL('./libs/kafka/src/index.ts', import.meta.url)),
  '@tokencircuit/service-kit': fileURLToPath(new URL('./libs/service-kit/src/index.ts', import.meta.url)),
  '@tokencircuit/bus': fileURLToPath(new URL('./libs/bus/src/index.ts', import.meta.url)),
  '@tokencircuit/projection': fileURLToPath(new URL('./libs/projection/src/index.ts', import.meta.url)),
  '@tokencircuit/decision-relay': fileURLToPath(new URL('./libs/decision-relay/src/index.ts', import.meta.url)),
  // The SDK's subpath exports before its index (prefix match, as for api-http below).
  '@tokencircuit/sdk/vercel-ai': fileURLToPath(new URL('./libs/sdk/src/adapters/vercel-ai.ts', import.meta.url)),
  '@tokencircuit/sdk/langchain': fileURLToPath(new URL('./libs/sdk/src/adapters/langchain.ts', import.meta.url)),
  '@tokencircuit/sdk/openai': fileURLToPath(new URL('./libs/sdk/src/adapters/openai.ts', import.meta.url)),
  '@tokencircuit/sdk': fileURLToPath(new URL('./libs/sdk/src/index.ts', import.meta.url)),
  '@tokencircuit/integrations': fileURLToPath(new URL('./libs/integrations/src/index.ts', import.meta.url)),
  // Before the index: Vite matches an alias as a path prefix, so the more specific entry point goes first.
  '@tokencircuit/api-http/wire': fileURLToPath(new URL('./libs/api-http/src/wire.ts', import.meta.url)),
  '@tokencircuit/api-http': fileURLToPath(new URL('./libs/api-http/src/index.ts', import.meta.url)),
  // Before the index (prefix match): the CLI reads checkpoints without loading Nest.
  '@tokencircuit/projector-service/checkpoints': fileURLToPath(
    new URL('./libs/projector-service/src/checkpoints.ts', import.meta.url),
  ),
  '@tokencircuit/projector-service': fileURLToPath(new URL('./libs/projector-service/src/index.ts', import.meta.url)),
  '@tokencircuit/decision-service': fileURLToPath(new URL('./libs/decision-service/src/index.ts', import.meta.url)),
  // Before the notifier: Vite matches an alias as a path prefix, so the longer name goes first.
  '@tokencircuit/notifier-service': fileURLToPath(new URL('./libs/notifier-service/src/index.ts', import.meta.url)),
  '@tokencircuit/notifier': fileURLToPath(new URL('./libs/notifier/src/index.ts', import.meta.url)),
  '@tokencircuit/mcp-gateway': fileURLToPath(new URL('./libs/mcp-gateway/src/index.ts', import.meta.url)),
  '@tokencircuit/otlp': fileURLToPath(new URL('./libs/otlp/src/index.ts', import.meta.url)),
  '@tokencircuit/tracing': fileURLToPath(new URL('./libs/tracing/src/index.ts', import.meta.url)),
  // Before the index (prefix match): the CLI's clients without the Nest modules.
  '@tokencircuit/composition/infrastructure': fileURLToPath(
    new URL('./libs/composition/src/infrastructure.ts', import.meta.url),
  ),
  '@tokencircuit/composition': fileURLToPath(new URL('./libs/composition/src/index.ts', import.meta.url)),
};

export default defineConfig({
  plugins,
  resolve: { alias },
  test: {
    projects: [
      {
        plugins,
        resolve: { alias },
        test: {
          name: 'unit',
          include: ['{apps,libs,scripts,test,examples}/**/*.unit.spec.ts'],
          environment: 'node',
          // Guards against hangs, not speed checks: property suites of 100-150 runs and the AsyncAPI parse in a
          // beforeAll took over the 5 s / 10 s defaults on a loaded 2-core machine (speed: the benchmarks).
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        plugins,
        resolve: { alias },
        test: {
          name: 'int',
          include: ['{test,apps,libs,scripts,examples}/**/*.{int,e2e}.spec.ts'],
          environment: 'node',
          globalSetup: ['./test/support/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
