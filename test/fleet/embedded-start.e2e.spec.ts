import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ToolCallInput } from '@tokencircuit/contracts';
import { outcome } from '@tokencircuit/contracts/testing';
import { waitFor } from '@tokencircuit/testing';

const ROOT = resolve(import.meta.dirname, '../..');

/** The README's run command on a machine with nothing configured: embedded PGlite + in-process bus. */
describe('npm start (embedded mode)', () => {
  let child: ChildProcess | undefined;
  let dataDir: string | undefined;

  afterAll(async () => {
    if (child?.pid) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('starts with nothing configured, serves the API, folds an event into an intervention, and stops cleanly on Ctrl+C', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'tc-embedded-'));
    const env: Record<string, string | undefined> = {
      ...process.env,
      TOKENCIRCUIT_DATA_DIR: dataDir,
      API_HTTP_PORT: '0',
      LOG_LEVEL: 'warn',
    };
    // CI exports real infrastructure for the other tests; the embedded mode is what a fresh machine gets.
    delete env.KAFKA_BROKERS;
    delete env.DATABASE_URL;
    delete env.TOKENCIRCUIT_API_KEYS;
    let output = '';
    child = spawn('npm', ['start', '--silent'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));

    const url = await waitFor(() => /API\s+(http:\/\/\S+)/.exec(output)?.[1], {
      maxWait: 90_000,
      name: `the embedded server to print its URL; output so far:\n${output}`,
    });
    expect(output).toContain('embedded mode');
    expect(output).toContain(`${dataDir}/pglite`);
    const [tenant, key] = (await readFile(join(dataDir, 'api-keys'), 'utf8')).trim().split(':') as [string, string];
    expect(tenant).toBe('demo');

    const health = await fetch(`${url}/health/ready`);
    expect(health.status).toBe(200);
    const docs = await fetch(`${url}/docs/openapi.json`);
    expect(docs.status).toBe(200);

    const call: ToolCallInput = {
      agent: 'a1',
      run: 'r1',
      callId: 'c1',
      attempt: 1,
      intentId: 'i1',
      tool: 'sql_query',
      effect: 'read',
      resourceClass: 'sql_namespace',
      resourceId: 'finance.salaries',
      principal: 'svc-bot',
      authScope: 'read:finance',
      arguments: { sql: 'SELECT * FROM salaries' },
    };
    const event = outcome(
      'demo',
      call,
      { status: 'failed', error: { sqlState: '42501', message: 'permission denied for table salaries' } },
      { id: 'evt-embedded-1', time: '2026-11-29T10:00:00Z' },
    );
    const ingest = await fetch(`${url}/v1/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(event),
    });
    expect(ingest.status).toBe(202);
    const listed = await waitFor(
      async () => {
        const response = await fetch(`${url}/v1/audit/interventions`, { headers: { authorization: `Bearer ${key}` } });
        const body = (await response.json()) as { items: { failureClass: string; level: string }[] };
        return body.items.length > 0 ? body.items : null;
      },
      { maxWait: 20_000, name: 'the intervention in the audit API' },
    );
    expect(listed[0]).toMatchObject({ failureClass: 'permission', level: 'block' });

    // As a terminal's Ctrl+C does: the signal goes to the whole process group (npm, tsx, the server), and
    // the server closes HTTP, the decision loop and PGlite, then says so.
    process.kill(-child.pid!, 'SIGINT');
    await waitFor(() => output.includes('TokenCircuit Fleet stopped'), {
      maxWait: 20_000,
      name: `a clean stop; output:\n${output}`,
    });
  }, 180_000);
});
