import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FleetStack, TENANT_KEYS } from './support/fleet-stack.js';
import { json, UpstreamServer } from './support/upstream-server.js';

const run = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..', '..');
const sdkDir = join(repo, 'libs', 'sdk');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

const frameworks = ['ai', '@langchain/core'];
const repoVersionOf = (name: string): string =>
  `${name}@${(JSON.parse(readFileSync(join(repo, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version}`;

/** The environment of a user's shell: none of the npm_* variables `npm test` sets for its own package. */
function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env))
    if (!name.toLowerCase().startsWith('npm_') && name !== 'INIT_CWD') env[name] = value;
  return { ...env, ...extra };
}

/**
 * Issue 12 point 5: the SDK is packed as `npm pack` would publish it, installed into a project in a temporary
 * folder outside this repository (its dependencies from the npm registry or the local npm cache), and a
 * plain ESM script there governs a tool call against a running backend (API, Kafka, projector, decision,
 * Postgres). Nothing of the repository (path aliases, sources, node_modules) is visible to that project.
 */
describe('@tokencircuit/sdk packs, installs outside the repository and governs a tool call', () => {
  let scratch: string;
  let tarball: string;
  let stack: FleetStack;
  let finance: UpstreamServer;

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'tokencircuit-sdk-scratch-'));
    // npm pack runs the package's prepack: the build (esbuild bundles + tsc declarations) into libs/sdk/dist.
    const packed = await run('npm', ['pack', '--pack-destination', scratch, '--json'], {
      cwd: sdkDir,
      env: userEnv(),
      maxBuffer: 16 * 1024 * 1024,
    });
    const manifest = JSON.parse(readFileSync(join(sdkDir, 'package.json'), 'utf8')) as { version: string };
    tarball = join(scratch, `tokencircuit-sdk-${manifest.version}.tgz`);
    expect(existsSync(tarball), `npm pack wrote no tarball:\n${packed.stdout}\n${packed.stderr}`).toBe(true);

    writeFileSync(
      join(scratch, 'package.json'),
      JSON.stringify({ name: 'scratch-agent', version: '1.0.0', private: true, type: 'module' }, null, 2),
    );
    await run(
      'npm',
      [
        'install',
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        `./${tarball.slice(scratch.length + 1)}`,
      ],
      { cwd: scratch, env: userEnv(), maxBuffer: 16 * 1024 * 1024 },
    );
    copyFileSync(join(here, 'scratch', 'govern.mjs'), join(scratch, 'govern.mjs'));
    for (const file of ['check.ts', 'adapters.mjs', 'http-only.ts'])
      copyFileSync(join(here, 'scratch', file), join(scratch, file));

    stack = await FleetStack.start();
    finance = await UpstreamServer.start(
      json(
        403,
        { error: 'forbidden' },
        { 'www-authenticate': 'Bearer error="insufficient_scope", scope="finance:read"' },
      ),
    );
  }, 600_000);

  afterAll(async () => {
    await finance?.close();
    await stack?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('the tarball holds the built ESM, its types and README, and depends only on published packages', async () => {
    expect(scratch.startsWith(repo)).toBe(false);
    const installed = join(scratch, 'node_modules', '@tokencircuit', 'sdk');
    const pkg = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      exports: Record<string, unknown>;
    };
    expect(Object.keys(pkg.dependencies)).toEqual(['zod']);
    expect(Object.keys(pkg.exports)).toEqual([
      '.',
      './http',
      './vercel-ai',
      './langchain',
      './openai',
      './package.json',
    ]);
    for (const file of [
      'README.md',
      'dist/index.js',
      'dist/index.d.ts',
      'dist/http.js',
      'dist/http.d.ts',
      'dist/vercel-ai.js',
      'dist/openai.d.ts',
    ])
      expect(existsSync(join(installed, file)), file).toBe(true);
    expect(existsSync(join(installed, 'src'))).toBe(false);
    // zod came from the registry (or the npm cache) into the scratch project itself.
    expect(existsSync(join(scratch, 'node_modules', 'zod', 'package.json'))).toBe(true);
    // No optional peer was installed: the core and the AI SDK / OpenAI adapters run without them.
    for (const peer of ['ai', 'openai', 'kafkajs', '@langchain/core'])
      expect(existsSync(join(scratch, 'node_modules', peer)), peer).toBe(false);
  });

  it('an HTTP-only project type-checks against @tokencircuit/sdk/http with skipLibCheck false, without kafkajs or @types/node', async () => {
    // Issue 27 point 5. Runs before the frameworks are installed: nothing but the SDK and zod is there yet.
    for (const absent of ['kafkajs', '@types/node', '@types'])
      expect(existsSync(join(scratch, 'node_modules', absent)), absent).toBe(false);
    writeFileSync(
      join(scratch, 'tsconfig.http-only.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          // No ambient types at all: every declaration the SDK needs must come with it.
          types: [],
        },
        files: ['http-only.ts'],
      }),
    );
    const checked = await run(process.execPath, [tsc, '-p', 'tsconfig.http-only.json'], { cwd: scratch }).catch(
      (error: { stdout?: string; message: string }) => ({ stdout: error.stdout ?? error.message }),
    );
    expect(checked.stdout).toBe('');
    // The bundle behind the entry imports no Kafka client either (a string in a message is not an import).
    const installed = join(scratch, 'node_modules', '@tokencircuit', 'sdk', 'dist');
    const imports = (file: string) =>
      [...readFileSync(join(installed, file), 'utf8').matchAll(/(?:from|import\()\s*["']([^"']+)["']/g)].map(
        (m) => m[1]!,
      );
    const reached = new Set<string>();
    const walk = (file: string) => {
      for (const specifier of imports(file)) {
        if (specifier.startsWith('./') || specifier.startsWith('../')) {
          const next = join(dirname(file), specifier);
          if (!reached.has(next)) {
            reached.add(next);
            walk(next);
          }
        } else reached.add(specifier);
      }
    };
    walk('http.js');
    expect([...reached].filter((s) => !s.startsWith('chunks') && !s.startsWith('node:'))).toEqual(['zod']);
  });

  it('a script there is stopped at the repeated forbidden call; the model gets a sentence, the app the artifact', async () => {
    const { stdout } = await run(process.execPath, ['govern.mjs'], {
      cwd: scratch,
      env: userEnv({
        TC_URL: stack.apiUrl,
        TC_API_KEY: TENANT_KEYS.acme,
        TC_TENANT: 'acme',
        FINANCE_URL: finance.url,
      }),
      timeout: 180_000,
    });
    const result = JSON.parse(stdout.trim().split('\n').at(-1)!) as {
      modelSaw: Array<Record<string, unknown>>;
      stops: Array<{
        isTokenCircuitError: boolean;
        source: string;
        nextAction: string;
        artifact: Record<string, unknown>;
      }>;
    };

    // The first call reached the finance API and failed; the second, another query, never did.
    expect(finance.received.map((r) => r.method + ' ' + r.path.split('?')[0])).toEqual(['GET /reports/salaries']);
    expect(result.stops.map((s) => [s.source, s.nextAction, s.isTokenCircuitError])).toEqual([
      ['intervention', 'stop_request_authorization', true],
      ['preflight', 'stop_request_authorization', true],
    ]);
    for (const stop of result.stops)
      expect(stop.artifact).toMatchObject({
        failure_class: 'permission',
        principal: 'svc-reporting',
        resource_id: '/reports/salaries',
        budget: 0,
      });

    // What the model sees: four short fields, no artifact.
    for (const seen of result.modelSaw) {
      expect(Object.keys(seen).sort()).toEqual(['error', 'message', 'nextAllowedAction', 'tool']);
      expect(seen).toMatchObject({ error: 'tokencircuit_stopped', tool: 'finance.salary_report' });
      expect(JSON.stringify(seen).length).toBeLessThan(400);
    }
    expect(result.modelSaw[1]!.message).toBe(
      'TokenCircuit stopped finance.salary_report: svc-reporting is not authorized for /reports/salaries ' +
        '(blocked fleet-wide). Do not retry or rephrase this call; tell the user that access must be granted.',
    );
  });

  it('with ai and @langchain/core installed there, its imports type-check against the installed declarations', async () => {
    // The user's project has the frameworks it uses: the versions this repository tests, from the npm cache.
    await run(
      'npm',
      ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', ...frameworks.map(repoVersionOf)],
      { cwd: scratch, env: userEnv(), maxBuffer: 16 * 1024 * 1024 },
    );
    writeFileSync(
      join(scratch, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          // The user's project would have its own @types/node; this one borrows the repository's.
          typeRoots: [join(repo, 'node_modules', '@types')],
          types: ['node'],
        },
        files: ['check.ts'],
      }),
    );
    const checked = await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: scratch }).catch(
      (error: { stdout?: string; message: string }) => ({ stdout: error.stdout ?? error.message }),
    );
    expect(checked.stdout).toBe('');
  });

  it('the LangChain and OpenAI subpaths govern calls there too: a ToolMessage and a tool message with the sentence', async () => {
    // Runs after the type check, which installed @langchain/core into the scratch project.
    const { stdout } = await run(process.execPath, ['adapters.mjs'], {
      cwd: scratch,
      env: userEnv({ TC_URL: stack.apiUrl, TC_API_KEY: TENANT_KEYS.acme, TC_TENANT: 'acme', FINANCE_URL: finance.url }),
      timeout: 180_000,
    });
    const result = JSON.parse(stdout.trim().split('\n').at(-1)!) as {
      langChain: { kind: string; toolCallId: string; content: string };
      openAi: { role: string; tool_call_id: string; content: string };
      stops: string[];
    };
    expect(result.langChain).toMatchObject({ kind: 'tool', toolCallId: 'lc_1' });
    expect(result.openAi).toMatchObject({ role: 'tool', tool_call_id: 'oa_1' });
    for (const content of [result.langChain.content, result.openAi.content]) {
      const seen = JSON.parse(content) as Record<string, unknown>;
      expect(seen).toMatchObject({ error: 'tokencircuit_stopped', nextAllowedAction: 'stop_request_authorization' });
      expect(seen.message).toMatch(/svc-reporting is not authorized for \/reports\/salaries/);
      expect(content).not.toContain('causing_event_ids');
    }
    expect(result.stops).toEqual(['permission', 'permission']);
  });
});
