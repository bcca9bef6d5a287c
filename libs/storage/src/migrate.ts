import pg from 'pg';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate as drizzleMigrate } from 'drizzle-orm/node-postgres/migrator';
import { MIGRATION_LOCK } from './advisory-locks.js';
import { explainConnectionError } from './connection-errors.js';
import { MIGRATIONS_FOLDER, type MigrateOptions } from './migrations-folder.js';
import { quoteSchema } from './replay/quote-schema.js';

/** The schema name as it is, once quoteSchema has found it plain (so it needs no quotes in a startup option). */
function plainSchema(schema: string): string {
  quoteSchema(schema);
  return schema;
}

/**
 * Applies every pending migration to the database at `databaseUrl`, in one transaction.
 * Safe to run twice and concurrently: applied migrations are recorded in drizzle.__drizzle_migrations,
 * and a session advisory lock queues concurrent runs against the same database.
 */
export async function migrate(databaseUrl: string, options: MigrateOptions = {}): Promise<void> {
  const client = new pg.Client({
    connectionString: databaseUrl,
    connectionTimeoutMillis: 10_000,
    // Only that schema on the path (checked plain, so it needs no quotes): no unqualified name in a migration
    // can reach the default one.
    ...(options.schema !== undefined ? { options: `-c search_path=${plainSchema(options.schema)}` } : {}),
  });
  try {
    await client.connect();
  } catch (error) {
    throw explainConnectionError(error, databaseUrl);
  }
  try {
    await client.query('SELECT pg_advisory_lock($1, $2)', [...MIGRATION_LOCK]);
    try {
      await drizzleMigrate(drizzle({ client }), {
        migrationsFolder: options.migrationsFolder ?? MIGRATIONS_FOLDER,
        ...(options.schema !== undefined ? { migrationsSchema: options.schema } : {}),
      });
    } finally {
      await client.query('SELECT pg_advisory_unlock($1, $2)', [...MIGRATION_LOCK]);
    }
  } finally {
    await client.end();
  }
}
