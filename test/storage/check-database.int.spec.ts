import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkDatabase,
  DatabaseStartError,
  migrate,
  MIGRATIONS_FOLDER,
  readJournal,
  SERVICE_ROLES,
} from '@tokencircuit/storage';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';

/** A copy of the migrations folder whose journal stops `drop` migrations short: an older build's. */
function olderBuild(drop: number): string {
  const folder = mkdtempSync(join(tmpdir(), 'tc-older-build-'));
  cpSync(MIGRATIONS_FOLDER, folder, { recursive: true });
  const path = join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(path, 'utf8')) as { entries: unknown[] };
  journal.entries = journal.entries.slice(0, -drop);
  writeFileSync(path, JSON.stringify(journal));
  return folder;
}

/** A copy of the migrations folder whose journal has one migration more than this build: a newer build's. */
function newerBuild(): string {
  const folder = mkdtempSync(join(tmpdir(), 'tc-newer-build-'));
  cpSync(MIGRATIONS_FOLDER, folder, { recursive: true });
  const path = join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(path, 'utf8')) as { entries: { idx: number; when: number; tag: string }[] };
  const last = journal.entries.at(-1)!;
  journal.entries.push({ ...last, idx: last.idx + 1, when: last.when + 1, tag: '9999_a_newer_build' });
  writeFileSync(path, JSON.stringify(journal));
  folders.push(folder);
  return folder;
}

function as(user: string, url: string): string {
  const at = new URL(url);
  at.username = user;
  return at.toString();
}

const folders: string[] = [];

describe('checkDatabase against the real server: the migration level, never migrating', () => {
  let behind: TestDatabase;
  let current: TestDatabase;
  let empty: TestDatabase;
  beforeAll(async () => {
    [behind, current, empty] = await Promise.all([
      createTestDatabase('tc_check_behind', { migrate: false }),
      createTestDatabase('tc_check_current'),
      createTestDatabase('tc_check_empty', { migrate: false }),
    ]);
    folders.push(olderBuild(2));
    await migrate(behind.url, { migrationsFolder: folders[0] });
  });
  afterAll(async () => {
    await Promise.all([behind?.drop(), current?.drop(), empty?.drop()]);
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });

  it('a database an older build migrated: not_migrated, naming where it is, what is expected and npm run migrate', async () => {
    const journal = readJournal(MIGRATIONS_FOLDER);
    const error = await checkDatabase(behind.url).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DatabaseStartError);
    expect(error).toMatchObject({ problem: 'not_migrated' });
    expect((error as Error).message).toContain(
      `(at ${journal.at(-3)!.tag}, expects ${journal.at(-1)!.tag}, 2 pending): run "npm run migrate"`,
    );
    // Checking changed nothing: the two migrations are still pending.
    const { rows } = await behind.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations',
    );
    expect(rows[0]!.n).toBe(journal.length - 2);
  });

  it('an empty database: not_migrated, and checking created nothing', async () => {
    await expect(checkDatabase(empty.url)).rejects.toThrow(
      /is not migrated \(no migration applied; .*"npm run migrate"/,
    );
    const { rows } = await empty.pool.query("SELECT 1 FROM pg_namespace WHERE nspname = 'drizzle'");
    expect(rows).toEqual([]);
  });

  it('a database at this build: current; to an older build it is ahead, and accepted', async () => {
    await expect(checkDatabase(current.url)).resolves.toEqual({
      level: { status: 'current', at: readJournal(MIGRATIONS_FOLDER).at(-1)!.tag },
    });
    folders.push(olderBuild(1));
    await expect(checkDatabase(current.url, { migrationsFolder: folders.at(-1)! })).resolves.toMatchObject({
      level: { status: 'ahead' },
    });
  });

  it("every service's own login role reads drizzle's history (0037), so its start is checked too", async () => {
    // The test server trusts local logins, so the roles created by the migrations log in without a password.
    for (const role of SERVICE_ROLES.map((r) => r.role)) {
      await expect(checkDatabase(as(role, current.url))).resolves.toMatchObject({ level: { status: 'current' } });
    }
    // …and refuses a service role's start on a database an older build migrated, like the owner's.
    await expect(
      checkDatabase(as('tokencircuit_notifier', current.url), { migrationsFolder: newerBuild() }),
    ).rejects.toThrow(/not migrated to this build/);
  });
});
