import { fileURLToPath } from 'node:url';

/** The repository's top-level migrations/ folder (drizzle-kit output plus hand-written SQL). */
export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../../migrations', import.meta.url));

export interface MigrateOptions {
  /** Override where the migration files are, e.g. when running from a bundle. */
  readonly migrationsFolder?: string;
}
