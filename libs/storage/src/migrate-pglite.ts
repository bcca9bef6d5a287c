import type { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate as drizzleMigrate } from 'drizzle-orm/pglite/migrator';
import { MIGRATIONS_FOLDER, type MigrateOptions } from './migrations-folder.js';

/**
 * Applies the same migrations to an embedded PGlite database (embedded mode). PGlite has a single
 * connection, so no lock is needed; like migrate(), running it twice is a no-op.
 */
export async function migratePglite(db: PGlite, options: MigrateOptions = {}): Promise<void> {
  await drizzleMigrate(drizzle({ client: db }), {
    migrationsFolder: options.migrationsFolder ?? MIGRATIONS_FOLDER,
    ...(options.schema !== undefined ? { migrationsSchema: options.schema } : {}),
  });
}
