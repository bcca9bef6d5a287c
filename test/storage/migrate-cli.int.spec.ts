import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { describeDatabaseUrl } from '@tokencircuit/storage';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** `npm run migrate` is `tsx scripts/migrate.ts`; run the same command the way a user does. */
async function migrateCli(databaseUrl: string): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run('npx', ['tsx', 'scripts/migrate.ts'], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: databaseUrl },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('npm run migrate', () => {
  const server = inject('databaseUrl');
  const name = `tc_cli_${Date.now().toString(36)}`;
  const target = new URL(server);
  target.pathname = `/${name}`;

  afterAll(async () => {
    const admin = new pg.Client({ connectionString: server });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${admin.escapeIdentifier(name)} WITH (FORCE)`);
    await admin.end();
  });

  it('creates a missing database and migrates it, then is a no-op', async () => {
    const first = await migrateCli(target.toString());
    expect(first).toMatchObject({
      code: 0,
      stdout: expect.stringContaining(`Created database ${describeDatabaseUrl(target.toString())}`),
    });
    const second = await migrateCli(target.toString());
    expect(second.code).toBe(0);
    expect(second.stdout).not.toContain('Created database');

    const client = new pg.Client({ connectionString: target.toString() });
    await client.connect();
    try {
      const { rows } = await client.query(`SELECT to_regclass('public.interventions') IS NOT NULL AS migrated`);
      expect(rows[0]).toEqual({ migrated: true });
    } finally {
      await client.end();
    }
  });

  it('exits 1 with a clear message when the server is unreachable', async () => {
    const result = await migrateCli('postgres://postgres@127.0.0.1:1/tokencircuit');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'migrate failed: Cannot reach PostgreSQL at 127.0.0.1:1/tokencircuit (ECONNREFUSED)',
    );
  });
});
