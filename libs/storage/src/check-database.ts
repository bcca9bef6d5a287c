import pg from 'pg';
import { describeDatabaseUrl, explainConnectionError } from './connection-errors.js';
import { DatabaseStartError, databaseRefusalOf } from './database-start-error.js';
import { MIGRATIONS_FOLDER } from './migrations-folder.js';
import { migrationLevel, readJournal, type MigrationLevel } from './migration-level.js';

export interface DatabaseCheckOptions {
  readonly timeoutMs?: number;
  /** Where this build's migrations are (their journal says which level the database must be at). */
  readonly migrationsFolder?: string;
}

/** What checkDatabase found: the migration level, or `unreadable` when this login may not read the history. */
export interface DatabaseCheck {
  readonly level: MigrationLevel | { readonly status: 'unreadable' };
}

// pg_catalog is readable by every login, so whether the history exists is known even to a service role
// that may not read it (drizzle's schema belongs to whoever ran `npm run migrate`).
const HISTORY = `
  SELECT has_schema_privilege(n.oid, 'USAGE') AND has_table_privilege(c.oid, 'SELECT') AS readable
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
   WHERE n.nspname = 'drizzle' AND c.relname = '__drizzle_migrations'`;

/**
 * What a connected service checks before it builds anything: the database answers, this login is
 * accepted, and the schema is at this build's migrations. It never creates nor migrates (only
 * `npm run migrate` and the embedded mode do): a mistyped DATABASE_URL must stop the start, not become a
 * second, empty fleet. Raises DatabaseUnreachableError (server not reached) or DatabaseStartError (one
 * line naming what to fix: missing database or role, password, TLS, not migrated).
 */
export async function checkDatabase(databaseUrl: string, options: DatabaseCheckOptions = {}): Promise<DatabaseCheck> {
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: options.timeoutMs ?? 10_000 });
  try {
    try {
      await client.connect();
      await client.query('SELECT 1');
    } catch (error) {
      throw databaseRefusalOf(error, databaseUrl) ?? explainConnectionError(error, databaseUrl);
    }
    const journal = readJournal(options.migrationsFolder ?? MIGRATIONS_FOLDER);
    const { rows } = await client.query<{ readable: boolean }>(HISTORY);
    let level: DatabaseCheck['level'];
    if (rows.length === 0) level = migrationLevel(journal, []);
    else if (!rows[0]!.readable) level = { status: 'unreadable' };
    else {
      const applied = await client.query<{ created_at: string }>(
        'SELECT created_at::text AS created_at FROM drizzle.__drizzle_migrations',
      );
      level = migrationLevel(
        journal,
        applied.rows.map((row) => Number(row.created_at)),
      );
    }
    refuseUnmigrated(level, databaseUrl);
    return { level };
  } finally {
    await client.end().catch(() => undefined);
  }
}

function refuseUnmigrated(level: DatabaseCheck['level'], databaseUrl: string): void {
  const name = describeDatabaseUrl(databaseUrl);
  if (level.status === 'empty') {
    throw new DatabaseStartError(
      'not_migrated',
      `database ${name} is not migrated (no migration applied; this build expects ${level.expected}): services never migrate; run "npm run migrate" with DATABASE_URL set to it`,
    );
  }
  if (level.status === 'behind') {
    throw new DatabaseStartError(
      'not_migrated',
      `database ${name} is not migrated to this build (at ${level.at}, expects ${level.expected}, ${level.pending.length} pending): run "npm run migrate" with DATABASE_URL set to it`,
    );
  }
}
